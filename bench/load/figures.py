"""Figures: percentiles, and what /proc says of a process's CPU and memory."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of ``values``; None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def spread(values: list[float]) -> dict[str, Any]:
    """p50/p90/p99/max in milliseconds, and the count."""
    return {
        "n": len(values),
        **{
            name: None if (v := percentile(values, q)) is None else round(v * 1000, 2)
            for name, q in (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100))
        },
    }


def total(values: Iterable[float | None]) -> float | None:
    """The sum, or None when there is none or one is unknown."""
    listed = list(values)
    known = [v for v in listed if v is not None]
    if not listed or len(known) < len(listed):
        return None
    return sum(known)


def proc_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` so far (from /proc)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def proc_children(pid: int) -> list[int]:
    """The child processes of ``pid`` (the engine's, beside a server), from /proc."""
    found: list[int] = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(c) for c in children.read_text().split()]
        except OSError:
            continue
    return found


def proc_system_seconds(pid: int) -> float | None:
    """System (kernel) CPU seconds of ``pid`` so far: its syscalls' share of the CPU."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(text[text.rindex(")") + 2 :].split()[12]) / CLOCK_TICKS


def proc_runqueue_seconds(pid: int) -> float | None:
    """Seconds the threads of ``pid`` have waited for a CPU while ready to run: on a
    shared machine, the time the server was held up by its neighbours."""
    nanoseconds = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, IndexError, ValueError):
                nanoseconds += int((task / "schedstat").read_text().split()[1])
    except OSError:
        return None
    return nanoseconds / 1e9


def proc_memory_mb(pid: int) -> dict[str, float]:
    """Resident memory now and at its peak (VmRSS, VmHWM) in MB."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                out[name] = round(int(value.split()[0]) / 1024, 1)
    return out
