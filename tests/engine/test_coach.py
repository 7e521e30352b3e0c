"""The coach: it judges a move from the player's own view only, and marks a bad one."""

from __future__ import annotations

import random
from dataclasses import replace

from games.engine import PRESETS, Play, Round, parse_move
from games.engine.bots.value import WIN_POINTS, points_per_unit
from games.engine.coach import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    mark_for,
    review_hand,
    review_move,
    seed_for,
)

from .strategies import random_round
from .test_bots import _reshuffled_twin

PAIRS = replace(PRESETS["domino"], players=4, hand_size=7)
QUICK = 150  # sampled deals per decision: enough for these positions, and quick


def test_reshuffling_the_tiles_a_player_cannot_see_changes_nothing_of_their_review() -> None:
    rng = random.Random(11)
    checked = 0
    for depth in range(6, 26, 4):
        r = random_round(PAIRS, rng.getrandbits(32), stop_after=depth)
        if r.over:
            continue
        seat = r.turn
        twin = None
        for _ in range(30):
            twin = _reshuffled_twin(r, seat, rng)
            if twin is not None and twin.hands != r.hands:
                break
        if twin is None or twin.hands == r.hands:
            continue
        assert r.view(seat) == twin.view(seat)
        # Every move this seat made so far, and the one it is about to make.
        move = r.legal_moves()[-1]
        ours = review_hand(
            PAIRS, r.initial_position, [*r.moves, move], seats=[seat], seed=3, iterations=QUICK
        )
        theirs = review_hand(
            PAIRS,
            twin.initial_position,
            [*twin.moves, move],
            seats=[seat],
            seed=3,
            iterations=QUICK,
        )
        assert ours == theirs and len(ours) >= 2
        checked += 1
    assert checked >= 3


# A duel: seat 0 holds 5|5 and 5|0 facing 5 and 0.  Laying 5|0 on the 5 leaves 0 at
# both ends: no 5 can ever come back (the only 5|0 is gone), so 5|5 is stranded for the
# rest of the hand, seat 0 can never go out and no draw can help.  5|5 first, or 5|0 on
# the 0, keeps both playable.
STRANDING = "hands=5|5,5|0/6|6,6|1,3|1,4|4 boneyard=4|1,2|1,6|3 line=5|2,2|0 turn=0 dealer=1"


def test_a_move_that_strands_a_double_is_marked_a_blunder_and_the_coach_prefers_a_good_one() -> (
    None
):
    r = Round.from_position(PRESETS["duello"], STRANDING)
    view = r.view(0)
    bad = review_move(view, parse_move("5|0L"), 0, seed=1, iterations=400)
    assert bad.mark == "blunder" and bad.loss >= BLUNDER
    assert bad.preferred in (Play("5|5", "left"), Play("5|0", "right"))
    assert bad.reason and bad.params["tile"] == str(bad.preferred.tile)
    good = review_move(view, bad.preferred, 0, seed=1, iterations=400)
    assert good.mark == "" and good.loss < INACCURACY and good.preferred is None


def test_a_forced_move_is_never_marked_and_the_analysis_reproduces_for_a_seed() -> None:
    r = random_round(PAIRS, 5)
    reviews = review_hand(PAIRS, r.initial_position, r.moves, seed=9, iterations=60)
    assert len(reviews) == len(r.moves)
    for review in reviews:
        if review.choices < 2:
            assert review.loss == 0 and review.mark == ""
    again = review_hand(PAIRS, r.initial_position, r.moves, seed=9, iterations=60)
    assert again == reviews
    one = review_hand(PAIRS, r.initial_position, r.moves, plies=[4], seed=9, iterations=60)
    assert one == [reviews[4]]


def test_marks_follow_the_thresholds() -> None:
    assert [mark_for(x) for x in (0, INACCURACY - 0.1, INACCURACY, MISTAKE, BLUNDER + 3)] == [
        "",
        "",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert seed_for("abc", 1) == seed_for("abc", 1) != seed_for("abc", 2)


def test_on_a_single_hand_table_a_loss_is_the_chance_of_winning_given_up() -> None:
    # Blocco counts only who wins the hand: stranding 5|5 still costs seat 0 many of
    # its wins (at a block the fewest pips win, and 5|5 is 10 of them).
    blocco = PRESETS["blocco"]
    position = STRANDING.replace("boneyard=4|1,2|1,6|3", "boneyard=-")
    view = Round.from_position(blocco, position).view(0)
    bad = review_move(view, parse_move("5|0L"), 0, seed=1, iterations=400)
    assert bad.mark in ("mistake", "blunder")
    assert bad.preferred in (Play("5|5", "left"), Play("5|0", "right"))
    assert review_move(view, parse_move("5|5L"), 0, seed=1, iterations=400).mark == ""
    assert points_per_unit(blocco) == WIN_POINTS / 2 and points_per_unit(PAIRS) == 1
