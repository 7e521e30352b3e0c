"""A rating's history as a line chart drawn on the server (an SVG, no script): the
points and axis of one format's chart, laid out here; ``ratings/_chart.html``
draws them, beside a table of the same points for screen readers.

>>> c = layout([1500, 1560, 1530])
>>> [p.y for p in c.points], [t.value for t in c.ticks]
([84.0, 26.4, 55.2], [1500, 1525, 1550, 1575])
>>> round(c.value_at(55.2))
1530
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The drawing's size in its own units (it scales to the page's width).
WIDTH, HEIGHT = 320.0, 96.0
#: Room for the axis's labels on the left, and above and below the line.
LEFT, PAD = 36.0, 12.0
#: The axis's step, in rating points, grows until at most this many lines fit.
MAX_TICKS = 5
STEPS = (25, 50, 100, 200, 250, 500)


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    value: int


@dataclass(frozen=True)
class Tick:
    y: float
    value: int


@dataclass(frozen=True)
class Chart:
    points: tuple[ChartPoint, ...]
    ticks: tuple[Tick, ...]
    low: int  # the axis's bottom and top, in rating points
    high: int

    @property
    def polyline(self) -> str:
        """The line's ``points`` attribute."""
        return " ".join(f"{p.x:g},{p.y:g}" for p in self.points)

    def value_at(self, y: float) -> float:
        """The rating a height stands for (the inverse of the layout)."""
        span = HEIGHT - 2 * PAD
        return self.low + (HEIGHT - PAD - y) / span * (self.high - self.low)

    @property
    def width(self) -> float:
        return WIDTH

    @property
    def height(self) -> float:
        return HEIGHT

    @property
    def left(self) -> float:
        return LEFT


def _axis(values: Sequence[int]) -> tuple[int, int, int]:
    """The axis's bottom, top and step: the smallest round step that fits."""
    for step in STEPS:
        low = math.floor(min(values) / step) * step
        high = max(math.ceil(max(values) / step) * step, low + step)
        if (high - low) / step <= MAX_TICKS - 1:
            break
    return low, high, step


def layout(values: Sequence[int]) -> Chart:
    """The chart of ``values`` (oldest first), evenly spaced, on a round-numbered axis."""
    if not values:
        raise ValueError("a chart needs at least one value")
    low, high, step = _axis(values)
    span = HEIGHT - 2 * PAD

    def y_of(value: float) -> float:
        return round(HEIGHT - PAD - (value - low) / (high - low) * span, 2)

    n = len(values)
    across = WIDTH - LEFT - PAD
    points = tuple(
        ChartPoint(round(LEFT + (across * i / (n - 1) if n > 1 else across / 2), 2), y_of(v), v)
        for i, v in enumerate(values)
    )
    ticks = tuple(Tick(y_of(v), v) for v in range(low, high + 1, step))
    return Chart(points, ticks, low, high)
