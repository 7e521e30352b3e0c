"""Python steps, counted: what a piece of code costs, alike on a busy machine and a quiet one.

On a shared machine the same code's timings swing by 20 to 50% from one run to the
next (other tenants, the CPU's clock); the bytecode instructions the interpreter runs
do not (only the deals' randomness moves them, by about 1%).  ``Steps.counting``
counts them for the functions called inside it, through CPython's own hook
(``sys.settrace``'s opcode events), by function.  Code in C is not counted (SQLite,
``str.join``, markupsafe's escaping): a change that moves work into C looks cheaper
than it is, so say so beside the figure.  ``bench/actions.py --steps`` uses it.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from types import FrameType
from typing import Any


class Steps:
    """Steps counted by kind of work ("command", "frame"), and by function."""

    def __init__(self) -> None:
        self.steps: Counter[str] = Counter()
        self.runs: Counter[str] = Counter()
        self.own: Counter[tuple[str, str, str]] = Counter()

    def counting(self, kind: str) -> _Counting:
        """Count the steps of every function called inside the block as ``kind``'s."""
        self.runs[kind] += 1
        return _Counting(self, kind)

    def per_run(self, kind: str) -> float:
        return self.steps[kind] / max(self.runs[kind], 1)

    def top(self, kind: str, lines: int = 15) -> list[tuple[float, str]]:
        """The functions with the most steps of their own in ``kind``, as a share of it."""
        mine = [
            (n, f"{_short(path)}:{name}") for (k, path, name), n in self.own.items() if k == kind
        ]
        total = max(self.steps[kind], 1)
        return [(100 * n / total, where) for n, where in sorted(mine, reverse=True)[:lines]]


class _Counting:
    """The block of ``Steps.counting``: a class, not a generator's context, so that only
    the first steps of its ``__exit__`` are counted with the block's."""

    def __init__(self, steps: Steps, kind: str) -> None:
        self.kind, self.steps, self.own = kind, steps.steps, steps.own

    def __enter__(self) -> None:
        kind, steps, own = self.kind, self.steps, self.own

        def step(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                steps[kind] += 1
                own[(kind, frame.f_code.co_filename, frame.f_code.co_name)] += 1
            return step

        def call(frame: FrameType, event: str, arg: Any) -> Any:
            frame.f_trace_opcodes = True
            return step

        self.before = sys.gettrace()
        sys.settrace(call)

    def __exit__(self, *exc: object) -> None:
        sys.settrace(self.before)


def _short(path: str) -> str:
    """A source's path from its package: site-packages', the standard library's, the
    checkout's."""
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1]
    library = re.search(r"/lib/python3\.\d+/(.*)", path)
    return library.group(1) if library else "/".join(path.split("/")[-3:])
