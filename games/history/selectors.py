"""Finished games: a player's list of them, a match's replay, its record and the
proofs of its deals.  Reads only.

Only hands that are over are ever shown here (docs/rules.md §5: once a hand is
over every hand in it may be shown): a replay, a record or a proof of a table
still being played does not exist, and a verify page exists only for a hand
that is over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.core.paginator import Page, Paginator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.names import Who, say
from games.describe import table_mode
from games.engine import Draw, Event, Match, Pass, Play, Round, Rules, parse_move
from games.engine.deals import commitment
from games.engine.verify import Checked, HandProof, as_json, check
from games.history.coach import still_reviewing
from games.history.coach_words import coach_words
from games.models import Hand, MoveReview, Seat, Table
from games.records import load_match
from games.selectors import seat_name

#: How many finished games a page of a profile's history lists.
HISTORY_PAGE = 10
#: Tables whose finished hands may be replayed: a match over, or ended early.
REPLAYABLE = (Table.Status.FINISHED, Table.Status.ABANDONED)


class PastGame(NamedTuple):
    """A finished game in a player's history, as their profile lists it."""

    code: str
    finished_at: datetime | None
    mode: str
    preset: str
    players: Who
    score: str  # the player's side first: "100 – 64"
    won: bool


def finished_games(*, user: User, page: int | str | None = 1) -> Page[Seat]:
    """``user``'s finished games, newest first, a page at a time (``past_games`` of it)."""
    seats = (
        Seat.objects.filter(user=user, table__status=Table.Status.FINISHED)
        .select_related("table")
        .prefetch_related("table__seats__user", "table__results")
        .order_by("-table__finished_at", "-table__pk")
    )
    return Paginator(seats, HISTORY_PAGE).get_page(page)


def past_games(seats: Page[Seat]) -> list[PastGame]:
    """The games of one page of ``finished_games``."""
    games = []
    for seat in seats:
        table = seat.table
        rules = table.rules
        others = sorted(table.seats.all(), key=lambda s: s.number)
        points = {r.side: r.points for r in table.results.all()}
        mine = rules.side_of(seat.number)
        order = [mine, *(side for side in range(rules.sides) if side != mine)]
        games.append(
            PastGame(
                code=table.code,
                finished_at=table.finished_at,
                mode=table_mode(table),
                preset=table.preset,
                players=Who([seat_name(s) for s in others]),
                score=" – ".join(str(points.get(side, 0)) for side in order),
                won=seat.number in table.winner_seats,
            )
        )
    return games


# -- a match's replay -------------------------------------------------------


class ReplayStep(NamedTuple):
    """The hand after one more move (the first step: as dealt); its line is
    ``replay_line``'s, asked for by the page when shown."""

    hands: tuple[tuple[str, ...], ...]  # each seat's tiles, "high|low"
    boneyard: int
    seat: int | None  # who moved; None for the deal
    said: str  # the move in words
    mark: str = ""  # the coach's mark of a person's move: "?!", "?" or "??"
    coach: str = ""  # on a marked move: the play the coach preferred, and why


#: What the replay's script shows of a step (its mark is in the page's log).
SCRIPT_KEYS = ("hands", "boneyard", "seat", "said", "coach")


class ReplayHand(NamedTuple):
    number: int  # from 1
    dealer: str
    steps: tuple[ReplayStep, ...]
    result: str
    scores: str  # the match's score after this hand
    verifiable: bool
    reviewing: bool = False  # the coach has not finished with this hand yet

    def steps_data(self) -> list[dict[str, Any]]:
        """The steps for the replay's script (``json_script``): what it shows of each
        (its line is asked for when shown: ``views.line``)."""
        return [{key: getattr(s, key) for key in SCRIPT_KEYS} for s in self.steps]


@dataclass(frozen=True)
class Replay:
    table: Table
    names: tuple[str, ...]  # by seat
    hands: tuple[ReplayHand, ...]
    final_scores: str
    verdict: str  # who won the match, or that it was drawn or ended early


def finished_rounds(table: Table) -> tuple[list[Hand], list[Round]]:
    """The table's hands that are over and their rounds, replayed; nothing of a table
    still being played (or not started)."""
    if table.status not in REPLAYABLE:
        return [], []
    hands = [h for h in table.hands.prefetch_related("moves").order_by("number") if h.over]
    if not hands:
        return [], []
    return hands, load_match(table, hands).rounds


def replay_of(table: Table) -> Replay | None:
    """Every finished hand of a finished (or ended) match, move by move; None if none."""
    hands, rounds = finished_rounds(table)
    if not rounds:
        return None
    seats = sorted(table.seats.select_related("user"), key=lambda s: s.number)
    names = tuple(seat_name(s) for s in seats)
    rules = table.rules
    reviews = _reviews(hands)
    reviewing = still_reviewing(hands)
    out = []
    for i, (hand, done) in enumerate(zip(hands, rounds, strict=True)):
        scores = Match(rules, rounds=rounds[: i + 1]).scores
        out.append(
            ReplayHand(
                number=hand.number + 1,
                dealer=names[done.dealer],
                steps=_steps(rules, hand.initial_position, done, names, reviews.get(hand.pk, {})),
                result=_result(done, names),
                scores=_scores(rules, scores, names),
                verifiable=hand.verifiable,
                reviewing=hand.pk in reviewing,
            )
        )
    final = Match(rules, rounds=rounds).scores
    return Replay(table, names, tuple(out), _scores(rules, final, names), _verdict(table, names))


def _verdict(table: Table, names: tuple[str, ...]) -> str:
    if table.status != Table.Status.FINISHED:
        return _("The game was ended before its end.")
    if not table.winner_seats:
        return _("The game is drawn.")
    return say(_("%(names)s won the game."), names=Who([names[s] for s in table.winner_seats]))


def _reviews(hands: list[Hand]) -> dict[int, dict[int, MoveReview]]:
    """The coach's reviews of these (finished) hands, by hand and ply."""
    out: dict[int, dict[int, MoveReview]] = {}
    for review in MoveReview.objects.filter(hand__in=hands):
        out.setdefault(review.hand_id, {})[review.ply] = review
    return out


def _steps(
    rules: Rules,
    position: str,
    done: Round,
    names: tuple[str, ...],
    reviews: dict[int, MoveReview],
) -> tuple[ReplayStep, ...]:
    """The hand as dealt, then after each of its moves (with the coach's marks)."""
    r = Round.from_position(rules, position)
    steps = [_step(r, None, _("The deal."))]
    for ply, event in enumerate(done.log):
        r.play(event.move)
        said = _said(event.move, event.ends, names[event.seat])
        review = reviews.get(ply)
        mark, advice = ("", "")
        if review is not None and review.mark:
            mark, advice = coach_words(review, opening=event.ends is None)
        steps.append(_step(r, event.seat, said, mark, advice))
    return tuple(steps)


def _kind_and_end(event: Event) -> tuple[str, str]:
    """A move's kind ("play", "draw", "pass") and the end a tile was played on ("left",
    "right"; "" for the opening, a draw or a pass), as the table's last move says them."""
    move = event.move
    kind = "play" if isinstance(move, Play) else "draw" if isinstance(move, Draw) else "pass"
    played = move.end if isinstance(move, Play) and event.ends is not None else ""
    return kind, played


class StepLine(NamedTuple):
    """The line after one step of a hand's replay, and the move that made it."""

    line: tuple[str, ...]  # placed tiles, "left|right", left to right
    kind: str  # the move's kind: "play", "draw", "pass"; "" for the deal
    played: str  # the end a tile was played on: "left", "right"; "" for the opening,
    # a draw, a pass or the deal (as the table's last move says it)


def replay_line(table: Table, number: int, step: int) -> StepLine | None:
    """The line of hand ``number`` (from 1, as ``ReplayHand.number``) after ``step``
    moves (0: as dealt), as ``replay_of`` shows it; None where ``replay_of`` shows no
    such hand or step (a table still being played, a hand not over).  Reads that one
    hand alone."""
    if table.status not in REPLAYABLE or number < 1:
        return None
    hand = table.hands.filter(number=number - 1).prefetch_related("moves").first()
    if hand is None or not hand.over:
        return None
    moves = [parse_move(m.text) for m in hand.moves.all()]
    if not 0 <= step <= len(moves):
        return None
    r = Round.from_position(table.rules, hand.initial_position)
    for move in moves[:step]:
        r.play(move)
    kind, played = _kind_and_end(r.log[-1]) if step else ("", "")
    return StepLine(tuple(str(p) for p in r.line), kind, played)


def _step(r: Round, seat: int | None, said: str, mark: str = "", coach: str = "") -> ReplayStep:
    return ReplayStep(
        hands=tuple(tuple(str(t) for t in hand) for hand in r.hands),
        boneyard=len(r.boneyard),
        seat=seat,
        said=said,
        mark=mark,
        coach=coach,
    )


def _said(move: object, ends: tuple[int, int] | None, name: str) -> str:
    who = Who([name])
    if isinstance(move, Draw):
        return say(_("%(name)s draws a tile."), name=who)
    if isinstance(move, Pass):
        return say(_("%(name)s passes."), name=who)
    assert isinstance(move, Play)
    if ends is None:
        return say(_("%(name)s opens with %(tile)s."), name=who, tile=str(move.tile))
    if move.end == "left":
        return say(_("%(name)s plays %(tile)s on the left."), name=who, tile=str(move.tile))
    return say(_("%(name)s plays %(tile)s on the right."), name=who, tile=str(move.tile))


def _result(done: Round, names: tuple[str, ...]) -> str:
    """How the hand ended, in the words of the table's result."""
    result = done.result
    assert result is not None
    if not result.winners:
        return _("Blocked, and tied: nobody scores.")
    who = Who([names[s] for s in result.winners])
    if result.reason == "domino":
        how = _("Domino!")
    else:
        how = _("Blocked!")
        if done.rules.blocked_scoring == "none":
            return f"{how} " + say(_("%(names)s: fewest pips, hand won."), names=who)
    points = ngettext(
        "%(names)s: +%(points)s point.", "%(names)s: +%(points)s points.", result.points
    )
    return f"{how} " + say(points, names=who, points=str(result.points))


def _scores(rules: Rules, scores: tuple[int, ...], names: tuple[str, ...]) -> str:
    """Each side's match points: "anna 15 · bruno 40"."""
    return " · ".join(
        f"{Who([names[s] for s in rules.seats_of(side)])} {scores[side]}"
        for side in range(rules.sides)
    )


# -- the record and the proofs ------------------------------------------------


def record_of(table: Table) -> str | None:
    """The match's finished hands as the engine's record text (``Match.from_record``
    reads it back); None when there is none to show."""
    _hands, rounds = finished_rounds(table)
    if not rounds:
        return None
    return Match(table.rules, rounds=rounds).record()


def hand_proof(table: Table, hand: Hand, done: Round) -> HandProof:
    """What is revealed of a finished hand: its seeds, its deal and its moves."""
    return HandProof(
        table=table.code,
        rules=table.rules.to_text(),
        hand=hand.number + 1,
        commitment=commitment(table.code, hand.number + 1, hand.seed),
        seed=hand.seed,
        client_seeds=hand.client_seed_values,
        position=hand.initial_position,
        moves=tuple(str(m) for m in done.moves),
    )


class VerifiedHand(NamedTuple):
    hand: Hand
    proof: HandProof
    checked: Checked
    client_seeds: tuple[tuple[str, str], ...]  # (player's name, seed)
    proof_json: str


def verified_hand(table: Table, number: int) -> VerifiedHand | None:
    """Hand ``number`` (from 1) checked against its commitment, if it is over and was
    dealt from a committed seed; None otherwise (a hand being played has no proof)."""
    hand = table.hands.filter(number=number - 1).prefetch_related("moves").first()
    if hand is None or not hand.over or not hand.verifiable:
        return None
    done = Round.replay(table.rules, hand.initial_position, [m.text for m in hand.moves.all()])
    if not done.over:
        return None
    proof = hand_proof(table, hand, done)
    seats = {s.number: seat_name(s) for s in table.seats.select_related("user")}
    named = tuple((seats.get(int(seat), "?"), str(seed)) for seat, seed in hand.client_seeds)
    text = json.dumps(as_json([proof]), indent=2)
    return VerifiedHand(hand, proof, check(proof), named, text)


def match_proofs(table: Table) -> str | None:
    """The proofs of every finished, verifiable hand, as the verify command's JSON."""
    hands, rounds = finished_rounds(table)
    proofs = [
        hand_proof(table, hand, done)
        for hand, done in zip(hands, rounds, strict=True)
        if hand.verifiable
    ]
    return json.dumps(as_json(proofs), indent=2) if proofs else None
