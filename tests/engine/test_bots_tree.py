"""The hard bot's tree search: it finds what a position offers, reads the others'
plays as the flat search does, and is reproducible."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, Rules
from games.engine.bots.base import plays_of
from games.engine.bots.hard import HardBot
from games.engine.bots.knowledge import Knowledge, WorldSampler
from games.engine.bots.tree import BATCH, TreeSearch, Weight
from games.engine.bots.value import margin_scorer
from games.engine.tiles import Tile

from .strategies import random_round, seeds, tables
from .test_bots_hard import one_tile_blocks_and_wins, seat_1_laid_the_light_tile


def test_the_tree_search_lays_the_tile_that_blocks_the_hand_and_wins_it() -> None:
    view = one_tile_blocks_and_wins()
    assert str(HardBot(seed=1, iterations=400, tree=20).choose(view)) == "6|3L"


def test_the_tree_search_is_reproducible_for_a_seed_with_fixed_iterations() -> None:
    r = random_round(PRESETS["duello"], 5, stop_after=3)
    view = r.view(r.turn)
    choices = {HardBot(seed=9, iterations=50, tree=30).choose(view) for _ in range(3)}
    assert len(choices) == 1


@settings(max_examples=40, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=40))
def test_the_tree_search_returns_a_legal_move_and_leaves_the_real_position_alone(
    rules: Rules, seed: int, depth: int
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    if r.over:
        return
    view = r.view(r.turn)
    before = r.position
    move = HardBot(seed=seed, iterations=40, tree=30).choose(view)
    assert move in view.legal_moves
    assert r.position == before  # the search worked on deals of its own


def test_deals_are_drawn_in_proportion_to_how_likely_the_others_plays_were() -> None:
    # With the deals in which seat 1 held 6|5 as well weighed at nothing, no deal
    # searched gives it 6|5; unweighed, some do.
    view = seat_1_laid_the_light_tile()
    heavy = Tile.parse("6|5").bit

    def deals_drawn(weight: Weight | None) -> list[list[int]]:
        search = TreeSearch(
            view,
            plays_of(view),
            score=margin_scorer(view.rules, 0, 10.0),
            weight=weight,
            exploration=20.0,
            randomness=0.5,
            count=0.0,
            rng=random.Random(3),
            sampler=WorldSampler(Knowledge.from_view(view)),
        )
        return [hands for _ in range(20) for hands, _ in search._draw()]

    weighed = deals_drawn(lambda hands: 0.0 if hands[1] & heavy else 1.0)
    assert len(weighed) == 20 * BATCH and not any(hands[1] & heavy for hands in weighed)
    assert any(hands[1] & heavy for hands in deals_drawn(None))
