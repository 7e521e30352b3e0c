"""The hard bot's parts: what a finished hand is worth to a side, and pruning."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, Play, PlayerView, Round, Rules
from games.engine.bots.base import plays_of
from games.engine.bots.hard import HardBot, _close, _Likelihood, _survivors
from games.engine.bots.knowledge import Knowledge
from games.engine.bots.value import margin_scorer, match_scorer
from games.engine.moves import _PLAYS
from games.engine.round import BLOCKED
from games.engine.tiles import HIGH, LOW, VALUE, mask_of, parse_tiles

from .strategies import random_round, seeds, tables

PAIRS = replace(PRESETS["domino"], players=4, hand_size=7)


def masks(text: str) -> list[int]:
    return [mask_of(parse_tiles(h)) for h in text.split("/")]


def _greedy(r: Round) -> None:
    """The play-out's greedy policy, through the checked play: the heaviest tile, left first."""
    while not r.over:
        moves = r.legal_moves()
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            r.play(moves[0])
            continue
        r.play(max(plays, key=lambda m: (m.tile.value, m.tile.index, m.end == "left")))


@settings(max_examples=200, deadline=None)
@given(tables, seeds, st.integers(min_value=1, max_value=30))
def test_the_greedy_play_out_plays_the_policy_it_says_and_takes_itself_back(
    rules: Rules, seed: int, depth: int
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    if r.over or r.ends is None:
        return
    from_text = Round.from_position(rules, r.position())
    before, depth = r.position(), len(r.moves)
    r.play_out(random.random, randomness=0.0)
    _greedy(from_text)
    assert r.result == from_text.result
    assert r.position() == from_text.position()
    assert r.moves[depth:] == from_text.moves
    r.pop_to(depth)
    assert r.position() == before and len(r.moves) == depth


@settings(max_examples=100, deadline=None)
@given(tables, seeds, st.floats(min_value=0.0, max_value=1.0))
def test_a_random_play_out_ends_the_hand_with_legal_moves(
    rules: Rules, seed: int, randomness: float
) -> None:
    r = random_round(rules, seed, stop_after=1)
    if r.over:
        return
    rng = random.Random(seed)
    assert r.play_out(rng.random, randomness) == r.outcome
    assert r.over
    replayed = Round.replay(rules, r.initial_position, r.moves)  # every move checked
    assert replayed.result == r.result


def _pushed_play_out(r: Round, rnd: random.Random, randomness: float, count: float = 0.0) -> None:
    """The play-out's policy move by move through the public search API."""
    while not r.over:
        on_left, on_right = r.fitting_ends()
        fits = on_left | on_right
        if not fits:
            r.push(r.stuck_move())
            continue
        tiles = [i for i in range(28) if fits >> i & 1]
        randomly = len(tiles) > 1 and (randomness >= 1.0 or rnd.random() < randomness)
        if len(tiles) == 1:
            i, randomly = tiles[0], randomness >= 1.0
        elif randomly:
            i = tiles[int(rnd.random() * len(tiles))]
        elif count:
            i = max(tiles, key=lambda t: _counted_value(r, t, on_left, count))
        else:
            i = max(tiles, key=lambda t: (VALUE[t], t))  # the heaviest, the higher half on a tie
        both = on_left >> i & 1 and on_right >> i & 1
        left = on_left >> i & 1 and not (randomly and both and rnd.random() < 0.5)
        r.push(_PLAYS[i][0 if left else 1])


def _counted_value(r: Round, tile: int, on_left: int, count: float) -> tuple[float, int]:
    """The counting greedy move's worth: the tile's pips, less ``count`` for each tile
    the mover cannot see (not in its hand nor on the line) showing an end left open."""
    seen = r.hand_mask(r.turn) | mask_of(p.tile for p in r.line)
    r.push(_PLAYS[tile][0 if on_left >> tile & 1 else 1])
    ends = r.ends
    r.pop()
    assert ends is not None
    showing = [t for t in range(28) if not seen >> t & 1 and (HIGH[t] in ends or LOW[t] in ends)]
    return VALUE[tile] - count * len(showing), tile


@settings(max_examples=100, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=20), st.sampled_from([0.0, 0.5]))
def test_a_counting_finish_lays_the_heaviest_tile_less_what_the_others_may_follow_with(
    rules: Rules, seed: int, depth: int, randomness: float
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    twin = Round.from_position(rules, r.position())
    finished = r.finish(random.Random(seed).random, randomness, count=2.0)
    _pushed_play_out(twin, random.Random(seed), randomness, count=2.0)
    assert finished == (twin.outcome, list(twin.hand_masks()))


@settings(max_examples=150, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=20), st.sampled_from([0.0, 0.5, 1.0]))
def test_the_play_out_and_finish_make_the_moves_push_makes_with_the_same_random_numbers(
    rules: Rules, seed: int, depth: int, randomness: float
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    twin = Round.from_position(rules, r.position())
    before, position = len(r.moves), r.position()
    finished = r.finish(random.Random(seed).random, randomness)
    assert r.position() == position and len(r.moves) == before  # finished on a copy
    r.play_out(random.Random(seed).random, randomness)
    _pushed_play_out(twin, random.Random(seed), randomness)
    assert r.moves[before:] == twin.moves
    assert finished == (twin.outcome, list(twin.hand_masks()))
    assert r.position() == twin.position() and r.result == twin.result
    r.pop_to(before)  # and the play-out is taken back like pushed moves
    assert r.position() == Round.from_position(rules, twin.initial_position).position()


def test_a_partner_going_out_is_a_win_for_the_team() -> None:
    score = margin_scorer(PAIRS, seat=0, win_bonus=10)
    hands = masks("6|6/5|0/-/1|1")  # seat 2, the partner, went out
    assert score(hands, 2) == 5 + 2 + 10  # the rival pair's tiles, not ours
    assert score(hands, 1) == -(12 + 0 + 10)  # seat 1 out: it takes ours
    assert margin_scorer(PAIRS, seat=1, win_bonus=10)(hands, 2) == -(5 + 2 + 10)


def test_a_blocked_hand_is_worth_what_the_preset_scores() -> None:
    hands = masks("6|6/5|0")
    assert margin_scorer(PRESETS["duello"], 1, 10)(hands, BLOCKED) == (12 - 5) + 10  # difference
    assert margin_scorer(PRESETS["luciano"], 0, 0)(hands, BLOCKED) == -(12 - 5)
    domino = replace(PRESETS["domino"], players=2)
    assert margin_scorer(domino, 1, 10)(hands, BLOCKED) == 12 + 5 + 10  # all tiles
    assert margin_scorer(domino, 0, 10)(masks("6|1/5|2"), BLOCKED) == 0  # a tie scores nothing


def test_a_single_hand_counts_the_win_alone_and_three_players_share_a_loss() -> None:
    blocco = PRESETS["blocco"]
    assert margin_scorer(blocco, 0, 10)(masks("-/6|6"), 0) == 1
    assert margin_scorer(blocco, 1, 10)(masks("-/6|6"), 0) == -1
    three = replace(PRESETS["domino"], players=3)
    hands = masks("-/6|6/1|0")
    assert margin_scorer(three, 0, 0)(hands, 0) == 13
    assert margin_scorer(three, 1, 0)(hands, 0) == -13 / 2  # one of two opponents lost it


def test_survivors_drop_clearly_worse_candidates_and_twins() -> None:
    rng = random.Random(1)
    best = [rng.gauss(0, 10) for _ in range(48)]
    results = [
        best,
        [v - 6 for v in best],  # always 6 behind: drop
        list(best),  # the same on every deal: a twin, drop
        [v + rng.gauss(0, 10) for v in best],  # as good within the noise: keep
    ]
    assert _survivors(results, [0, 1, 2, 3], z=3.0) in ([0, 3], [3, 0])


def test_two_plays_are_close_until_one_leads_by_more_than_the_noise() -> None:
    rng = random.Random(2)
    best = [rng.gauss(0, 10) for _ in range(200)]
    noisy = [v + rng.gauss(0, 10) for v in best]
    behind = [v - 6 for v in best]
    assert _close([best, noisy], [], [0, 1], z=2.0)
    assert not _close([best, behind], [], [0, 1], z=2.0)
    assert not _close([best, behind, noisy], [1.0] * 200, [0, 1], z=2.0)  # weighed, 2 alive
    assert _close([best, behind, noisy], [1.0] * 200, [0, 2], z=2.0)
    assert not _close([best], [], [0], z=2.0)  # a single play left is settled


def one_tile_blocks_and_wins() -> PlayerView:
    """Seat 0's view where 6|3 laid on the 3 wins the hand: every other 6 is on the
    line, so it leaves 6 at both ends, the hand is blocked at once and seat 0 (3|0
    and 0|0 left, 3 pips) holds fewer pips than any three tiles the opponent can."""
    line = "3|4,4|6,6|6,6|5,5|1,1|6,6|2,2|0,0|6"
    r = Round.from_position(
        replace(PRESETS["luciano"], draw=False),
        f"hands=6|3,3|0,0|0/5|5,4|4,1|1 boneyard=- line={line} turn=0 dealer=1",
    )
    return r.view(0)


def seat_1_laid_the_light_tile() -> PlayerView:
    """Seat 0's view after seat 1 answered its 6|6 with 6|0 while it held 6|5 too."""
    hands = [["6|6", "1|1", "2|1"], ["6|5", "6|0", "3|3"]]
    r = Round.from_hands(replace(PRESETS["blocco"], players=2), hands)
    r.play("6|6L")
    r.play("6|0L")
    return r.view(0)


def test_the_search_stops_early_once_one_play_is_left() -> None:
    view = one_tile_blocks_and_wins()
    plays = plays_of(view)
    means = HardBot(seed=1, iterations=2000, prune_z=3.0).evaluate(view, plays)
    kept = [str(p) for p, m in zip(plays, means, strict=True) if m is not None]
    assert kept == ["6|3L"]


def test_a_deal_is_weighed_by_how_likely_the_others_plays_were() -> None:
    # A deal in which seat 1 also held 6|5, and laid the light tile rather than the
    # heavy one, is the less likely.
    view = seat_1_laid_the_light_tile()
    likelihood = _Likelihood(view, Knowledge.from_view(view), ratio=1.5, double=4)
    held_heavy, held_light = masks("6|6,1|1,2|1/6|5,3|3"), masks("6|6,1|1,2|1/4|3,3|3")
    ratio = likelihood.weight(held_light) / likelihood.weight(held_heavy)
    assert ratio == pytest.approx(1 + 1.5**5)  # 6|5 is 5 pips heavier than 6|0


def test_absurd_odds_fall_back_to_the_plain_mean_rather_than_divide_by_zero() -> None:
    r = random_round(PAIRS, 8, stop_after=20)
    while not r.over and len(plays_of(r.view(r.turn))) < 2:
        r.play(r.legal_moves()[0])
    assert not r.over
    view = r.view(r.turn)
    plays = plays_of(view)
    means = HardBot(seed=3, iterations=30, infer=1e30).evaluate(view, plays)
    assert all(m is not None and math.isfinite(m) for m in means)


# Match-aware evaluation ---------------------------------------------------------------------


def test_a_hand_that_reaches_the_target_is_the_match_whatever_its_points() -> None:
    duello = PRESETS["duello"]  # to 100
    win = match_scorer(duello, 0, 10, (95, 60))
    match_win = 100 + 10
    assert win(masks("-/3|0,2|0"), 0) == match_win  # 5 points: just enough
    assert win(masks("-/6|6,5|5"), 0) == match_win  # 32 points: the rest is worth nothing
    assert win(masks("-/1|0"), 0) == 1 + 10  # 1 point short: the margin, as before
    assert win(masks("6|6,6|5,5|5,4|4/-"), 1) == -match_win  # 41 points take seat 1 to 101
    assert win(masks("6|6/-"), 1) == -(12 + 10)  # 72 is not the target yet
    assert win(masks("6|1/5|2"), BLOCKED) == 0  # a tie changes nothing


def test_the_match_is_shared_among_rivals_and_a_single_hand_has_no_target() -> None:
    three = replace(PRESETS["domino"], players=3)  # to 100, "all" blocked scoring
    hands = masks("-/6|6/5|5")
    assert match_scorer(three, 1, 10, (80, 0, 0))(hands, 0) == -110 / 2  # seat 0 wins it
    assert match_scorer(three, 0, 10, (80, 0, 0))(hands, 0) == 110
    assert match_scorer(three, 0, 10, (50, 0, 0))(hands, 0) == 22 + 10
    blocco = PRESETS["blocco"]
    assert match_scorer(blocco, 0, 10, (0, 0))(masks("-/6|6"), 0) == 1  # the margin scorer's


# Every 6 but 6|3 is on the line: laying 6|3 on the 3 leaves 6 at both ends and blocks
# the hand at once, seat 0 keeping 3|3 and 5|3 (14 pips) against six hidden tiles
# (here 24 pips: a win by 10).  Keeping 6|3 for later is worth more on average
# (seat 0 may go out and take every pip), but it risks the hand.
BLOCK_NOW = (
    "hands=6|3,3|3,5|3/5|5,4|4,5|4,4|2,4|1,4|0 boneyard=- "
    "line=3|4,4|6,6|6,6|5,5|1,1|6,6|2,2|0,0|6 turn=0 dealer=1"
)


def test_one_hand_from_the_target_the_bot_takes_the_sure_win_over_the_bigger_margin() -> None:
    r = Round.from_position(replace(PRESETS["luciano"], draw=False), BLOCK_NOW)
    blocking = Play(parse_tiles("6|3")[0], "left")
    at_95_60 = r.view(0, match_scores=(95, 60))
    aware = HardBot(seed=1, iterations=300, match_aware=True)
    assert aware.pick(at_95_60, plays_of(at_95_60)) == blocking
    # Played for its margin (scores unknown, or the option off) it keeps the hand going.
    unknown = r.view(0)
    assert aware.pick(unknown, plays_of(unknown)) != blocking
    assert HardBot(seed=1, iterations=300).pick(at_95_60, plays_of(at_95_60)) != blocking
    r.play(blocking)
    assert r.result is not None and r.result.winners == (0,) and r.result.points >= 5


def test_far_from_the_target_the_match_scores_change_nothing() -> None:
    r = random_round(PAIRS, 11, stop_after=9)
    while not r.over and len(plays_of(r.view(r.turn))) < 2:
        r.play(r.legal_moves()[0])
    assert not r.over
    plays = plays_of(r.view(r.turn))
    aware = HardBot(seed=2, iterations=40, match_aware=True)
    early = aware.evaluate(r.view(r.turn, match_scores=(0, 0)), plays)
    unknown = HardBot(seed=2, iterations=40, match_aware=True).evaluate(r.view(r.turn), plays)
    assert early == unknown  # no hand can reach 100 points from 0
