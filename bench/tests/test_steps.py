"""bench/steps.py: Python steps are counted alike run after run, in proportion to the
work, for the functions called inside the block only, and by function."""

from __future__ import annotations

from bench.steps import Steps


def _add_up(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def test_steps_are_the_same_run_after_run_and_grow_with_the_work() -> None:
    counted = [Steps() for _ in range(3)]
    for steps, n in zip(counted, (100, 100, 200), strict=True):
        with steps.counting("sum"):
            _add_up(n)
    once, again, twice = (steps.steps["sum"] for steps in counted)
    assert once == again > 0
    assert 1.9 * once < twice < 2.1 * once


def test_only_what_runs_inside_the_block_counts_and_each_function_has_its_own() -> None:
    steps = Steps()
    _add_up(1000)  # outside: not counted
    with steps.counting("sum"):
        _add_up(100)
    _add_up(1000)
    with steps.counting("sum"):
        _add_up(100)
    assert steps.runs["sum"] == 2
    assert steps.per_run("sum") == steps.steps["sum"] / 2
    (share, where), *_ = steps.top("sum")
    assert where.endswith("test_steps.py:_add_up") and share > 98  # and the block's end
