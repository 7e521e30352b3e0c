"""The coach: how much each decision of a finished hand gave up, judged from the
player's own view at that moment (docs/rules.md §5), never from the hidden hands.

Every legal play is scored by the hard bot's own search
(:meth:`~games.engine.bots.hard.HardBot.evaluate`) at a larger, fixed number of
sampled deals: the deals are consistent with what the player could know (their
tiles, the line, the counts, who passed or drew on what), and every candidate is
played out on the same deals, so the differences are the moves' own.  A result is
the side's margin as the hard bot counts it: points scored or conceded, plus 10
for winning the hand (on a single-hand table, the chance of winning it:
:func:`points_per_unit`).  A move's *loss* is the best candidate's mean minus the
played one's; past the thresholds below it is marked, as lichess marks chess moves.

The seed fixes the sampled deals, so an analysis reproduces exactly; since only the
view is read, reshuffling the hidden tiles in any way the view allows changes
nothing.  Each marked move also gets the coach's preferred play and one reason, a
short code with its values (the site words it), read off simple, true features of
the position (:func:`reason_for`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from .bots.base import ends_after, plays_of
from .bots.hard import HardBot
from .bots.knowledge import Knowledge
from .bots.value import WIN_POINTS, points_per_unit
from .moves import Move, Play
from .round import Round
from .rules import Rules
from .tiles import SUIT
from .view import PlayerView

#: Sampled deals per decision.  At 1,000 a decision's loss moves by about 0.75 points
#: (a standard deviation) with the seed, well under the first threshold, and one
#: person's moves of a 7-tile, 4-player hand are reviewed in about a second on one core
#: (docs/coach.md).
ITERATIONS = 1000

#: Losses (in points of the hand's expected margin, the 10-point win bonus included)
#: from which a move is marked, chosen from docs/coach.md's measurements of
#: medium bots' hands (a sound club player's rules of thumb): about one move with a
#: choice in nine loses 4 or more (an inaccuracy, "?!"), one in eighteen 8 or more
#: (a mistake, "?": about a hand's win bonus), one in fifty 15 or more (a blunder,
#: "??": typically a stranded heavy double or a hand thrown away).  Not 3 for the
#: first: two reviews of the same move with different seeds differed by up to 3.9
#: points, so a 3 could be the dice's; 4 never was in the measurements.
INACCURACY = 4.0
MISTAKE = 8.0
BLUNDER = 15.0

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}

#: A double this heavy or heavier (4|4 and up) is risky to keep.
HEAVY_DOUBLE = 8
#: Shedding at least this many more pips is worth saying.
HEAVIER_BY = 3


@dataclass(frozen=True, slots=True)
class Review:
    """The coach's verdict on one decision (``ply``: its index in the hand's moves)."""

    ply: int
    seat: int
    played: Move
    loss: float  # 0 when there was nothing to choose
    mark: str  # "", "inaccuracy", "mistake" or "blunder"
    preferred: Play | None  # the best play found, when the played one is marked
    reason: str  # a code (see reason_for), "" when unmarked
    params: dict[str, str | int] = field(default_factory=dict)
    choices: int = 1  # distinct plays there were


def mark_for(loss: float) -> str:
    """The lichess-like mark for a loss: "", "inaccuracy", "mistake" or "blunder"."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return ""


def seed_for(*parts: object) -> int:
    """A stable seed from the hand's identity (a table's code, the hand, the ply)."""
    text = ":".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def review_move(
    view: PlayerView, played: Move, ply: int, *, seed: int, iterations: int = ITERATIONS
) -> Review:
    """The verdict on ``played``, chosen by ``view.seat`` from ``view`` alone."""
    assert view.seat is not None
    plays = plays_of(view) if view.legal_moves else []
    played_play = _as_candidate(view, played, plays)
    if len(plays) < 2 or played_play is None:
        return Review(ply, view.seat, played, 0.0, "", None, "", choices=len(plays) or 1)
    bot = HardBot(seed=seed, iterations=iterations, tree=0)  # each play's mean, in points
    means = [m if m is not None else float("-inf") for m in bot.evaluate(view, plays)]
    best = max(range(len(plays)), key=lambda k: (means[k], -k))
    loss = max(0.0, means[best] - means[plays.index(played_play)]) * points_per_unit(view.rules)
    mark = mark_for(loss)
    if not mark:
        return Review(ply, view.seat, played, round(loss, 2), "", None, "", choices=len(plays))
    preferred = plays[best]
    reason, params = reason_for(view, preferred, played_play, loss)
    return Review(
        ply, view.seat, played, round(loss, 2), mark, preferred, reason, params, len(plays)
    )


def review_hand(
    rules: Rules,
    position: str,
    moves: Iterable[Move],
    *,
    seats: Iterable[int] | None = None,
    plies: Iterable[int] | None = None,
    seed: int = 0,
    iterations: int = ITERATIONS,
) -> list[Review]:
    """Reviews of a hand's decisions, replayed from its initial ``position``.

    ``seats``: whose moves (default: everyone's); ``plies``: only these decisions
    (default: all).  Decision ``ply`` is searched with ``seed_for(seed, ply)``, so
    it reproduces whichever others are reviewed with it."""
    r = Round.from_position(rules, position)
    wanted_seats = None if seats is None else set(seats)
    wanted_plies = None if plies is None else set(plies)
    out = []
    for ply, move in enumerate(moves):
        seat = r.turn
        if (wanted_seats is None or seat in wanted_seats) and (
            wanted_plies is None or ply in wanted_plies
        ):
            view = r.view(seat)
            out.append(
                review_move(view, move, ply, seed=seed_for(seed, ply), iterations=iterations)
            )
        r.play(move)
    return out


def _as_candidate(view: PlayerView, played: Move, plays: list[Play]) -> Play | None:
    """The candidate ``played`` is (on equal ends, either side is the same play)."""
    if type(played) is not Play:
        return None
    if played in plays:
        return played
    twin = Play(played.tile, "left")
    return twin if twin in plays else None


# -- why: simple, true features of the position --------------------------------


def reason_for(
    view: PlayerView, preferred: Play, played: Play, loss: float
) -> tuple[str, dict[str, str | int]]:
    """Why ``preferred`` beats ``played``, as a code and its values; the first that
    holds of these, in this order:

    - ``blocks_next``: after ``preferred`` the next player (an opponent) surely has
      no tile for either end; after ``played`` they might (``blocks_next_both``
      when both ends show the same number).
    - ``partner_stuck``: ``played`` leaves only numbers the partner passed or drew
      on (they surely cannot follow), ``preferred`` does not.
    - ``rival_number``: ``preferred`` leaves open a number an opponent passed on.
    - ``heavy_double``: ``preferred`` lays a heavy double (4|4 and up), which
      fits one number only and costs a lot if it stays in the hand.
    - ``double``: ``preferred`` lays a double (fitting one number only, it is the
      tile most easily stranded), ``played`` does not.
    - ``scarce_number``: ``preferred`` leaves open a number of which at most one
      tile is out of sight (the others can hardly answer it).
    - ``kept_suit``: ``played`` gave up the last tile of a number (that
      ``preferred`` keeps), leaving fewer numbers to answer with.
    - ``follow``: after ``preferred`` more tiles of the hand fit the open ends.
    - ``fewer_answers``: the next player is an opponent and, after ``preferred``,
      at least 2 fewer of the tiles out of sight fit the ends.
    - ``heavier``: ``preferred`` sheds at least 3 pips more.
    - ``margin``: none of these: the search's average margin, in points;
      ``margin_wins`` on a single-hand table: how much more often it wins, in %.
    """
    knowledge = Knowledge.from_view(view)
    rules = view.rules
    me = knowledge.seat
    following = (me + 1) % rules.players
    good, bad = ends_after(view, preferred), ends_after(view, played)
    tile = str(preferred.tile)

    def stuck(seat: int, ends: tuple[int, int]) -> bool:
        return all(knowledge.cannot_match(seat, n) for n in set(ends))

    rival_next = rules.side_of(following) != rules.side_of(me)
    if rival_next and stuck(following, good) and not stuck(following, bad):
        if good[0] == good[1]:
            return "blocks_next_both", {"tile": tile, "number": good[0]}
        return "blocks_next", {"tile": tile, "a": good[0], "b": good[1]}
    partners = [s for s in rules.seats_of(rules.side_of(me)) if s != me]
    for partner in partners:
        if stuck(partner, bad) and not stuck(partner, good):
            return "partner_stuck", {"tile": tile, "played": str(played.tile)}
    rivals = [s for s in range(rules.players) if rules.side_of(s) != rules.side_of(me)]
    for number in sorted(set(good) - set(bad)):
        if any(knowledge.cannot_match(s, number) for s in rivals):
            return "rival_number", {"tile": tile, "number": number}
    heavy = preferred.tile.is_double and preferred.tile.value >= HEAVY_DOUBLE
    if heavy and not played.tile.is_double:
        return "heavy_double", {"tile": tile}
    if preferred.tile.is_double and not played.tile.is_double:
        return "double", {"tile": tile}
    for number in sorted(set(good) - set(bad)):
        if (knowledge.unseen & SUIT[number]).bit_count() <= 1:
            return "scarce_number", {"tile": tile, "number": number}
    hand = knowledge.hand
    after_good, after_bad = hand & ~preferred.tile.bit, hand & ~played.tile.bit
    for number in (played.tile.high, played.tile.low):
        gave_up = after_bad and not after_bad & SUIT[number] and after_good & SUIT[number]
        if gave_up and _numbers(after_good) > _numbers(after_bad):
            return "kept_suit", {"tile": tile, "played": str(played.tile), "number": number}
    fits_good = _fitting(after_good, good)
    fits_bad = _fitting(after_bad, bad)
    if fits_good > fits_bad:
        return "follow", {"tile": tile, "count": fits_good, "other": fits_bad}
    answers_good = _fitting(knowledge.unseen, good)
    answers_bad = _fitting(knowledge.unseen, bad)
    if rival_next and answers_good + 2 <= answers_bad:
        return "fewer_answers", {"tile": tile, "count": answers_good, "other": answers_bad}
    if preferred.tile.value - played.tile.value >= HEAVIER_BY:
        return "heavier", {"tile": tile, "pips": preferred.tile.value - played.tile.value}
    if rules.target is None:  # the loss is a chance of winning the hand, not points
        return "margin_wins", {"tile": tile, "percent": max(1, round(loss * 100 / WIN_POINTS))}
    return "margin", {"tile": tile, "points": max(1, round(loss))}


def _numbers(hand: int) -> int:
    return sum(1 for n in range(7) if hand & SUIT[n])


def _fitting(hand: int, ends: tuple[int, int]) -> int:
    return (hand & (SUIT[ends[0]] | SUIT[ends[1]])).bit_count()


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "ITERATIONS",
    "MARKS",
    "MISTAKE",
    "Review",
    "mark_for",
    "reason_for",
    "review_hand",
    "review_move",
    "seed_for",
]
