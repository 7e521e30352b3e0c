"""Final ranks of a match (what results, coins and the league pay from)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import PRESETS, Match, Round, Rules


def _hand_won_by(rules: Rules, winner: int, losers_hold: dict[int, list[str]]) -> Round:
    """A hand ``winner`` goes out of at once with the 6|6, the others holding ``losers_hold``."""
    hands = [losers_hold.get(seat, ["0|0"]) for seat in range(rules.players)]
    hands[winner] = ["6|6"]
    r = Round.from_hands(rules, hands, dealer=(winner - 1) % rules.players)
    r.play(r.legal_moves()[0])
    assert r.over and r.result is not None and r.result.winners[0] == winner
    return r


def test_partners_share_their_sides_rank() -> None:
    rules = replace(PRESETS["domino"], players=4, hand_size=7, target=50)
    hand = _hand_won_by(rules, 1, {0: ["6|5", "6|4", "5|5"], 2: ["6|3", "5|4", "5|3"]})
    match = Match(rules, rounds=[hand])
    assert match.over
    assert match.ranks() == (2, 1, 2, 1)


def test_ties_share_a_rank_and_the_next_rank_is_skipped() -> None:
    rules = replace(PRESETS["domino"], players=3, hand_size=7, target=50)
    hand = _hand_won_by(rules, 2, {0: ["6|5", "6|4", "5|5"], 1: ["6|3", "5|4", "5|3"]})
    match = Match(rules, rounds=[hand])
    assert match.scores[2] >= 50 and match.scores[0] == match.scores[1] == 0
    assert match.ranks() == (2, 2, 1)


def test_three_players_rank_first_to_last_by_points() -> None:
    rules = replace(PRESETS["domino"], players=3, hand_size=7, target=50)
    first = _hand_won_by(rules, 1, {0: ["2|1"], 2: ["3|2", "4|3"]})  # seat 1: 15 points
    second = _hand_won_by(rules, 0, {1: ["6|5", "6|4", "5|5"], 2: ["6|3", "5|4", "5|3"]})
    match = Match(rules, rounds=[first, second])
    assert match.scores == (57, 15, 0)
    assert match.ranks() == (1, 2, 3)


def test_a_drawn_single_hand_ranks_everybody_first() -> None:
    rules = PRESETS["blocco"]  # 2 players, one hand, block play
    r = Round.from_hands(rules, [["6|6", "2|0"], ["1|1", "0|0"]], dealer=1)
    while not r.over:
        r.play(r.legal_moves()[0])
    assert r.result is not None and r.result.tied
    assert Match(rules, rounds=[r]).ranks() == (1, 1)


def test_ranks_need_the_match_to_be_over() -> None:
    with pytest.raises(ValueError, match="not over"):
        Match(PRESETS["duello"]).ranks()
