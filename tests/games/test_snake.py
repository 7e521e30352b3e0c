"""The line as a snake (games.view.snake): for lines the engine's bots really make, in
every shape of board, no tile lies on another, each touches the one before it, each open
end's mark lies just beyond its tile, and site.css places whatever the layouts name."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from games.engine import PRESETS, Placed, Round, make_bot
from games.view import snake

ROOT = Path(__file__).resolve().parents[2]


def lines(count: int) -> list[tuple[Placed, ...]]:
    """The line after every move of ``count`` hands played by bots (2 to 4 players)."""
    found = []
    for seed in range(count):
        rules = PRESETS["domino"]
        r, bot = Round.deal(rules, rng=random.Random(seed)), make_bot("easy", seed=seed)
        while not r.over:
            r.play(bot.choose(r.view(r.turn)))
            found.append(tuple(r.line))
    return [line for line in found if line]


def the_full_set() -> tuple[Placed, ...]:
    """All 28 tiles in one line (every number is on eight halves: an Euler circuit)."""
    pairs = [(a, b) for a in range(7) for b in range(a, 7)]
    unused = {n: [p for p in pairs if n in p] for n in range(7)}
    used: set[tuple[int, int]] = set()
    stack: list[int] = [6]
    circuit: list[int] = []
    while stack:
        n = stack[-1]
        options = [p for p in unused[n] if p not in used]
        if options:
            used.add(options[0])
            stack.append(options[0][1] if options[0][0] == n else options[0][0])
        else:
            circuit.append(stack.pop())
    return tuple(Placed(a, b) for a, b in itertools.pairwise(circuit))


def box(spot: snake.Spot) -> tuple[float, float, float, float]:
    _, w, h, dy = snake.WAYS[spot.way]
    top = 2 * spot.row + dy
    return spot.x, top, spot.x + w, top + h


def overlap(a: snake.Spot, b: snake.Spot) -> bool:
    ax0, ay0, ax1, ay1 = box(a)
    bx0, by0, bx1, by1 = box(b)
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


def touch(a: snake.Spot, b: snake.Spot) -> bool:
    """Whether the two boxes share a stretch of edge (and do not overlap)."""
    ax0, ay0, ax1, ay1 = box(a)
    bx0, by0, bx1, by1 = box(b)
    side = (ax1 == bx0 or bx1 == ax0) and min(ay1, by1) > max(ay0, by0)
    end = (ay1 == by0 or by1 == ay0) and min(ax1, bx1) > max(ax0, bx0)
    return (side or end) and not overlap(a, b)


@pytest.mark.parametrize("ratios", [shape[3] for shape in snake.SHAPES])
def test_every_line_is_one_chain_with_no_tile_on_another(ratios: tuple[float, float]) -> None:
    for line in [*lines(12), the_full_set()]:
        lay = snake.best_layout(line, *ratios)
        spots = [*lay.spots, *lay.ends]
        assert len(lay.spots) == len(line)
        for i, a in enumerate(spots):
            assert not any(overlap(a, b) for b in spots[i + 1 :]), (line, lay)
            x0, y0, x1, y1 = box(a)
            assert x0 >= 0 and x1 <= lay.cols <= snake.MAX_COLS and y0 >= 0
            assert y1 <= 2 * lay.rows and lay.rows <= snake.MAX_ROWS
        for before, after in itertools.pairwise(lay.spots):
            assert touch(before, after), (line, lay)
        assert touch(lay.ends[0], lay.spots[0]) and touch(lay.spots[-1], lay.ends[1])


def test_rows_read_rightwards_then_leftwards_and_doubles_lie_crosswise() -> None:
    line = the_full_set()
    lay = snake.best_layout(line, 0.8, 1.2)
    assert lay.rows >= 3
    for placed, spot in zip(line, lay.spots, strict=True):
        if spot.way in "ew":
            assert spot.way == ("e" if spot.row % 2 == 0 else "w")
        if placed.is_double and spot.way != "s":  # a double may turn, standing
            assert spot.way == "d"


def test_a_short_line_lies_in_one_row_on_a_long_board_and_turns_on_a_tall_one() -> None:
    line = the_full_set()[:4]
    assert snake.best_layout(line, 2.4, 4).rows == 1
    assert snake.best_layout(the_full_set(), 0.5, 0.8).rows > 4


def test_site_css_places_whatever_a_layout_names() -> None:
    css = (ROOT / "static" / "css" / "site.css").read_text()
    assert snake.stylesheet() in css


def test_a_shape_laid_out_as_the_one_before_it_says_nothing() -> None:
    short, long = the_full_set()[:3], the_full_set()
    for line in (short, long):
        layouts = [snake.best_layout(line, *shape[3]) for shape in snake.SHAPES]
        changes = 1 + sum(a != b for a, b in itertools.pairwise(layouts))
        drawn = snake.snake(line)
        assert drawn.tiles[0].count("_") == drawn.ends[1].count("_") == changes
        assert drawn.line.count(" ") == 2 * changes - 1
    assert snake.snake(short).tiles[0].count("_") < snake.snake(long).tiles[0].count("_")


def test_a_layouts_width_and_rows_are_those_of_what_it_places() -> None:
    """The box a layout asks of site.css (its ``cols`` and ``rows``, counted as the walk
    goes) holds every tile and mark it places, and no more."""
    for line in [*lines(10), the_full_set()]:
        doubles = [p.is_double for p in line]
        for width in range(6, snake.MAX_COLS + 1):
            lay = snake.layout(doubles, width)
            placed = (*lay.spots, *lay.ends)
            assert lay.cols == max(s.x + s.width for s in placed), (doubles, width)
            assert lay.rows == max(s.row for s in placed) + 1, (doubles, width)


def test_each_shape_gets_the_layout_a_look_at_every_row_width_would_choose() -> None:
    """The layouts are chosen by their sizes alone, without building each width's: the
    choice is the one made among every width's layout, the fewest turns first."""

    def chosen_among_all(line: tuple[Placed, ...], low: float, high: float) -> snake.Layout:
        doubles = [p.is_double for p in line]
        widest = max(6, min(2 + sum(1 if d else 2 for d in doubles), snake.MAX_COLS))
        every = [snake.layout(doubles, width) for width in range(widest, 5, -1)]
        every = [lay for lay in every if lay.rows <= snake.MAX_ROWS]
        ratios = (low, (low * high) ** 0.5, high)
        largest = [max(lay.size(a) for lay in every) for a in ratios]
        worst = [
            min(lay.size(a) / most for a, most in zip(ratios, largest, strict=True))
            for lay in every
        ]
        best = 0
        for n in range(1, len(every)):
            if worst[n] > worst[best] * 1.02:
                best = n
        return every[best]

    for line in [*lines(30), the_full_set()]:
        for shape in snake.SHAPES:
            assert snake.best_layout(line, *shape[3]) == chosen_among_all(line, *shape[3])
