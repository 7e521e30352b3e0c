"""bench/load/pairs.py: the checkout against the fixed reference, in alternating runs."""

from __future__ import annotations

from typing import Any

from bench.load import pairs


def step(moves: float, cpu: float, p99: float) -> dict[str, Any]:
    return {
        "moves_per_s": moves,
        "server_cpu_pct": cpu,
        "latency_ms": {"p50": p99 / 4, "p99": p99},
        "frame_bytes": {"p50": 6500},
        "server_waiting_for_cpu_pct": 1.0,
        "machine_load": 1.0,
    }


def test_the_reference_is_a_named_commit_kept_in_one_file() -> None:
    ref = pairs.reference()
    assert len(ref) >= 7 and all(c in "0123456789abcdef" for c in ref)


def test_each_pair_runs_the_other_way_round_from_the_last() -> None:
    assert pairs.order(3) == [
        *("reference", "checkout"),
        *("checkout", "reference"),
        *("reference", "checkout"),
    ]


def test_the_table_gives_medians_and_the_ratio_to_the_reference() -> None:
    runs = {
        "reference": [step(62.5, 50.0, 40), step(62.5, 48.0, 44), step(62.5, 52.0, 60)],
        "checkout": [step(62.5, 25.0, 20), step(62.5, 24.0, 22), step(62.5, 26.0, 30)],
    }
    text = pairs.table(runs, "520ef8e")
    assert "| CPU ms a move | 8.0 | 4.0 | 0.50 |" in text
    assert "| move→update p99 ms | 44.0 | 22.0 | 0.50 |" in text
    assert "medians of 3 pairs" in text and "reference 520ef8e" in text
