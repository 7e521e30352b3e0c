"""The fast play-out agrees with the referee (Round) move for move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Play, Round, Rules
from games.engine.playout import BLOCKED, play_out, quick_deal, random_hand, score_play_out
from games.engine.tiles import ALL_TILES

from .strategies import random_round, seeds, tables


def _greedy(r: Round) -> None:
    """The play-out's greedy policy, through the referee: the heaviest tile, left first."""
    while not r.over:
        moves = r.legal_moves()
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            r.play(moves[0])
            continue
        best = max(plays, key=lambda m: (m.tile.value, m.tile.index, m.end == "left"))
        r.play(best)


@settings(max_examples=200, deadline=None)
@given(tables, seeds, st.integers(min_value=1, max_value=30))
def test_greedy_play_out_matches_the_referee(rules: Rules, seed: int, depth: int) -> None:
    r = random_round(rules, seed, stop_after=depth)
    if r.over or r.ends is None:
        return
    hands = [r.hand_mask(s) for s in range(rules.players)]
    pile = [t.index for t in reversed(r.boneyard)]
    left, right = r.ends
    outcome = play_out(hands, left, right, r.turn, pile, rules.draw, random.random, randomness=0.0)
    _greedy(r)
    assert r.result == score_play_out(rules, hands, outcome)
    assert (outcome == BLOCKED) == (r.result is not None and r.result.reason == "blocked")


@settings(max_examples=100, deadline=None)
@given(tables, seeds)
def test_random_hands_end_with_every_tile_accounted_for(rules: Rules, seed: int) -> None:
    result = random_hand(rules, random.Random(seed))
    assert len(result.pips) == rules.players
    assert sum(result.pips) <= sum(t.value for t in ALL_TILES)


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 7), (4, 7), (4, 6), (2, 12)])
def test_quick_deal_deals_every_tile_exactly_once(players: int, size: int) -> None:
    rng = random.Random(players * 100 + size)
    for _ in range(50):
        hands, pile = quick_deal(players, size, rng.random)
        assert [h.bit_count() for h in hands] == [size] * players
        tiles = [i for h in hands for i in range(28) if h >> i & 1] + pile
        assert sorted(tiles) == list(range(28))


def test_quick_deal_gives_each_tile_to_each_seat_equally_often() -> None:
    rng = random.Random(7)
    counts = [[0] * 28 for _ in range(4)]
    deals = 4000
    for _ in range(deals):
        hands, _ = quick_deal(4, 7, rng.random)
        for seat, hand in enumerate(hands):
            for i in range(28):
                counts[seat][i] += hand >> i & 1
    # Each count is Binomial(4000, 1/4): mean 1000, sd 27; 6 sd either way.
    assert all(840 < c < 1160 for row in counts for c in row)
