"""Moves — small immutable values with a text form — and the public log.

>>> move = Play(Tile(6, 4), "left")
>>> str(move), parse_move("6|4L") == move, parse_move("draw"), parse_move("pass")
('6|4L', True, Draw(), Pass())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, NamedTuple, TypeAlias

from .tiles import ALL_TILES, Tile

End = Literal["left", "right"]
ENDS: Final[tuple[End, End]] = ("left", "right")


class IllegalMoveError(ValueError):
    """A move the rules do not allow here; the message says why, for a player.

    ``code`` names the reason for programs (a site translating it):
    ``over``, ``not_in_hand``, ``opening``, ``no_match``, ``not_open``,
    ``must_play``, ``nothing_to_draw``, ``must_draw`` or ``not_a_move``.
    """

    def __init__(self, message: str, code: str = "not_a_move") -> None:
        super().__init__(message)
        self.code = code


class Play:
    """Lay ``tile`` at the ``end`` of the line ("left" or "right").

    On an empty line both ends are the same place; the engine writes "left".
    """

    __slots__ = ("_bit", "_to", "end", "tile")

    tile: Tile
    end: End
    # For Round.push: the tile's bit, and the open ends this play leaves from
    # each (ends coded left * 7 + right, EMPTY_LINE before the first tile).
    _bit: int
    _to: tuple[int, ...]

    def __new__(cls, tile: Tile | str, end: End) -> Play:
        try:
            if isinstance(tile, str):
                tile = Tile.parse(tile)
            return _PLAYS[tile.index][ENDS.index(end)]
        except (AttributeError, ValueError):
            raise ValueError(
                f"a play needs a tile and an end (left or right), not {tile!r}, {end!r}"
            ) from None

    def __str__(self) -> str:
        return f"{self.tile}{'L' if self.end == 'left' else 'R'}"

    def __repr__(self) -> str:
        return f"Play({self.tile!r}, {self.end!r})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.tile.index * 2 + (self.end == "right")

    def __reduce__(self) -> tuple[type[Play], tuple[Tile, End]]:
        return (Play, (self.tile, self.end))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")


def _make_play(tile: Tile, end: End) -> Play:
    play = object.__new__(Play)
    object.__setattr__(play, "tile", tile)
    object.__setattr__(play, "end", end)
    object.__setattr__(play, "_bit", tile.bit)
    object.__setattr__(play, "_to", _ends_after(tile, end))
    return play


#: The ends code of an empty line (an open line's is left * 7 + right).
EMPTY_LINE: Final = 49


def _ends_after(tile: Tile, end: End) -> tuple[int, ...]:
    """The ends code after laying ``tile`` at ``end``, from each ends code (-1: it does not fit)."""
    after = []
    for code in range(EMPTY_LINE):
        left, right = divmod(code, 7)
        number = left if end == "left" else right
        if not tile.has(number):
            after.append(-1)
        elif end == "left":
            after.append(tile.other_half(left) * 7 + right)
        else:
            after.append(left * 7 + tile.other_half(right))
    return (*after, tile.high * 7 + tile.low)


#: _PLAYS[tile index][0 for left, 1 for right]
_PLAYS: Final = tuple((_make_play(t, "left"), _make_play(t, "right")) for t in ALL_TILES)


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next tile from the boneyard (only when nothing in hand fits)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Give up the turn (only when nothing fits and nothing can be drawn)."""

    def __str__(self) -> str:
        return "pass"


Move: TypeAlias = Play | Draw | Pass
DRAW: Final = Draw()
PASS: Final = Pass()


_SUFFIXES: Final[tuple[tuple[str, End], ...]] = (
    ("left", "left"),
    ("right", "right"),
    ("l", "left"),
    ("r", "right"),
)


def parse_move(text: str) -> Move:
    """Read a move's text form back: ``"6|4L"``, ``"6|4 right"``, ``"draw"``, ``"pass"``."""
    cleaned = text.strip().lower()
    if cleaned == "draw":
        return DRAW
    if cleaned == "pass":
        return PASS
    for suffix, end in _SUFFIXES:
        if cleaned.endswith(suffix):
            return Play(Tile.parse(cleaned[: -len(suffix)]), end)
    raise ValueError(f"not a move: {text!r} (write 6|4L, 6|4R, draw or pass)")


Ends: TypeAlias = tuple[int, int]


class Event(NamedTuple):
    """One entry of the public log: ``seat`` made ``move`` facing open ``ends``.

    A draw is public but the drawn tile is not: :class:`Draw` carries no tile.
    ``ends`` is None for the opening tile.  A pass or draw tells everyone that
    the seat held nothing matching ``ends`` at that moment.
    """

    seat: int
    move: Move
    ends: Ends | None

    def __str__(self) -> str:
        return f"{self.seat}:{self.move}"
