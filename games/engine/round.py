"""One hand of dominoes (docs/rules.md §3): deal, opening, turns, end and score.

>>> from .rules import PRESETS
>>> r = Round.from_position(PRESETS["duello"],
...     "hands=6|6,6|1/1|0 boneyard=2|2 line=- turn=0 dealer=1 opener=6|6")
>>> r.legal_moves()
(Play(Tile(6, 6), 'left'),)
>>> r.play(Play(Tile(6, 6), "left")); r.legal_moves()
(Draw(),)
>>> r.play(Draw()); r.legal_moves()
(Pass(),)
>>> r.play(Pass()); str(r)
'hands=6|1/1|0,2|2 boneyard=- line=6|6 turn=0 dealer=1'
>>> r.pop(), str(r)  # take the pass back
(Pass(), 'hands=6|1/1|0,2|2 boneyard=- line=6|6 turn=1 dealer=1')
>>> r.push(PASS); r.play(parse_move("6|1R")); r.result
RoundResult(winners=(0,), points=5, reason='domino', pips=(0, 5))

:meth:`Round.play` checks a move; :meth:`Round.push` makes one of
:meth:`Round.legal_moves` without checking and :meth:`Round.pop` takes it back,
for searching; :meth:`Round.play_out` and :meth:`Round.finish` play a hand on
to its end at random (the bots' play-outs) in one loop over the same masks.
The state is kept as bit masks and numbers, changed in place move by move; the
line, the log and the text forms are built when read.
"""

from __future__ import annotations

import functools
import math
import random
import secrets
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from .moves import (
    _PLAYS,
    DRAW,
    EMPTY_LINE,
    PASS,
    Draw,
    Ends,
    Event,
    IllegalMoveError,
    Move,
    Pass,
    Play,
    parse_move,
)
from .rules import Rules
from .scoring import RoundResult, score_blocked, score_domino
from .tiles import (
    _BITS_HI,
    _BITS_LO,
    _HALF,
    _HALF_MASK,
    _PLACED,
    ALL_TILES,
    SUIT,
    VALUE,
    Placed,
    Tile,
    format_tiles,
    indices,
    mask_of,
    parse_tiles,
    tiles_of,
)
from .view import PlayerView

if TYPE_CHECKING:
    from typing import TypeAlias

    # One made move, enough to take it back and to write the log: (move, the
    # seat that made it, the ends code before it[, the tile drawn]).
    Made: TypeAlias = tuple[Move, int, int] | tuple[Move, int, int, int]

#: :attr:`Round.outcome` of a blocked hand (otherwise the seat that went out).
BLOCKED: Final = -1

_ANY = -1  # opening: any tile of the opener's hand (the previous winner opens)
_DECK: Final = tuple(range(len(ALL_TILES)))
_BIT: Final = tuple(1 << i for i in _DECK)
_INDEX_OF_BIT: Final = {bit: i for i, bit in enumerate(_BIT)}
# (index, bit) of each double, the highest first.
_DOUBLES_HIGH_FIRST: Final = tuple((t.index, t.bit) for t in (Tile(n, n) for n in range(6, -1, -1)))
_NEXT_SEAT: Final = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, 9)}

# The open ends are one number, their code: left * 7 + right, EMPTY_LINE before
# the first tile.  By code: each end's number (-1 for none) and the tiles that fit.
_LEFT: Final = (*(code // 7 for code in range(EMPTY_LINE)), -1)
_RIGHT: Final = (*(code % 7 for code in range(EMPTY_LINE)), -1)
_OPEN: Final = (*(SUIT[code // 7] | SUIT[code % 7] for code in range(EMPTY_LINE)), 0)
# _FITS_AT[code][i]: the plays of tile i at those ends, left end first (none if it does not fit).
# A tile's tuples are shared between codes (left, right or both): fewer objects for the
# CPU cache to hold.
_TILE_PLAYS: Final[tuple[tuple[tuple[Play, ...], ...], ...]] = tuple(
    ((), (left,), (right,), (left, right)) for left, right in _PLAYS
)
_FITS_AT: Final = tuple(
    tuple(_TILE_PLAYS[i][(SUIT[left] >> i & 1) | (SUIT[right] >> i & 1) << 1] for i in _DECK)
    for left, right in zip(_LEFT[:EMPTY_LINE], _RIGHT[:EMPTY_LINE], strict=True)
)


# For Round.play_out, by ends code: the tiles that fit either end, the left end
# and the right end (on an empty line: any tile, a free opening, on the left).
_FITS_EITHER: Final = (*_OPEN[:EMPTY_LINE], (1 << len(_DECK)) - 1)
_SUIT_LEFT: Final = (*(SUIT[left] for left in _LEFT[:EMPTY_LINE]), _FITS_EITHER[EMPTY_LINE])
_SUIT_RIGHT: Final = (*(SUIT[right] for right in _RIGHT[:EMPTY_LINE]), 0)


def _heaviest(bits: tuple[int, ...]) -> int:
    best = -1
    for i in bits:
        if best < 0 or (VALUE[i], i) > (VALUE[best], best):
            best = i
    return best


# The heaviest tile in each 14-bit half of a mask (-1 for none), ties to the higher half.
_HEAVY_LO: Final = tuple(_heaviest(b) for b in _BITS_LO)
_HEAVY_HI: Final = tuple(_heaviest(b) for b in _BITS_HI)
_KEY: Final = tuple(v * 32 + i for i, v in enumerate(VALUE))


# The moves when nothing fits, and the forced opening plays by tile.
_ONLY_DRAW: Final[tuple[Move, ...]] = (DRAW,)
_ONLY_PASS: Final[tuple[Move, ...]] = (PASS,)
_OPENINGS: Final[tuple[tuple[Move, ...], ...]] = tuple((left,) for left, _ in _PLAYS)


def find_opening(hands: Sequence[int], dealer: int) -> tuple[int, int]:
    """The seat that opens and the tile it must lay (docs/rules.md §3.2).

    The highest double; failing that the heaviest tile, the first seat in play
    order (from the dealer's left) winning a tie, and the higher half first.
    """
    dealt = sum(hands)  # the hands hold different tiles
    for index, bit in _DOUBLES_HIGH_FIRST:
        if dealt & bit:
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat, index
    players = len(hands)
    best: tuple[int, int] | None = None
    best_value = -1
    for offset in range(1, players + 1):
        seat = (dealer + offset) % players
        own = indices(hands[seat])
        if not own:
            continue
        top = max(own, key=lambda i: (VALUE[i], i))  # same value: the higher half
        if VALUE[top] > best_value:  # a tie stays with the seat earlier in play order
            best_value, best = VALUE[top], (seat, top)
    if best is None:
        raise ValueError("nobody holds a tile: there is no hand to play")
    return best


@functools.cache
def _hand_slices(players: int, size: int) -> tuple[slice, ...]:
    """Where each seat's tiles lie in a shuffled deck."""
    return tuple(slice(start, start + size) for start in range(0, players * size, size))


def shuffled(rng: random.Random) -> list[int]:
    """The 28 tiles' bits in the order ``rng.shuffle`` leaves them, drawn as it draws.

    ``Random.shuffle`` is a Fisher–Yates in Python making one method call per
    tile; inlined here, it deals the same deck for the same generator in about
    a third of the time (a deal is a good part of a random hand's cost).
    """
    deck = list(_BIT)
    kind = type(rng)
    if kind is not random.Random and (
        kind.shuffle is not random.Random.shuffle
        or _RANDBELOW is None
        or (getattr(kind, "_randbelow", None) is not _RANDBELOW)
    ):
        rng.shuffle(deck)
        return deck
    getrandbits = rng.getrandbits
    for i, below, bits in _SWAPS:
        j = getrandbits(bits)
        while j >= below:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# random.Random's own _randbelow: a draw of bit_length() bits, again until below.
_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)
_SWAPS: Final = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(_DECK) - 1, 0, -1))


class Round:
    """A hand in progress, changed by :meth:`play` (checked) or :meth:`push`/:meth:`pop`.

    Build one with :meth:`deal`, :meth:`from_hands` or :meth:`from_position`.
    """

    __slots__ = (
        "_draw",
        "_ends",
        "_hands",
        "_line0",
        "_next",
        "_opening",
        "_outcome",
        "_pile",
        "_read",
        "_result",
        "_trail",
        "dealer",
        "over",
        "rules",
        "turn",
    )

    rules: Rules
    dealer: int
    #: The seat to act (once the hand is over: the seat that made the last move).
    turn: int
    #: The hand has ended (Domino! or blocked).  Read it; never set it.
    over: bool

    @classmethod
    def _checked(
        cls,
        rules: Rules,
        hands: Sequence[int],
        boneyard: Sequence[int],
        *,
        dealer: int = 0,
        line: Sequence[Placed] = (),
        turn: int | None = None,
        opener: int | None = None,
    ) -> Round:
        """A position given as masks and indices, checked (for the public constructors)."""
        if len(hands) != rules.players:
            raise ValueError(
                f"{rules.players} players need {rules.players} hands, not {len(hands)}"
            )
        if not 0 <= dealer < rules.players:
            raise ValueError(
                f"the dealer must be a seat from 0 to {rules.players - 1}, not {dealer}"
            )
        seen = 0
        for mask in (*hands, *(1 << i for i in boneyard), *(p.tile.bit for p in line)):
            if seen & mask:
                raise ValueError(f"{format_tiles(tiles_of(seen & mask))} is in play twice")
            seen |= mask
        if line:
            for a, b in pairwise(line):
                if a.right != b.left:
                    raise ValueError(f"the line is broken between {a} and {b}")
            opening = _ANY
            if turn is None or not 0 <= turn < rules.players:
                raise ValueError("a position with tiles on the line needs the seat to move")
        elif opener is None:
            seat, opening = find_opening(hands, dealer)
            if turn is not None and turn != seat:
                raise ValueError(f"seat {seat} opens this hand, not seat {turn}")
            turn = seat
        elif opener == _ANY:
            if turn is None or not 0 <= turn < rules.players:
                raise ValueError("a free opening needs the seat that opens")
            opening = _ANY
        else:
            holder = next((s for s, h in enumerate(hands) if h >> opener & 1), None)
            if holder is None:
                raise ValueError(f"nobody holds the opening tile {ALL_TILES[opener]}")
            if turn is not None and turn != holder:
                raise ValueError(f"seat {holder} holds the opening tile, not seat {turn}")
            opening, turn = opener, holder
        empty = [s for s, h in enumerate(hands) if not h]
        if len(empty) > 1:
            raise ValueError("only one player can be out of tiles")
        pile = list(reversed(boneyard))
        r = cls(rules, dealer, list(hands), pile, tuple(line), turn, opening)
        if empty:
            r._end(empty[0])
        elif line and not (rules.draw and pile) and not sum(hands) & _OPEN[r._ends]:
            r._end(BLOCKED)
        return r

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: list[int],
        pile: list[int],
        line: tuple[Placed, ...],
        turn: int,
        opening: int,
    ) -> None:
        """Low level, unchecked: build one with :meth:`deal`, :meth:`from_hands`,
        :meth:`from_position` or :meth:`sampled`.  ``hands`` and ``pile`` (next to
        draw last) are kept, not copied."""
        self.rules = rules
        self.dealer = dealer
        self.turn = turn
        self.over = False
        self._opening = opening
        self._next = _NEXT_SEAT[rules.players]
        self._draw = rules.draw
        self._hands = hands
        self._pile = pile
        self._line0 = line  # the line of the initial position; the rest is in the trail
        self._ends = line[0].left * 7 + line[-1].right if line else EMPTY_LINE
        self._trail: list[Made] = []
        self._outcome: int | None = None
        self._result: RoundResult | None = None
        # (the trail when last read, the log, the line): rebuilt once the trail changes
        self._read: tuple[list[Made], tuple[Event, ...], tuple[Placed, ...]] | None = None

    # -- constructors -------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        *,
        rng: random.Random | None = None,
        dealer: int = 0,
        opener: int | None = None,
    ) -> Round:
        """Shuffle and deal a new hand.

        ``rng`` defaults to the operating system's secure generator; pass a
        seeded ``random.Random`` for reproducible deals.  ``opener`` is the seat
        that opens with any tile (the previous winner, when the rules say so).
        """
        if not 0 <= dealer < rules.players:
            raise ValueError(
                f"the dealer must be a seat from 0 to {rules.players - 1}, not {dealer}"
            )
        deck = shuffled(rng or secrets.SystemRandom())
        hands_at = _hand_slices(rules.players, rules.hand_size)
        # map() sums the hands and reads the pile without a Python loop.
        hands = list(map(sum, map(deck.__getitem__, hands_at)))
        rest = deck[hands_at[-1].stop :]
        pile = list(map(_INDEX_OF_BIT.__getitem__, reversed(rest))) if rest else []  # next last
        if opener is None:
            turn, opening = find_opening(hands, dealer)
        elif 0 <= opener < rules.players:
            turn, opening = opener, _ANY
        else:
            raise ValueError("a free opening needs the seat that opens")
        return cls(rules, dealer, hands, pile, (), turn, opening)

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[Tile | str]],
        *,
        boneyard: Iterable[Tile | str] = (),
        dealer: int = 0,
        opener: int | None = None,
    ) -> Round:
        """Set up a given deal (tiles or their text, ``"6|4"``).
        ``boneyard`` is in draw order (the first drawn first).

        Hands may be any size, for tests and puzzles; tiles in neither a hand
        nor the boneyard are simply out of play.
        """
        masks = [mask_of(map(_as_tile, hand)) for hand in hands]
        pile = [_as_tile(t).index for t in boneyard]
        if opener is None:
            return cls._checked(rules, masks, pile, dealer=dealer)
        return cls._checked(rules, masks, pile, dealer=dealer, turn=opener, opener=_ANY)

    @classmethod
    def from_position(cls, rules: Rules, text: str) -> Round:
        """Read a position written by :meth:`position` (its log starts empty)."""
        fields: dict[str, str] = {}
        for part in text.split():
            key, sep, value = part.partition("=")
            if not sep or key in fields:
                raise ValueError(f"bad position field {part!r}")
            fields[key] = value
        missing = {"hands", "boneyard", "line", "turn", "dealer"} - fields.keys()
        if missing:
            raise ValueError(f"the position lacks {', '.join(sorted(missing))}")
        hands = [mask_of(parse_tiles(h)) for h in fields["hands"].split("/")]
        boneyard = [t.index for t in parse_tiles(fields["boneyard"])]
        line_text = fields["line"]
        line = [] if line_text == "-" else [Placed.parse(p) for p in line_text.split(",")]
        opener_text = fields.get("opener")
        opener = None
        if not line:
            if opener_text is None:
                raise ValueError("a position with an empty line needs opener=<tile> or opener=any")
            opener = _ANY if opener_text == "any" else Tile.parse(opener_text).index
        return cls._checked(
            rules,
            hands,
            boneyard,
            dealer=int(fields["dealer"]),
            line=line,
            turn=int(fields["turn"]),
            opener=opener,
        )

    @classmethod
    def replay(cls, rules: Rules, position: str, moves: Iterable[Move | str]) -> Round:
        """A round from its initial position and its moves (a game record)."""
        round_ = cls.from_position(rules, position)
        for move in moves:
            round_.play(parse_move(move) if isinstance(move, str) else move)
        return round_

    @classmethod
    def sampled(cls, view: PlayerView, hands: list[int], pile: list[int]) -> Round:
        """The hand ``view`` shows, with every hand and the boneyard (next to draw
        last) as a sampled deal says, for a bot to search: unchecked, its log empty.

        ``hands`` and ``pile`` are kept, not copied.
        """
        if view.seat is None or view.result is not None:
            raise ValueError("only a seat's view of a hand in progress can be searched")
        return cls(view.rules, view.dealer, hands, pile, view.line, view.turn, _ANY)

    def copy(self) -> Round:
        """An independent copy to try moves on (the history comes too)."""
        twin = Round(
            self.rules,
            self.dealer,
            list(self._hands),
            list(self._pile),
            self._line0,
            self.turn,
            self._opening,
        )
        twin.over = self.over
        twin._ends = self._ends
        twin._trail = list(self._trail)
        twin._outcome = self._outcome
        twin._result = self._result
        twin._read = self._read
        return twin

    # -- reading ------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every hand (this is the whole truth: never show it to a player)."""
        return tuple(tiles_of(h) for h in self._hands)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The undrawn tiles, next to be drawn first."""
        return tuple(ALL_TILES[i] for i in reversed(self._pile))

    @property
    def boneyard_count(self) -> int:
        """How many tiles are left to draw."""
        return len(self._pile)

    @property
    def line(self) -> tuple[Placed, ...]:
        """The tiles on the table, left to right, as they lie."""
        return self._history()[1]

    @property
    def ends(self) -> Ends | None:
        """The two open numbers ``(left, right)``; None before the first tile."""
        code = self._ends
        return None if code == EMPTY_LINE else (_LEFT[code], _RIGHT[code])

    @property
    def left_end(self) -> int:
        """The number open on the left end; -1 before the first tile."""
        return _LEFT[self._ends]

    @property
    def right_end(self) -> int:
        """The number open on the right end; -1 before the first tile."""
        return _RIGHT[self._ends]

    @property
    def log(self) -> tuple[Event, ...]:
        """The public history of this hand."""
        return self._history()[0]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves made since the initial position."""
        return tuple(e.move for e in self._history()[0])

    @property
    def initial_position(self) -> str:
        """The position this round started from; with :attr:`moves` it is the record."""
        start = self.copy()
        while start._trail:
            start.pop()
        return start.position()

    @property
    def outcome(self) -> int | None:
        """The seat that went out, :data:`BLOCKED`, or None while the hand goes on."""
        return self._outcome

    @property
    def result(self) -> RoundResult | None:
        """How the hand ended, once it has."""
        if self._result is None and self._outcome is not None:
            if self._outcome == BLOCKED:
                self._result = score_blocked(self.rules, self._hands)
            else:
                self._result = score_domino(self.rules, self._hands, self._outcome)
        return self._result

    @property
    def opening_tile(self) -> Tile | None:
        """The tile the opener must lay; None once played or when any tile will do."""
        if self._ends != EMPTY_LINE or self._opening == _ANY:
            return None
        return ALL_TILES[self._opening]

    def hand_mask(self, seat: int) -> int:
        """A seat's hand as a tile mask."""
        return self._hands[seat]

    def hand_masks(self) -> tuple[int, ...]:
        """Every hand as a tile mask, by seat (the whole truth, as :attr:`hands`)."""
        return tuple(self._hands)

    def fitting_ends(self) -> tuple[int, int]:
        """The tiles the seat to act may lay on the left end and on the right end,
        as masks: both 0 when it must draw or pass, or the hand is over.  On an
        empty line both ends are one place: the tiles it may open with are on the
        left.  For searching: no list of moves is built."""
        hand = self._hands[self.turn]
        code = self._ends
        if code != EMPTY_LINE:
            return hand & SUIT[_LEFT[code]], hand & SUIT[_RIGHT[code]]
        if self.over:
            return 0, 0
        return (hand if self._opening == _ANY else _BIT[self._opening]), 0

    def stuck_move(self) -> Move:
        """What the seat to act does when no tile fits: draw while the boneyard
        lasts (in a draw game), else pass."""
        return DRAW if self._draw and self._pile else PASS

    def legal_moves(self) -> tuple[Move, ...]:
        """Every move the seat to act may make, in tile order, the left end
        first; empty once the hand is over.  A tuple: one may be shared."""
        code = self._ends
        fits = self._hands[self.turn] & _OPEN[code]  # never a tile once the hand is over
        if fits:
            # The fitting tiles' plays in tile order (joined from the highest
            # tile down), each a small tuple of the table for these ends.  A
            # table of whole answers by fitting tiles and ends was slower: a
            # random game's answers are scattered over tens of thousands of
            # entries, which the CPU cache misses.
            at = _FITS_AT[code]
            high = fits.bit_length() - 1
            plays = at[high]
            fits ^= _BIT[high]
            while fits:
                high = fits.bit_length() - 1
                plays = at[high] + plays
                fits ^= _BIT[high]
            return plays
        if self.over:
            return ()
        if code == EMPTY_LINE:
            if self._opening != _ANY:
                return _OPENINGS[self._opening]
            return tuple(_PLAYS[i][0] for i in indices(self._hands[self.turn]))
        if self._draw and self._pile:
            return _ONLY_DRAW
        return _ONLY_PASS

    def view(self, seat: int | None, *, match_scores: tuple[int, ...] | None = None) -> PlayerView:
        """What ``seat`` may know (docs/rules.md §5); None for a spectator.

        ``match_scores``: each side's points before this hand, when the caller
        knows them (:meth:`Match.view <games.engine.match.Match.view>` does)."""
        over = self.over
        own = tiles_of(self._hands[seat]) if seat is not None else ()
        log, line = self._history()
        return PlayerView(
            rules=self.rules,
            seat=seat,
            hand=own,
            line=line,
            ends=self.ends,
            hand_counts=tuple(h.bit_count() for h in self._hands),
            boneyard_count=len(self._pile),
            turn=self.turn,
            dealer=self.dealer,
            log=log,
            legal_moves=self.legal_moves() if seat == self.turn else (),
            result=self.result,
            revealed=self.hands if over else None,
            match_scores=match_scores,
        )

    def position(self) -> str:
        """The whole position as one line of text; :meth:`from_position` reads it back."""
        return _format_position(
            self._hands, self._pile, self.line, self.turn, self.dealer, self._opening
        )

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"<Round {self.rules.preset} {self.position()}>"

    def _history(self) -> tuple[tuple[Event, ...], tuple[Placed, ...]]:
        """The log and the line, rebuilt from the trail when it has changed since."""
        read = self._read
        trail = self._trail
        if read is not None and read[0] == trail:
            return read[1], read[2]
        events = []
        line = deque(self._line0)
        for made in trail:
            move, seat, code = made[0], made[1], made[2]
            if code == EMPTY_LINE:
                assert type(move) is Play
                tile = move.tile
                events.append(Event(seat, _PLAYS[tile.index][0], None))
                line.append(_PLACED[tile.high][tile.low])
                continue
            left, right = _LEFT[code], _RIGHT[code]
            if type(move) is Play:
                if move.end == "left":
                    line.appendleft(_PLACED[move.tile.other_half(left)][left])
                else:
                    line.append(_PLACED[right][move.tile.other_half(right)])
            events.append(Event(seat, move, (left, right)))
        log, placed = tuple(events), tuple(line)
        self._read = (list(trail), log, placed)
        return log, placed

    # -- playing ------------------------------------------------------------

    def play(self, move: Move | str) -> None:
        """Apply one move (or its text, ``"6|4L"``) for the seat to act;
        ``IllegalMoveError`` leaves the round unchanged."""
        if isinstance(move, str):
            move = parse_move(move)
        if self.over:
            raise IllegalMoveError("the hand is over", "over")
        hand = self._hands[self.turn]
        code = self._ends
        if type(move) is Play:
            tile = move.tile
            i = tile.index
            if not hand >> i & 1:
                raise IllegalMoveError(f"{tile} is not in your hand", "not_in_hand")
            if code == EMPTY_LINE:
                if self._opening != _ANY and i != self._opening:
                    raise IllegalMoveError(
                        f"the hand opens with {ALL_TILES[self._opening]}", "opening"
                    )
            elif move._to[code] < 0:
                left, right = _LEFT[code], _RIGHT[code]
                raise IllegalMoveError(_no_match(tile, move.end, left, right), "no_match")
        elif type(move) is Draw or type(move) is Pass:
            if code == EMPTY_LINE:
                raise IllegalMoveError(
                    "the hand has not opened yet: lay the opening tile", "not_open"
                )
            fitting = hand & _OPEN[code]
            can_draw = self._draw and self._pile
            if type(move) is Draw:
                if fitting:
                    raise IllegalMoveError(
                        f"you can play {_first(fitting)}: draw only when nothing fits", "must_play"
                    )
                if not can_draw:
                    raise IllegalMoveError("there is nothing to draw: pass", "nothing_to_draw")
            else:
                if fitting:
                    raise IllegalMoveError(
                        f"you can play {_first(fitting)}: no passing while a tile fits",
                        "must_play",
                    )
                if can_draw:
                    raise IllegalMoveError("draw from the boneyard until a tile fits", "must_draw")
        else:
            raise IllegalMoveError(f"not a move: {move!r}")
        self.push(move)

    def push(self, move: Move) -> None:
        """Make ``move``, which must be one of :meth:`legal_moves`: unchecked, for
        searching (:meth:`play` checks).  :meth:`pop` takes it back."""
        seat = self.turn
        code = self._ends
        # Told apart by type: an attribute read at one place on moves of several
        # types is slow in CPython (its inline cache holds one type); a type test is not.
        if type(move) is Play:
            hands = self._hands
            hand = hands[seat] ^ move._bit
            hands[seat] = hand
            self._trail.append((move, seat, code))
            code = self._ends = move._to[code]
            if not hand:
                self._end(seat)
                return
            following = self._next[seat]
            fits = _OPEN[code]
            # Blocked: nobody can play and nothing can be drawn (the next seat
            # holding a tile that fits settles it at once, most of the time;
            # the hands hold different tiles, so their sum is every tile held).
            if hands[following] & fits or (self._draw and self._pile) or sum(hands) & fits:
                self.turn = following
            else:
                self._end(BLOCKED)
        elif type(move) is Pass:
            self._trail.append((move, seat, code))
            self.turn = self._next[seat]
        else:
            pile = self._pile
            i = pile.pop()
            self._trail.append((move, seat, code, i))
            self._hands[seat] |= _BIT[i]
            if not pile and not sum(self._hands) & _OPEN[code]:
                self._end(BLOCKED)

    def pop(self) -> Move:
        """Take back the last move made since the initial position, and return it."""
        if not self._trail:
            raise IndexError("no move to take back since the initial position")
        made = self._trail.pop()
        move = made[0]
        seat = made[1]
        if type(move) is Play:  # by type, as in push
            self._hands[seat] |= move._bit
            self._ends = made[2]
        elif len(made) == 4:  # a draw: the tile goes back on the pile
            drawn = made[3]
            self._hands[seat] ^= _BIT[drawn]
            self._pile.append(drawn)
        self.turn = seat
        if self.over:
            self.over = False
            self._outcome = self._result = None
        return move

    def pop_to(self, depth: int) -> None:
        """Take back every move after the first ``depth`` made since the initial
        position, in one step: a play-out's moves, once it is scored."""
        trail = self._trail
        if not 0 <= depth <= len(trail):
            raise IndexError(f"{len(trail)} moves were made, not {depth}")
        if depth == len(trail):
            return
        undone = trail[depth:]
        del trail[depth:]
        hands = self._hands
        for made in reversed(undone):  # the last first: a drawn tile may have been laid
            move = made[0]
            if type(move) is Play:
                hands[made[1]] |= move._bit
            elif len(made) == 4:
                hands[made[1]] ^= _BIT[made[3]]
                self._pile.append(made[3])
        first = undone[0]
        self.turn = first[1]
        self._ends = first[2]
        if self.over:
            self.over = False
            self._outcome = self._result = None

    def play_out(
        self, rnd: Callable[[], float], randomness: float = 1.0, count: float = 0.0
    ) -> int:
        """Play on to the end of the hand, unchecked, for searching; return
        :attr:`outcome` (:meth:`pop_to` takes the moves back).

        Each play is random with probability ``randomness`` (uniform over the
        fitting tiles, then over the ends it fits), otherwise greedy: the
        heaviest fitting tile, on the left end when it fits both.  With ``count``
        the greedy play counts the tiles: each tile the mover cannot see that
        shows a number the play leaves open takes ``count`` pips off the tile's
        weight (the others are likelier to pass or draw on numbers mostly seen).
        ``rnd`` is called only for a choice (never for a forced move), in that order.

        The same moves as :meth:`push` would make, and recorded alike, but on
        local copies of the state written back once at the end: a bot's
        play-outs are most of its thinking time.
        """
        if self.over:
            assert self._outcome is not None
            return self._outcome
        if self._ends == EMPTY_LINE and self._opening != _ANY:
            self.push(_PLAYS[self._opening][0])  # a forced opening tile
            if self.over:
                assert self._outcome is not None
                return self._outcome
        outcome, self.turn, self._ends = _play_on(
            self._hands,
            self._pile,
            self._draw,
            self._next,
            self.turn,
            self._ends,
            rnd,
            randomness,
            self._trail.append,
            count,
        )
        self._end(outcome)
        return outcome

    def finish(
        self, rnd: Callable[[], float], randomness: float = 1.0, count: float = 0.0
    ) -> tuple[int, list[int]]:
        """:meth:`play_out` on a copy: the outcome and every hand at the end, this
        round left as it is.  Cheaper than ``play_out`` then ``pop_to`` (no move
        recorded, nothing to take back), with the same moves for the same ``rnd``."""
        if self.over or self._ends == EMPTY_LINE:
            twin = self.copy()
            return twin.play_out(rnd, randomness, count), twin._hands
        hands = list(self._hands)
        outcome = _play_on(
            hands,
            list(self._pile),
            self._draw,
            self._next,
            self.turn,
            self._ends,
            rnd,
            randomness,
            None,
            count,
        )[0]
        return outcome, hands

    def _end(self, outcome: int) -> None:
        self.over = True
        self._outcome = outcome


def _play_on(
    hands: list[int],
    pile: list[int],
    draw: bool,
    following: tuple[int, ...],
    seat: int,
    code: int,
    rnd: Callable[[], float],
    randomness: float,
    record: Callable[[Made], None] | None,
    count: float = 0.0,
) -> tuple[int, int, int]:
    """:meth:`Round.play_out`'s loop on the state given (``hands`` and ``pile``
    change), each move passed to ``record`` if any: the outcome, and the seat
    and the ends code at the end."""
    held = sum(hands)  # every tile in a hand: blocked when none fits and none can be drawn
    fitting, lefts, rights, open_at = _FITS_EITHER, _SUIT_LEFT, _SUIT_RIGHT, _OPEN
    plays, bits = _PLAYS, _BIT
    bits_lo, bits_hi, half, half_mask = _BITS_LO, _BITS_HI, _HALF, _HALF_MASK
    heavy_lo, heavy_hi, key = _HEAVY_LO, _HEAVY_HI, _KEY
    always_random = randomness >= 1.0
    pile_mask = 0
    if count:
        for i in pile:
            pile_mask |= bits[i]
    while True:
        hand = hands[seat]
        fits = hand & fitting[code]
        if not fits:
            if draw and pile:
                i = pile.pop()
                if record is not None:
                    record((DRAW, seat, code, i))
                hands[seat] = hand | bits[i]
                held |= bits[i]
                pile_mask &= ~bits[i]
                if not pile and not held & open_at[code]:
                    outcome = BLOCKED
                    break
            else:
                if record is not None:
                    record((PASS, seat, code))
                seat = following[seat]
            continue
        if not fits & (fits - 1):  # a single tile fits: nothing to choose but the end
            i = fits.bit_length() - 1
            randomly = always_random
        elif always_random or rnd() < randomness:
            choices = bits_lo[fits & half_mask] + bits_hi[fits >> half]
            i = choices[int(rnd() * len(choices))]
            randomly = True
        elif count:
            i = _counted(fits, code, (held & ~hand) | pile_mask, count)
            randomly = False
        else:
            i = heavy_hi[fits >> half]
            j = heavy_lo[fits & half_mask]
            if i < 0 or (j >= 0 and key[j] > key[i]):
                i = j
            randomly = False
        if lefts[code] >> i & 1 and not (randomly and rights[code] >> i & 1 and rnd() < 0.5):
            play = plays[i][0]
        else:
            play = plays[i][1]
        hand ^= bits[i]
        hands[seat] = hand
        held ^= bits[i]
        if record is not None:
            record((play, seat, code))
        code = play._to[code]
        if not hand:
            outcome = seat
            break
        if held & open_at[code] or (draw and pile):
            seat = following[seat]
        else:
            outcome = BLOCKED
            break
    return outcome, seat, code


def _counted(fits: int, code: int, unseen: int, count: float) -> int:
    """The greedy play-out's tile when it counts: the heaviest, less ``count`` pips
    for each tile out of the mover's sight (``unseen``) that shows a number the
    play leaves open (on the end :func:`_play_on` lays it: left when it fits)."""
    lefts, plays, to_open = _SUIT_LEFT[code], _PLAYS, _OPEN
    best, best_value = -1, -math.inf
    for i in _BITS_LO[fits & _HALF_MASK] + _BITS_HI[fits >> _HALF]:
        after = plays[i][0 if lefts >> i & 1 else 1]._to[code]
        value = _KEY[i] - count * 32 * (to_open[after] & unseen).bit_count()
        if value > best_value:
            best, best_value = i, value
    return best


def _format_position(
    hands: Sequence[int],
    boneyard: Sequence[int],
    line: Iterable[Placed],
    turn: int,
    dealer: int,
    opening: int,
) -> str:
    """The text of a position; ``boneyard`` is stored next-to-draw last."""
    hands_text = "/".join(format_tiles(tiles_of(h)) for h in hands)
    line_text = ",".join(str(p) for p in line) or "-"
    pile = format_tiles(ALL_TILES[i] for i in reversed(boneyard))
    text = f"hands={hands_text} boneyard={pile} line={line_text} turn={turn} dealer={dealer}"
    if line_text == "-":
        text += " opener=" + ("any" if opening == _ANY else str(ALL_TILES[opening]))
    return text


def _as_tile(tile: Tile | str) -> Tile:
    return Tile.parse(tile) if isinstance(tile, str) else tile


def _first(mask: int) -> Tile:
    return ALL_TILES[indices(mask)[-1]]


def _no_match(tile: Tile, end: str, left: int, right: int) -> str:
    if tile.has(left) or tile.has(right):
        return f"{tile} does not match the {end} end ({left if end == 'left' else right})"
    return f"{tile} does not match either end ({left}, {right})"
