"""bench/ratings.py's figures: the rank correlation, the Elo baseline, the predictions'
scores and the report the closing note and docs/ratings.md quote."""

from __future__ import annotations

import math

import pytest

from bench.ratings import (
    BLOCCO_SETTINGS,
    HAND_SECONDS,
    ONLINE_SETTINGS,
    PAUSE_SECONDS,
    Predictions,
    busy_seconds,
    choose_settings,
    elo_chances,
    elo_update,
    percentile,
    ranks_of,
    report,
    settings_label,
    spearman,
)
from bench.ratings_estimate import replay, side_groups
from games.engine import PRESET_OPTIONS
from ratings.policy import FORMATS, format_of


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
        "settings": "online",
        "hands": {"blocco 2 single hand": 1, "domino 2 to 100": 7.5},
    }
    text = report(figures).splitlines()
    assert text[0].startswith("Season: 300 accounts, 6 hidden strengths; 3250 rated matches")
    assert "2 players 0.610" in text[1] and "share of matches won 0.680" in text[1]
    assert text[3] == "  2 players (1490) | 0.660, 60.0% | 0.680, 58.0%"
    assert text[4] == "Matches to leave provisional (median): 2 players 7"
    assert "skill pairing median 4 s (p90 12 s), first come first seated median 2 s" in text[5]
    assert text[6].endswith("easy 1413 (mu 22.1), medium 1500 (mu 25.0), hard 1587 (mu 27.9)")
    assert text[7] == (
        "Settings (online), hands a match: blocco 2 single hand 1, domino 2 to 100 7.5"
    )


@pytest.mark.parametrize("choices", [ONLINE_SETTINGS, BLOCCO_SETTINGS])
def test_the_season_plays_settings_the_lobby_offers_in_their_own_format(choices) -> None:
    assert set(choices) == set(FORMATS)
    for fmt, settings in choices.items():
        assert sum(share for _, share in settings) == pytest.approx(1)
        for rules, _ in settings:
            options = PRESET_OPTIONS[rules.preset]
            assert rules.target in options.targets  # a target the lobby offers
            assert format_of(rules.players, rules.partnerships) == fmt


def test_online_play_is_mostly_matches_to_100_with_blocco_single_hands_beside() -> None:
    for fmt, settings in ONLINE_SETTINGS.items():
        targets = {rules.target for rules, _ in settings}
        assert targets == {100, None}, fmt
        assert len(settings) <= 4  # a few popular settings: each pool fills
    assert all(rules.target is None for s in BLOCCO_SETTINGS.values() for rules, _ in s)


def test_settings_are_drawn_by_their_share_and_named_in_a_few_words() -> None:
    import random

    rng = random.Random(1)
    duel = ONLINE_SETTINGS["duel"]
    drawn = [choose_settings(duel, rng) for _ in range(2000)]
    for rules, share in duel:
        assert drawn.count(rules) / 2000 == pytest.approx(share, abs=0.04)
    pairs, single = ONLINE_SETTINGS["pairs"][0][0], BLOCCO_SETTINGS["free"][0][0]
    assert settings_label(pairs) == "domino 4 in pairs to 100"
    assert settings_label(single) == "blocco 3 single hand"


def test_a_longer_match_keeps_its_players_away_from_the_pools_longer() -> None:
    import random

    rng = random.Random(2)
    one = [busy_seconds(1, rng) for _ in range(200)]
    eight = [busy_seconds(8, rng) for _ in range(200)]
    assert HAND_SECONDS[0] + PAUSE_SECONDS[0] <= min(one)
    assert max(one) <= HAND_SECONDS[1] + PAUSE_SECONDS[1]
    assert min(eight) >= 8 * HAND_SECONDS[0]


def test_the_estimate_groups_partners_and_ranks_the_player_who_always_wins_first() -> None:
    assert side_groups("domino players=4 teams=yes", [7, 8, 9, 10], [1, 2, 1, 2]) == [
        [0, 2],
        [1, 3],
    ]
    duel = "domino players=2"
    records = [
        {
            "round": r,
            "rules": duel,
            "format": "duel",
            "seats": seats,
            "tiers": tiers,
            "ranks": [1, 2],
            "hands": 5,
        }
        for r in range(6)
        for seats, tiers in (([2, 1], [2, 1]), ([1, 0], [1, 0]), ([2, 0], [2, 0]))
    ]
    found = replay(records, 25 / 6, [3])
    assert found["curve"][3]["duel"] == pytest.approx(1)  # stronger always won: ranked so
    assert found["tier_mu"][2] > found["tier_mu"][1] > found["tier_mu"][0]
    assert found["openskill"]["duel"][2] == 18  # every decided match predicted once
