"""bench/ceiling.py: the exact best play of a player who sees every hand against
``easy``, which lays a legal move at random."""

from __future__ import annotations

import pytest

from bench.ceiling import best_odds, main, table
from games.engine import Round

# Seat 0 must lay 4|1; ``easy`` then lays 2|1 or 4|3, each half the time.  After
# 4|3 ``easy`` wins whatever seat 0 does.  After 2|1 seat 0 wins only by laying
# 6|4 (blocked, 9 pips against 15); 5|4 would let ``easy`` go out.
POSITION = "hands=6|4,5|4,4|1/5|3,2|1,4|3 boneyard=- line=1|1 turn=0 dealer=1"


def test_the_seeing_seat_finds_the_one_winning_answer_and_easy_is_a_coin() -> None:
    hand = Round.from_position(table(2, 7, False), POSITION)
    before = str(hand)
    assert best_odds(hand, [True, False], 0.8) == (0.5, 0.5)
    assert best_odds(hand, [False, True], 0.8) == (1.0, 0.0)  # seat 1, seeing, answers 4|3
    assert str(hand) == before  # the position searched is left as it was


def test_the_report_says_whether_the_rate_is_within_reach(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--players", "2", "--hand-size", "7", "--deals", "20", "--rate", "0.5"])
    report = capsys.readouterr().out
    assert report.startswith("blocco, 2 players, 7 tiles: 20 deals;")
    assert "50% is within reach" in report  # seeing every hand beats random play


def test_a_rate_outside_zero_to_one_is_refused_with_a_clear_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--rate", "1"])
    assert "--rate is a share of decided hands, between 0 and 1" in capsys.readouterr().err
