"""One hand of dominoes (docs/rules.md §3): deal, opening, turns, end and score.

>>> from .rules import PRESETS
>>> r = Round.from_position(PRESETS["duello"],
...     "hands=6|6,6|1/1|0 boneyard=2|2 line=- turn=0 dealer=1 opener=6|6")
>>> r.legal_moves()
[Play(Tile(6, 6), 'left')]
>>> r.play(Play(Tile(6, 6), "left")); r.legal_moves()
[Draw()]
>>> r.play(Draw()); r.legal_moves()
[Pass()]
>>> r.play(Pass()); str(r)
'hands=6|1/1|0,2|2 boneyard=- line=6|6 turn=0 dealer=1'
>>> r.play(parse_move("6|1R")); r.result
RoundResult(winners=(0,), points=5, reason='domino', pips=(0, 5))
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Iterable, Sequence
from itertools import pairwise

from .moves import (
    _PLAYS,
    DRAW,
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
    _PLACED,
    ALL_TILES,
    HIGH,
    LOW,
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

_ANY = -1  # opening: any tile of the opener's hand (the previous winner opens)
_DOUBLES_HIGH_FIRST = tuple(Tile(n, n).index for n in range(6, -1, -1))


def find_opening(hands: Sequence[int], dealer: int) -> tuple[int, int]:
    """The seat that opens and the tile it must lay (docs/rules.md §3.2).

    The highest double; failing that the heaviest tile, the first seat in play
    order (from the dealer's left) winning a tie, and the higher half first.
    """
    for index in _DOUBLES_HIGH_FIRST:
        bit = 1 << index
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


class Round:
    """A hand in progress.  ``play`` is the only way to change it.

    Build one with :meth:`deal`, :meth:`from_hands` or :meth:`from_position`.
    """

    rules: Rules
    dealer: int
    turn: int

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        boneyard: Sequence[int],
        *,
        dealer: int = 0,
        line: Sequence[Placed] = (),
        turn: int | None = None,
        opener: int | None = None,
    ) -> None:
        """Low level: masks and indices.  Prefer the class-method constructors."""
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
        self.rules = rules
        self.dealer = dealer
        self._hands = list(hands)
        self._boneyard = list(reversed(boneyard))  # the next tile to draw is last
        self._line: deque[Placed] = deque(line)
        self._log: list[Event] = []
        self._result: RoundResult | None = None
        if line:
            for a, b in pairwise(line):
                if a.right != b.left:
                    raise ValueError(f"the line is broken between {a} and {b}")
            self._left, self._right = line[0].left, line[-1].right
            self._opening = _ANY
            if turn is None or not 0 <= turn < rules.players:
                raise ValueError("a position with tiles on the line needs the seat to move")
            self.turn = turn
        else:
            self._left = self._right = -1
            if opener is None:
                seat, self._opening = find_opening(self._hands, dealer)
                if turn is not None and turn != seat:
                    raise ValueError(f"seat {seat} opens this hand, not seat {turn}")
                self.turn = seat
            elif opener == _ANY:
                if turn is None or not 0 <= turn < rules.players:
                    raise ValueError("a free opening needs the seat that opens")
                self._opening, self.turn = _ANY, turn
            else:
                holder = next((s for s, h in enumerate(self._hands) if h >> opener & 1), None)
                if holder is None:
                    raise ValueError(f"nobody holds the opening tile {ALL_TILES[opener]}")
                if turn is not None and turn != holder:
                    raise ValueError(f"seat {holder} holds the opening tile, not seat {turn}")
                self._opening, self.turn = opener, holder
        empty = [s for s, h in enumerate(self._hands) if not h]
        if len(empty) > 1:
            raise ValueError("only one player can be out of tiles")
        if empty:
            self._result = score_domino(rules, self._hands, empty[0])
        elif line:
            self._check_blocked()
        self._start = (
            tuple(self._hands),
            tuple(self._boneyard),
            tuple(self._line),
            self.turn,
            self._opening,
        )

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
        deck = list(range(len(ALL_TILES)))
        (rng or secrets.SystemRandom()).shuffle(deck)
        size = rules.hand_size
        hands = [mask_of_indices(deck[p * size : (p + 1) * size]) for p in range(rules.players)]
        boneyard = deck[rules.players * size :]
        if opener is None:
            return cls(rules, hands, boneyard, dealer=dealer)
        return cls(rules, hands, boneyard, dealer=dealer, turn=opener, opener=_ANY)

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
            return cls(rules, masks, pile, dealer=dealer)
        return cls(rules, masks, pile, dealer=dealer, turn=opener, opener=_ANY)

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
        return cls(
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

    def copy(self) -> Round:
        """An independent copy to try moves on (the log is shared history, copied too)."""
        twin = object.__new__(Round)
        twin.__dict__.update(self.__dict__)
        twin._hands = list(self._hands)
        twin._boneyard = list(self._boneyard)
        twin._line = deque(self._line)
        twin._log = list(self._log)
        return twin

    # -- reading ------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every hand (this is the whole truth: never show it to a player)."""
        return tuple(tiles_of(h) for h in self._hands)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The undrawn tiles, next to be drawn first."""
        return tuple(ALL_TILES[i] for i in reversed(self._boneyard))

    @property
    def line(self) -> tuple[Placed, ...]:
        """The tiles on the table, left to right, as they lie."""
        return tuple(self._line)

    @property
    def ends(self) -> Ends | None:
        """The two open numbers ``(left, right)``; None before the first tile."""
        return None if self._left < 0 else (self._left, self._right)

    @property
    def log(self) -> tuple[Event, ...]:
        """The public history of this hand."""
        return tuple(self._log)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves made since the initial position."""
        return tuple(e.move for e in self._log)

    @property
    def initial_position(self) -> str:
        """The position this round started from; with :attr:`moves` it is the record."""
        hands, boneyard, line, turn, opening = self._start
        return _format_position(hands, boneyard, line, turn, self.dealer, opening)

    @property
    def over(self) -> bool:
        """The hand has ended (Domino! or blocked)."""
        return self._result is not None

    @property
    def result(self) -> RoundResult | None:
        """How the hand ended, once it has."""
        return self._result

    @property
    def opening_tile(self) -> Tile | None:
        """The tile the opener must lay; None once played or when any tile will do."""
        if self._left >= 0 or self._opening == _ANY:
            return None
        return ALL_TILES[self._opening]

    def hand_mask(self, seat: int) -> int:
        """A seat's hand as a tile mask."""
        return self._hands[seat]

    def legal_moves(self) -> list[Move]:
        """Every move the seat to act may make; empty once the hand is over."""
        if self._result is not None:
            return []
        hand = self._hands[self.turn]
        left = self._left
        if left < 0:
            if self._opening != _ANY:
                return [_PLAYS[self._opening][0]]
            return [_PLAYS[i][0] for i in indices(hand)]
        right = self._right
        fits = hand & (SUIT[left] | SUIT[right])
        if fits:
            moves: list[Move] = []
            left_suit = SUIT[left]
            right_suit = SUIT[right]
            for i in indices(fits):
                bit = 1 << i
                if left_suit & bit:
                    moves.append(_PLAYS[i][0])
                if right_suit & bit:
                    moves.append(_PLAYS[i][1])
            return moves
        if self._boneyard and self.rules.draw:
            return [DRAW]
        return [PASS]

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know (docs/rules.md §5); None for a spectator."""
        over = self._result is not None
        own = tiles_of(self._hands[seat]) if seat is not None else ()
        return PlayerView(
            rules=self.rules,
            seat=seat,
            hand=own,
            line=tuple(self._line),
            ends=self.ends,
            hand_counts=tuple(h.bit_count() for h in self._hands),
            boneyard_count=len(self._boneyard),
            turn=self.turn,
            dealer=self.dealer,
            log=tuple(self._log),
            legal_moves=tuple(self.legal_moves()) if seat == self.turn else (),
            result=self._result,
            revealed=self.hands if over else None,
        )

    def position(self) -> str:
        """The whole position as one line of text; :meth:`from_position` reads it back."""
        return _format_position(
            self._hands, self._boneyard, self._line, self.turn, self.dealer, self._opening
        )

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"<Round {self.rules.preset} {self.position()}>"

    # -- playing ------------------------------------------------------------

    def play(self, move: Move | str) -> None:
        """Apply one move (or its text, ``"6|4L"``) for the seat to act;
        ``IllegalMoveError`` leaves the round unchanged."""
        if isinstance(move, str):
            move = parse_move(move)
        if self._result is not None:
            raise IllegalMoveError("the hand is over", "over")
        seat = self.turn
        hand = self._hands[seat]
        left = self._left
        if type(move) is Play:
            tile = move.tile
            i = tile.index
            bit = 1 << i
            if not hand & bit:
                raise IllegalMoveError(f"{tile} is not in your hand", "not_in_hand")
            if left < 0:
                if self._opening != _ANY and i != self._opening:
                    raise IllegalMoveError(
                        f"the hand opens with {ALL_TILES[self._opening]}", "opening"
                    )
                self._line.append(_PLACED[HIGH[i]][LOW[i]])
                self._left, self._right = HIGH[i], LOW[i]
                self._log.append(Event(seat, _PLAYS[i][0], None))
            else:
                right = self._right
                if move.end == "left":
                    if not SUIT[left] & bit:
                        raise IllegalMoveError(_no_match(tile, "left", left, right), "no_match")
                    other = HIGH[i] + LOW[i] - left
                    self._line.appendleft(_PLACED[other][left])
                    self._left = other
                else:
                    if not SUIT[right] & bit:
                        raise IllegalMoveError(_no_match(tile, "right", left, right), "no_match")
                    other = HIGH[i] + LOW[i] - right
                    self._line.append(_PLACED[right][other])
                    self._right = other
                self._log.append(Event(seat, move, (left, right)))
            hand ^= bit
            self._hands[seat] = hand
            if not hand:
                self._result = score_domino(self.rules, self._hands, seat)
                return
            self._check_blocked()
            if self._result is None:
                self.turn = (seat + 1) % self.rules.players
            return
        if left < 0:
            raise IllegalMoveError("the hand has not opened yet: lay the opening tile", "not_open")
        ends = (left, self._right)
        fitting = hand & (SUIT[left] | SUIT[self._right])
        if type(move) is Draw:
            if fitting:
                raise IllegalMoveError(
                    f"you can play {_first(fitting)}: draw only when nothing fits", "must_play"
                )
            if not (self.rules.draw and self._boneyard):
                raise IllegalMoveError("there is nothing to draw: pass", "nothing_to_draw")
            self._hands[seat] = hand | 1 << self._boneyard.pop()
            self._log.append(Event(seat, DRAW, ends))
            if not self._boneyard:
                self._check_blocked()
            return
        if type(move) is Pass:
            if fitting:
                raise IllegalMoveError(
                    f"you can play {_first(fitting)}: no passing while a tile fits", "must_play"
                )
            if self.rules.draw and self._boneyard:
                raise IllegalMoveError("draw from the boneyard until a tile fits", "must_draw")
            self._log.append(Event(seat, PASS, ends))
            self.turn = (seat + 1) % self.rules.players
            return
        raise IllegalMoveError(f"not a move: {move!r}")

    def _check_blocked(self) -> None:
        """End the hand when nobody can play and nothing can be drawn."""
        if self.rules.draw and self._boneyard:
            return
        fits = SUIT[self._left] | SUIT[self._right]
        for hand in self._hands:
            if hand & fits:
                return
        self._result = score_blocked(self.rules, self._hands)


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


def mask_of_indices(tile_indices: Iterable[int]) -> int:
    """The mask of tiles given by index."""
    mask = 0
    for i in tile_indices:
        mask |= 1 << i
    return mask


def _as_tile(tile: Tile | str) -> Tile:
    return Tile.parse(tile) if isinstance(tile, str) else tile


def _first(mask: int) -> Tile:
    return ALL_TILES[indices(mask)[-1]]


def _no_match(tile: Tile, end: str, left: int, right: int) -> str:
    if tile.has(left) or tile.has(right):
        return f"{tile} does not match the {end} end ({left if end == 'left' else right})"
    return f"{tile} does not match either end ({left}, {right})"
