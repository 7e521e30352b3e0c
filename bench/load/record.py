"""What the players record as they go; the window's figures are made from it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Action:
    """A command one seat sent; ``waiting``: the other seats yet to see a newer version."""

    table: int
    kind: str
    version: int
    t0: float
    waiting: set[int]
    latencies: list[float] = field(default_factory=list)
    refused: str = ""  # "stale" or "error" when the server said no
    process: int = 0  # which server process the command went to (--scaled)
    crossed: int = 0  # updates seen by seats on other processes


@dataclass
class Record:
    actions: list[Action] = field(default_factory=list)
    echoes: list[tuple[float, float]] = field(default_factory=list)  # (sent at, round trip)
    frames: list[tuple[float, int]] = field(default_factory=list)  # (received at, bytes)
    pages: list[tuple[float, str, float]] = field(default_factory=list)  # (at, page, seconds)
    errors: list[tuple[float, str, str]] = field(default_factory=list)  # (at, kind, detail)
    lag: list[tuple[float, float]] = field(default_factory=list)  # this process's loop lag
    rematches: list[float] = field(default_factory=list)  # when a finished match restarted

    def error(self, kind: str, detail: str) -> None:
        self.errors.append((time.perf_counter(), kind, detail[:200]))
