"""The line as one chain that snakes across the board: a row read rightwards, a tile
standing at the board's edge that links it to the next row, read leftwards, and so on,
doubles crosswise, each open end marked just beyond its tile.

The server cannot know the board's size (the line is one fragment for every viewer), so
it lays the line out once for each shape a board can have (``SHAPES``: tall to long),
as large as such a board allows, and the page's stylesheet shows the one that fits the
board it has (site.css, a container query on the line's aspect ratio).  Each tile's
place in each shape is a few classes (``classes``): the page allows no style attribute.

Distances are in half-tiles: a tile lying is 2 × 1, standing 1 × 2; row ``r`` is the
band from ``2r`` to ``2r + 2`` high, its lying tiles in the middle of it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from games.engine import Placed

#: The shapes of board a line is laid out for: its class prefix, the width-to-height
#: ratios of the line's box it is shown for (site.css's container queries say the same),
#: and the ratios it is laid out for (a box is seldom narrower or longer than these).
SHAPES = (
    ("t", 0, 0.7, (0.45, 0.7)),
    ("u", 0.7, 0.95, (0.7, 0.95)),
    ("s", 0.95, 1.2, (0.95, 1.2)),
    ("w", 1.2, 1.5, (1.2, 1.5)),
    ("v", 1.5, 1.9, (1.5, 1.9)),
    ("x", 1.9, 2.5, (1.9, 2.5)),
    ("l", 2.5, 3.2, (2.5, 3.2)),
    ("m", 3.2, None, (3.2, 4.5)),
)
#: The widest row (half-tiles) and the most rows a layout may take: site.css has a rule
#: for every place up to these.
MAX_COLS = 32
MAX_ROWS = 16
#: A tile's length is at most this share of the line's width (site.css's --tile-max):
#: a short line takes fewer turns rather than larger tiles than the page draws.
LONGEST = 0.28


class Spot(NamedTuple):
    """Where one tile (or an open end's mark) lies in one layout."""

    x: int  # left edge, in half-tiles
    row: int
    way: str  # "e"/"w": lying, read rightwards/leftwards; "s": standing at a turn, read
    # downwards; "d": a double, crosswise; an open end's mark (a half-tile) beyond its
    # tile, which lies on its right ("mr"), on its left ("ml") or above it ("mu")

    @property
    def width(self) -> int:
        return 2 if self.way in "ew" else 1


class Layout(NamedTuple):
    spots: tuple[Spot, ...]  # one per tile, the line's order
    ends: tuple[Spot, Spot]  # the marks beyond the left and the right end
    cols: int  # the layout's width, in half-tiles
    rows: int

    def size(self, aspect: float) -> float:
        """A half-tile's side when the layout fills a box of height 1 and width ``aspect``."""
        return _size(self.cols, self.rows, aspect)


def layout(doubles: Sequence[bool], width: int) -> Layout:
    """A line whose tiles are ``doubles`` or not, in rows at most ``width`` half-tiles
    wide (at least 6: two lying tiles and a turn)."""
    places, cols, rows = _walk(tuple(doubles), width)
    *tiles, right = (Spot(*place) for place in places)  # the walk ends with the right mark
    return Layout(tuple(tiles), (Spot(0, 0, "mr"), right), cols, rows)


Walk = tuple[tuple[tuple[int, int, str], ...], int, int]


# Kept a while: a new line's layouts are built from the very walks that chose them.
@functools.lru_cache(maxsize=256)
def _walk(doubles: tuple[bool, ...], width: int) -> Walk:
    """Each tile's place (x, row, way) in rows at most ``width`` wide, then the right
    end's mark; and the width (cols) and rows they take: the one walk ``layout`` builds
    from and ``_candidates`` measures."""
    places: list[tuple[int, int, str]] = []
    row, x, east, i, n = 0, 1, True, 0, len(doubles)  # x: the row's front; the left mark at 0
    cols = 1  # the left mark's
    turned = False  # whether the last place is a turn
    while i < n:
        start = i
        # a row's tiles, as far as they go leaving room (1) for the turning tile beyond
        # them or the right end's mark; a double lies crosswise but under a turn (it
        # cannot stand crosswise there).  Written out for each way: the line's hot loop.
        crosswise = i if row else -1  # the row's first tile, after a turn
        if east:
            while i < n:
                if doubles[i] and i != crosswise:
                    if x + 2 > width and i > start:
                        break
                    places.append((x, row, "d"))
                    x += 1
                else:
                    if x + 3 > width and i > start:
                        break
                    places.append((x, row, "e"))
                    x += 2
                i += 1
        else:
            while i < n:
                if doubles[i] and i != crosswise:
                    if x < 2 and i > start:
                        break
                    x -= 1
                    places.append((x, row, "d"))
                else:
                    if x < 3 and i > start:
                        break
                    x -= 2
                    places.append((x, row, "w"))
                i += 1
        turned = False
        if i == n:
            break
        # the tile that turns stands at the row's end; the next one lies under it, so a
        # double next (crosswise, it would reach up into the turn) turns itself instead
        if i + 1 < n and doubles[i + 1] and not doubles[i] and i - 1 > start:
            i -= 1
            px, _, pway = places.pop()
            x = px if east else px + (2 if pway in "ew" else 1)
        places.append((x if east else x - 1, row, "s"))
        if east:
            x += 1
            cols = max(cols, x)  # a row read rightwards reaches furthest at its turn
        else:
            x -= 1  # one read leftwards stays within the turn before it
        turned = True
        east, row, i = not east, row + 1, i + 1
    if turned:  # the right end turned: its mark is below it
        places.append((places[-1][0], row, "mu"))
    elif east:
        places.append((x, row, "ml"))
        cols = max(cols, x + 1)
    else:
        places.append((x - 1, row, "mr"))
    return tuple(places), cols, row + 1


@functools.lru_cache(maxsize=4096)
def _candidates(doubles: tuple[bool, ...]) -> tuple[tuple[int, int, int], ...]:
    """(width, cols, rows) of the layouts worth a look, the fewest turns first: one per
    run of row widths laid out the same size.  Only a layout's size tells layouts apart
    when the best is chosen (``_best``), and of two the same size the first is kept, so
    the others are not built at all."""
    one_row = 2 + sum(1 if d else 2 for d in doubles)  # and the two ends' marks
    found: list[tuple[int, int, int]] = []
    width = max(6, min(one_row, MAX_COLS))
    while width > 5:
        _, cols, rows = _walk(doubles, width)
        if rows > MAX_ROWS:
            break
        if not found or (cols, rows) != found[-1][1:]:
            found.append((width, cols, rows))
        # every row width from ``cols`` up to this one walks alike: each tile that fitted
        # ends at most at ``cols`` (its turn or mark beyond it), each that did not passed
        # this width, so the narrower widths down to ``cols`` are not walked again
        width = min(width, cols) - 1
    assert found, "a line of 28 tiles fits in 16 rows of 6"
    return tuple(found)


def best_layout(line: Sequence[Placed], low: float, high: float) -> Layout:
    """The layout of ``line`` for boxes of any ratio (of width to height) from ``low`` to
    ``high``: the one whose tiles, in the worst of them, come nearest the largest any
    layout would draw there; of two nearly as good, the one with fewer turns."""
    doubles = _doubles(line)
    return layout(doubles, _best(doubles, low, high))


def _doubles(line: Sequence[Placed]) -> tuple[bool, ...]:
    return tuple(p.is_double for p in line)


def _best(doubles: tuple[bool, ...], low: float, high: float) -> int:
    """The row width of the best layout for boxes from ``low`` to ``high`` (``best_layout``)."""
    return _best_widths(doubles, ((low, high),))[0]


def _best_widths(
    doubles: tuple[bool, ...], spans: tuple[tuple[float, float], ...]
) -> tuple[int, ...]:
    """``_best`` for each (low, high) of ``spans`` at once: each candidate's size is
    worked out once for every ratio the spans look at (a line is laid out anew at almost
    every move of every table, so this is a frame's most repeated arithmetic)."""
    candidates = _candidates(doubles)
    ratios, caps, looks = _looks(spans)
    sizes = []
    for _, cols, rows in candidates:
        tall = 1 / (2 * rows)
        # ``_size`` at each ratio, its ``min`` written out (the builtin's call is most of
        # it): the cap on a tile's length is the smaller of the first two for a layout
        # narrower than 2 / LONGEST half-tiles (7), at every ratio, and never else
        across = caps if cols * LONGEST < 2 else [a / cols for a in ratios]
        sizes.append([tall if tall < size else size for size in across])
    largest = [max(column) for column in zip(*sizes, strict=True)]
    widths = []
    for i, j, k in looks:
        most_i, most_j, most_k = largest[i], largest[j], largest[k]
        best, best_worst = 0, 0.0
        for n, row in enumerate(sizes):
            worst, other = row[i] / most_i, row[j] / most_j
            if other < worst:
                worst = other
            other = row[k] / most_k
            if other < worst:
                worst = other
            if not n or worst > best_worst * 1.02:
                best, best_worst = n, worst
        widths.append(candidates[best][0])
    return tuple(widths)


@functools.lru_cache(maxsize=16)
def _looks(
    spans: tuple[tuple[float, float], ...],
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[tuple[int, int, int], ...]]:
    """The ratios ``spans`` look at (each span's ends and their geometric mean), each
    ratio's cap on a half-tile (``LONGEST``), and each span's three ratios by index."""
    threes = [(low, (low * high) ** 0.5, high) for low, high in spans]
    ratios = tuple(sorted({a for three in threes for a in three}))
    at = {a: i for i, a in enumerate(ratios)}
    caps = tuple(LONGEST * a / 2 for a in ratios)
    return ratios, caps, tuple((at[a], at[b], at[c]) for a, b, c in threes)


def _size(cols: int, rows: int, aspect: float) -> float:
    """``Layout.size`` of a layout ``cols`` wide and ``rows`` high."""
    return min(aspect / cols, 1 / (2 * rows), LONGEST * aspect / 2)


class Snake(NamedTuple):
    """The classes that place each tile, and each open end's mark, in every shape."""

    line: str  # the line's own: each shape's width and rows
    tiles: tuple[str, ...]
    ends: tuple[str, str]


_SPANS = tuple(ratios for *_, ratios in SHAPES)


def snake(line: Sequence[Placed]) -> Snake:
    """``line`` laid out for every shape of board.  A shape laid out as the one before it
    says nothing: site.css takes the nearest shape before it that says (a short line is
    one row on most boards, and a frame's bytes are mostly tiles)."""
    return _snake(_doubles(line))


@functools.lru_cache(maxsize=4096)  # by the line's pattern of doubles: every table's
def _snake(doubles: tuple[bool, ...]) -> Snake:
    shown: list[tuple[str, Walk]] = []
    before = None
    for (shape, *_), width in zip(SHAPES, _best_widths(doubles, _SPANS), strict=True):
        if width != before:
            shown.append((shape, _walk(doubles, width)))
        before = width
    # each place (the tiles', then the right mark's) in every shape shown, then the left mark
    places = zip(
        *(
            [f"{shape}x{x} {shape}r{row} {shape}_{way}" for x, row, way in walk]
            for shape, (walk, _, _) in shown
        ),
        strict=True,
    )
    *tiles, right = (" ".join(place) for place in places)
    return Snake(
        line=" ".join(f"{shape}c{cols} {shape}n{rows}" for shape, (_, cols, rows) in shown),
        tiles=tuple(tiles),
        ends=(" ".join(f"{shape}x0 {shape}r0 {shape}_mr" for shape, _ in shown), right),
    )


#: What each way makes of a tile: its turn (from lying, read rightwards), its box
#: (half-tiles), and how far below its band's top it starts.
WAYS = {
    "e": ("0deg", 2, 1, 0.5),
    "w": ("180deg", 2, 1, 0.5),
    "s": ("90deg", 1, 2, 0.5),
    "d": ("90deg", 1, 2, 0),
    "mr": ("0deg", 1, 1, 0.5),
    "ml": ("0deg", 1, 1, 0.5),
    "mu": ("0deg", 1, 1, 0.5),
}
#: Where a mark's tile lies along its row (--ax: 1 on its right, -1 on its left, 0
#: above it): an end's target, larger than the mark on a phone, grows away from the
#: line's other tiles (site.css).
TOWARD = {"mr": 1, "ml": -1, "mu": 0}


def stylesheet() -> str:
    """The rules that place what ``snake`` classes (site.css holds them, from here:
    ``python -m games.view.snake``): which shape a line's box shows, and each shape's
    places, widths, rows and ways."""

    def said(v: str, index: int) -> str:
        # shape ``index``'s, else the nearest shape's before it (``snake`` says each once)
        value = f"var(--{SHAPES[0][0]}{v})"
        for earlier, *_ in SHAPES[1 : index + 1]:
            value = f"var(--{earlier}{v}, {value})"
        return value

    out = []
    for index, (_, low, high, _) in enumerate(SHAPES):
        ratio = (
            f"aspect-ratio < {high}"
            if not low
            else f"aspect-ratio >= {low}"
            if high is None
            else f"{low} <= aspect-ratio < {high}"
        )
        shown = " ".join(f"--{v}: {said(v, index)};" for v in ("x", "r", "t", "w", "h", "dy", "ax"))
        out.append(
            f"@container line ({ratio}) {{ .snake {{ --cols: {said('c', index)};"
            f" --rows: {said('n', index)}; }} .snake > * {{ {shown} }} }}"
        )
    for shape, *_ in SHAPES:
        out.append(" ".join(f".{shape}x{x}{{--{shape}x:{x}}}" for x in range(MAX_COLS)))
        out.append(" ".join(f".{shape}r{r}{{--{shape}r:{r}}}" for r in range(MAX_ROWS)))
        out.append(" ".join(f".{shape}c{c}{{--{shape}c:{c}}}" for c in range(1, MAX_COLS + 1)))
        out.append(" ".join(f".{shape}n{n}{{--{shape}n:{n}}}" for n in range(1, MAX_ROWS + 1)))
        out.append(
            " ".join(
                f".{shape}_{way}{{--{shape}t:{turn};--{shape}w:{w};--{shape}h:{h};--{shape}dy:{dy}"
                + (f";--{shape}ax:{TOWARD[way]}" if way in TOWARD else "")
                + "}"
                for way, (turn, w, h, dy) in WAYS.items()
            )
        )
    return "\n".join(out)


if __name__ == "__main__":
    print(stylesheet())
