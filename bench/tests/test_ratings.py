"""bench/ratings.py's figures: the rank correlation, the Elo baseline, the predictions'
scores and the report the closing note and docs/ratings.md quote."""

from __future__ import annotations

import math

import pytest

from bench.ratings import (
    Predictions,
    elo_chances,
    elo_update,
    percentile,
    ranks_of,
    report,
    spearman,
)


def test_ties_share_their_average_rank_and_spearman_reads_the_order_only() -> None:
    assert ranks_of([10, 30, 20, 20]) == [1, 4, 2.5, 2.5]
    assert spearman([1, 2, 3, 4], [10, 20, 35, 400]) == pytest.approx(1)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1)
    assert spearman([1, 1, 1], [1, 2, 3]) == 0  # nothing to rank by


def test_elo_gives_equals_even_chances_and_moves_the_winner_by_half_its_step() -> None:
    assert elo_chances([1500, 1500, 1500]) == pytest.approx([1 / 3] * 3)
    assert elo_chances([1900, 1500])[0] == pytest.approx(10 / 11)  # 400 points: ten to one
    assert elo_update([1500, 1500], [1, 2]) == pytest.approx([12, -12])
    three = elo_update([1500, 1500, 1500], [1, 2, 3])
    assert three == pytest.approx([12, 0, -12]) and sum(three) == pytest.approx(0)


def test_predictions_score_the_chance_given_to_the_winner() -> None:
    scored = Predictions()
    scored.add([0.8, 0.2], 0)
    scored.add([0.25, 0.75], 0)
    assert scored.log_loss == pytest.approx((-math.log(0.8) - math.log(0.25)) / 2)
    assert scored.accuracy == 0.5
    assert percentile([5, 1, 3, 2, 4], 0.9) == 5


def test_the_report_gives_every_figure_the_issue_asks_for() -> None:
    figures = {
        "accounts": 300,
        "matches": {"duel": 1500, "free": 1000, "pairs": 750},
        "filled_rooms": 12,
        "draws": 40,
        "seconds": 600,
        "spearman": {"duel": 0.61, "free": 0.5, "pairs": 0.4, "all": 0.7, "results": 0.68},
        "openskill": {"duel": {"log_loss": 0.66, "accuracy": 0.6, "n": 1490}},
        "elo": {"duel": {"log_loss": 0.68, "accuracy": 0.58, "n": 1490}},
        "matches_to_settle": {"duel": 7},
        "season_wait_median": 3.0,
        "wait_skill": {"median": 4.0, "p90": 12.0, "n": 900},
        "wait_first_come": {"median": 2.0, "p90": 9.0, "n": 900},
        "filler_mu": {"easy": 22.1, "medium": 25.0, "hard": 27.9},
        "filler_shown": {"easy": 1413, "medium": 1500, "hard": 1587},
    }
    text = report(figures).splitlines()
    assert text[0].startswith("Season: 300 accounts, 6 hidden strengths; 3250 rated matches")
    assert "2 players 0.610" in text[1] and "share of matches won 0.680" in text[1]
    assert text[3] == "  2 players (1490) | 0.660, 60.0% | 0.680, 58.0%"
    assert text[4] == "Matches to leave provisional (median): 2 players 7"
    assert "skill pairing median 4 s (p90 12 s), first come first seated median 2 s" in text[5]
    assert text[6].endswith("easy 1413 (mu 22.1), medium 1500 (mu 25.0), hard 1587 (mu 27.9)")
