"""The rating maths (openskill's Plackett-Luce, checked against the library's own
reference results) and the policy around it: formats, the number shown, leavers."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from ratings.policy import (
    DUEL,
    FILLER_SKILL,
    FREE,
    PAIRS,
    PROVISIONAL_SIGMA,
    START,
    Entrant,
    Skill,
    display,
    format_of,
    label,
    model_for,
    rate,
    win_chances,
)

# openskill.py's reference data for Plackett-Luce (tests/models/data/plackettluce.json):
# a model of mu 31.32..., sigma 11.37..., one player against a pair.
REFERENCE = PlackettLuce(31.321989232514305, 11.379964801443018)
NEW = Skill(REFERENCE.mu, REFERENCE.sigma)


def one_against_two(ranks: tuple[int, int]) -> list[Entrant]:
    return [
        Entrant(0, 0, ranks[0], NEW),
        Entrant(1, 1, ranks[1], NEW),
        Entrant(2, 1, ranks[1], NEW),
    ]


def test_the_library_reference_one_player_beating_a_pair() -> None:
    new = rate(one_against_two((1, 2)), model=REFERENCE)
    assert new[0] == pytest.approx(Skill(36.48967347401391, 11.237778601372977))
    assert new[1] == new[2] == pytest.approx(Skill(26.154304991014694, 11.17822477763209))


def test_the_library_reference_the_pair_winning() -> None:
    new = rate(one_against_two((2, 1)), model=REFERENCE)
    assert new[0] == pytest.approx(Skill(30.19454401757094, 11.237778601372977))
    assert new[1] == pytest.approx(Skill(32.44943444745767, 11.17822477763209))


def test_the_library_reference_three_sides_with_a_tie() -> None:
    entrants = [Entrant(0, 0, 1, NEW)]
    entrants += [Entrant(seat, 1, 2, NEW) for seat in (1, 2)]
    entrants += [Entrant(seat, 2, 1, NEW) for seat in (3, 4, 5)]
    new = rate(entrants, model=REFERENCE)
    assert new[0] == pytest.approx(Skill(33.21874815457553, 11.354896725884002))
    assert new[2] == pytest.approx(Skill(30.27713112192334, 11.291328826858104))
    assert new[5] == pytest.approx(Skill(30.470088421044046, 11.249240904583088))


def test_formats_two_players_each_for_themselves_and_pairs() -> None:
    assert format_of(2, False) == DUEL
    assert format_of(3, False) == format_of(4, False) == FREE
    assert format_of(4, True) == PAIRS


def test_a_new_player_reads_1500_provisional_and_settles_with_certainty() -> None:
    assert display(START.mu) == 1500 and label(START) == "1500?"
    assert label(Skill(START.mu + 1, PROVISIONAL_SIGMA)) == "1530"


def test_a_win_moves_both_players_by_the_same_points_in_a_duel_of_equals() -> None:
    new = rate([Entrant(0, 0, 1, START), Entrant(1, 1, 2, START)])
    assert new[0].shown - 1500 == 1500 - new[1].shown > 0
    assert new[0].sigma < START.sigma


def test_a_simulated_player_takes_part_but_is_not_rated() -> None:
    new = rate([Entrant(0, 0, 2, START), Entrant(1, 1, 1, FILLER_SKILL["hard"], rated=False)])
    assert list(new) == [0]
    assert new[0].mu < START.mu


def test_a_leaver_loses_even_when_the_computer_won_their_seat() -> None:
    won_for_them = rate([Entrant(0, 0, 1, START, left=True), Entrant(1, 1, 2, START)])
    assert won_for_them[0].mu < START.mu  # rated as a loss
    assert won_for_them[1].mu > START.mu  # and the one who stayed as the winner


def test_in_three_the_leaver_goes_last_and_the_others_keep_their_order() -> None:
    new = rate(
        [
            Entrant(0, 0, 1, START, left=True),
            Entrant(1, 1, 2, START),
            Entrant(2, 2, 3, START),
        ]
    )
    as_if = rate([Entrant(0, 0, 3, START), Entrant(1, 1, 1, START), Entrant(2, 2, 2, START)])
    assert new == pytest.approx(as_if)


def test_a_pair_whose_partner_left_wins_for_the_one_who_stayed_only() -> None:
    entrants = [
        Entrant(0, 0, 1, START),
        Entrant(1, 1, 2, START),
        Entrant(2, 0, 1, START, left=True),
        Entrant(3, 1, 2, START),
    ]
    new = rate(entrants)
    assert new[0].mu > START.mu  # stayed and won
    assert new[2].mu < START.mu  # left: lost, alone
    assert new[1].mu < START.mu and new[3].mu < START.mu  # the match is as it ended


def test_win_chances_favour_the_stronger_side_and_sum_to_one() -> None:
    strong, weak = Skill(30, 3), Skill(20, 3)
    chances = win_chances([[strong], [weak]])
    assert chances[0] > 0.5 > chances[1]
    assert sum(chances) == pytest.approx(1)


def test_a_single_hand_tells_less_than_a_match_to_100_so_it_moves_ratings_less() -> None:
    duel = [Entrant(0, 0, 1, START), Entrant(1, 1, 2, START)]
    after_hand, after_match = rate(duel, model_for(None)), rate(duel, model_for(100))
    assert START.mu < after_hand[0].mu < after_match[0].mu
    assert after_match[1].mu < after_hand[1].mu < START.mu
    assert after_match[0].sigma < after_hand[0].sigma < START.sigma  # both learn something
    strong, weak = Skill(30, 3), Skill(20, 3)
    hand_odds = win_chances([[strong], [weak]], model_for(None))[0]
    assert 0.5 < hand_odds < win_chances([[strong], [weak]], model_for(100))[0]
