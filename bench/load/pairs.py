"""The ratchet's guard: the checkout against the fixed reference (``bench/REFERENCE``),
in alternating runs on fresh servers, each pair's order the other way round from the
last (reference first, then the checkout first …), so that a machine growing busier
or quieter weighs on both alike.  It prints one table: the reference's medians,
today's, and their ratio.

    .venv/bin/python -m bench.load --pairs 3 --tables 250
    .venv/bin/python -m bench.load --pairs 3 --tables 800 --interval 4 --window 60
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_FILE = ROOT / "bench" / "REFERENCE"


def reference() -> str:
    """The reference commit: the first line of ``bench/REFERENCE``."""
    return REFERENCE_FILE.read_text().split()[0]


def order(pairs: int) -> list[str]:
    """Which site each run serves: "reference" or "checkout", alternating pair to pair.

    >>> order(2)
    ['reference', 'checkout', 'checkout', 'reference']
    """
    runs: list[str] = []
    for n in range(pairs):
        pair = ["reference", "checkout"]
        runs += pair if n % 2 == 0 else pair[::-1]
    return runs


def cpu_ms_per_move(step: dict[str, Any]) -> float | None:
    """The server's CPU time per move (every action: moves, next hands, pages included)."""
    cpu, moves = step.get("server_cpu_pct"), step.get("moves_per_s")
    return cpu / 100 / moves * 1000 if cpu and moves else None


#: The table's rows: a label and how a run's step gives it.
FIGURES: list[tuple[str, Callable[[dict[str, Any]], float | None]]] = [
    ("moves/s achieved", lambda s: s.get("moves_per_s")),
    ("CPU ms a move", cpu_ms_per_move),
    ("server CPU % of a core", lambda s: s.get("server_cpu_pct")),
    ("move→update p50 ms", lambda s: s["latency_ms"].get("p50")),
    ("move→update p99 ms", lambda s: s["latency_ms"].get("p99")),
    ("frame p50 bytes", lambda s: s["frame_bytes"].get("p50")),
    ("server waiting for a CPU %", lambda s: s.get("server_waiting_for_cpu_pct")),
    ("machine load", lambda s: s.get("machine_load")),
]


def table(runs: dict[str, list[dict[str, Any]]], ref: str) -> str:
    """The medians of the reference's runs and of the checkout's, and their ratio."""
    lines = [
        f"| figure (medians of {len(runs['reference'])} pairs) | reference {ref} "
        "| checkout | checkout / reference |",
        "|---|---|---|---|",
    ]
    for label, figure in FIGURES:
        values = {}
        for site, steps in runs.items():
            found = [v for s in steps if (v := figure(s)) is not None]
            values[site] = statistics.median(found) if found else None
        old, new = values["reference"], values["checkout"]
        ratio = f"{new / old:.2f}" if old and new is not None else "-"
        lines.append(f"| {label} | {_num(old)} | {_num(new)} | {ratio} |")
    return "\n".join(lines)


def _num(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.1f}" if abs(value) < 100 else f"{value:.0f}"
