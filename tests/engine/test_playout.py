"""The fast play-out agrees with the referee (Round) move for move."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Play, Round, Rules
from games.engine.playout import BLOCKED, play_out, random_hand, score_play_out
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
