"""Tiles of the double-six set, and the bit masks the engine computes with.

A tile is an immutable value; there are exactly 28 of them and each is interned,
so ``Tile(5, 3) is Tile(3, 5)``.  Internally a set of tiles is an ``int`` whose
bit ``tile.index`` is set: a hand, the tiles that fit an end, the boneyard.

>>> Tile(3, 5)
Tile(5, 3)
>>> str(Tile(3, 5)), Tile.parse("6|4").value, Tile(2, 2).is_double
('5|3', 10, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

PIPS: Final = range(7)


class Tile:
    """One tile: two halves of 0–6 pips, ``high`` >= ``low``."""

    __slots__ = ("high", "index", "low", "value")

    high: int
    low: int
    index: int
    value: int

    def __new__(cls, a: int, b: int) -> Tile:
        try:
            return _BY_PIPS[a, b]
        except (KeyError, TypeError):
            raise ValueError(f"a tile has two halves of 0 to 6 pips, not {a!r} and {b!r}") from None

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``"6|4"`` (or ``"6-4"``, ``"[6|4]"``) back into a tile."""
        cleaned = text.strip().strip("[]").replace("-", "|")
        halves = cleaned.split("|")
        if len(halves) != 2 or not all(h.strip().isdigit() for h in halves):
            raise ValueError(f"not a tile: {text!r} (write it like 6|4)")
        return cls(int(halves[0]), int(halves[1]))

    @property
    def is_double(self) -> bool:
        """Both halves equal."""
        return self.high == self.low

    @property
    def bit(self) -> int:
        """This tile's bit in a tile mask."""
        return 1 << self.index

    def has(self, number: int) -> bool:
        """True when either half shows ``number``."""
        return number in (self.high, self.low)

    def other_half(self, number: int) -> int:
        """The half opposite to ``number`` (which this tile must show)."""
        if not self.has(number):
            raise ValueError(f"{self} has no {number}")
        return self.low if number == self.high else self.high

    def __str__(self) -> str:
        return f"{self.high}|{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")


def _make_tile(high: int, low: int) -> Tile:
    tile = object.__new__(Tile)
    object.__setattr__(tile, "high", high)
    object.__setattr__(tile, "low", low)
    object.__setattr__(tile, "index", high * (high + 1) // 2 + low)
    object.__setattr__(tile, "value", high + low)
    return tile


#: All 28 tiles, by index: 0|0, 1|0, 1|1, 2|0, … 6|6.
ALL_TILES: Final[tuple[Tile, ...]] = tuple(_make_tile(h, lo) for h in PIPS for lo in range(h + 1))
_BY_PIPS: Final[dict[tuple[int, int], Tile]] = {}
for _t in ALL_TILES:
    _BY_PIPS[_t.high, _t.low] = _BY_PIPS[_t.low, _t.high] = _t

FULL_SET: Final = (1 << len(ALL_TILES)) - 1

#: SUIT[n]: the mask of the seven tiles that show ``n``.
SUIT: Final[tuple[int, ...]] = tuple(sum(t.bit for t in ALL_TILES if t.has(n)) for n in PIPS)
HIGH: Final[tuple[int, ...]] = tuple(t.high for t in ALL_TILES)
LOW: Final[tuple[int, ...]] = tuple(t.low for t in ALL_TILES)
VALUE: Final[tuple[int, ...]] = tuple(t.value for t in ALL_TILES)

# Masks are split in two 14-bit halves so that per-half tables stay small.
_HALF: Final = 14
_HALF_MASK: Final = (1 << _HALF) - 1
_BITS_LO: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i in range(_HALF) if m >> i & 1) for m in range(1 << _HALF)
)
_BITS_HI: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(i + _HALF for i in b) for b in _BITS_LO)
_PIPS_LO: Final[tuple[int, ...]] = tuple(sum(VALUE[i] for i in b) for b in _BITS_LO)
_PIPS_HI: Final[tuple[int, ...]] = tuple(sum(VALUE[i] for i in b) for b in _BITS_HI)


def indices(mask: int) -> tuple[int, ...]:
    """The tile indices set in ``mask``, ascending."""
    return _BITS_LO[mask & _HALF_MASK] + _BITS_HI[mask >> _HALF]


def pip_total(mask: int) -> int:
    """The total value of the tiles in ``mask``."""
    return _PIPS_LO[mask & _HALF_MASK] + _PIPS_HI[mask >> _HALF]


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles in ``mask``, ascending by index."""
    return tuple(ALL_TILES[i] for i in indices(mask))


def mask_of(tiles: Iterable[Tile]) -> int:
    """The mask of ``tiles``; a tile given twice is an error."""
    mask = 0
    for tile in tiles:
        if mask & tile.bit:
            raise ValueError(f"{tile} is given twice")
        mask |= tile.bit
    return mask


def format_tiles(tiles: Iterable[Tile], sep: str = ",") -> str:
    """``"6|4,3|3"``; ``"-"`` for no tiles."""
    return sep.join(str(t) for t in tiles) or "-"


def parse_tiles(text: str, sep: str = ",") -> tuple[Tile, ...]:
    """Inverse of :func:`format_tiles`."""
    text = text.strip()
    if text in ("", "-"):
        return ()
    return tuple(Tile.parse(part) for part in text.split(sep))


class Placed(tuple[int, int]):
    """A tile as it lies on the line: ``left`` half, ``right`` half.

    >>> str(Placed(3, 6)), Placed(3, 6).tile
    ('3|6', Tile(6, 3))
    """

    __slots__ = ()

    def __new__(cls, left: int, right: int) -> Placed:
        try:
            return _PLACED[left][right]
        except (IndexError, TypeError):
            raise ValueError(
                f"a tile has two halves of 0 to 6 pips, not {left!r} and {right!r}"
            ) from None

    @property
    def left(self) -> int:
        """The half facing the left end of the line."""
        return self[0]

    @property
    def right(self) -> int:
        """The half facing the right end of the line."""
        return self[1]

    @property
    def tile(self) -> Tile:
        """The tile, whichever way round it lies."""
        return Tile(self[0], self[1])

    @property
    def is_double(self) -> bool:
        """Doubles lie crosswise on the table."""
        return self[0] == self[1]

    def __str__(self) -> str:
        return f"{self[0]}|{self[1]}"

    def __repr__(self) -> str:
        return f"Placed({self[0]}, {self[1]})"

    @classmethod
    def parse(cls, text: str) -> Placed:
        """Read ``"3|6"`` (left half first) back."""
        tile = Tile.parse(text)
        halves = text.strip().strip("[]").replace("-", "|").split("|")
        left = int(halves[0])
        return cls(left, tile.other_half(left))


#: _PLACED[left][right]: every way a tile can lie, interned.
_PLACED: Final[tuple[tuple[Placed, ...], ...]] = tuple(
    tuple(tuple.__new__(Placed, (a, b)) for b in PIPS) for a in PIPS
)
