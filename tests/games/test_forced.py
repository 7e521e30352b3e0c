"""The one decision of a forced move, shared by the site's worker and the offline game
(``games.forced``, Django-free): the seat to act has a single legal move (the only tile
that fits, a draw, a pass, the hand's forced opening), played after a pause that never
falls in the hand's first seconds."""

from __future__ import annotations

from dataclasses import replace

from games.constants import FORCED_PAUSE_SECONDS, HAND_START_GRACE
from games.engine import DRAW, PASS, PRESETS, Round, Rules, parse_move
from games.forced import forced_delay, only_move

BLOCK = replace(PRESETS["luciano"], draw=False)


def opened(rules: Rules = BLOCK, boneyard: tuple[str, ...] = ()) -> Round:
    """6|6 opened, 6|4 on its right: the ends are 6 and 4, seat 0 to play."""
    r = Round.from_hands(
        rules, [["6|6", "4|1", "1|2"], ["6|4", "3|3", "0|0"]], boneyard=boneyard, dealer=1
    )
    r.play(parse_move("6|6L"))
    r.play(parse_move("6|4R"))
    return r


def test_the_only_tile_that_fits_is_the_only_move() -> None:
    r = opened()
    assert r.turn == 0 and only_move(r) == parse_move("4|1R")  # 1|2 fits neither end


def test_a_pass_or_a_draw_when_nothing_fits() -> None:
    blocked = opened()
    blocked.play(parse_move("4|1R"))  # the ends are 6 and 1: seat 1 holds neither
    assert only_move(blocked) == PASS
    drawing = opened(PRESETS["domino"], boneyard=("5|5",))
    drawing.play(parse_move("4|1R"))
    assert only_move(drawing) == DRAW


def test_the_hands_forced_opening_is_the_only_move() -> None:
    r = Round.from_hands(PRESETS["domino"], [["6|6", "1|1"], ["0|0", "2|2"]], dealer=1)
    assert r.legal_moves() == (parse_move("6|6L"),)  # the highest double opens
    assert only_move(r) == parse_move("6|6L")


def test_a_choice_is_no_forced_move_nor_is_a_hand_over() -> None:
    r = Round.from_hands(BLOCK, [["6|6", "1|1"], ["6|4", "2|2"]], dealer=1)
    r.play(parse_move("6|6L"))  # 6|4 on the left or on the right: a choice
    assert len(r.legal_moves()) == 2 and only_move(r) is None
    over = Round.from_hands(BLOCK, [["6|6"], ["6|5", "3|3"]], dealer=1)
    over.play(parse_move("6|6L"))  # domino: the hand is over
    assert over.over and only_move(over) is None


def test_the_pause_never_falls_in_the_hands_first_seconds() -> None:
    assert forced_delay(60.0) == FORCED_PAUSE_SECONDS  # mid-hand: the pause alone
    assert forced_delay(0.0) == HAND_START_GRACE  # at the deal: the whole grace
    assert forced_delay(HAND_START_GRACE - 1.5) == max(1.5, FORCED_PAUSE_SECONDS)
    assert forced_delay(HAND_START_GRACE - 0.2) == FORCED_PAUSE_SECONDS  # never shorter
