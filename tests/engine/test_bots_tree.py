"""The hard bot's tree search: it finds what a position offers, reads the others'
plays as the flat search does, and is reproducible."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, Round, Rules
from games.engine.bots.base import plays_of
from games.engine.bots.hard import HardBot
from games.engine.bots.knowledge import Knowledge, WorldSampler
from games.engine.bots.tree import BATCH, TreeSearch, Weight
from games.engine.bots.value import margin_scorer
from games.engine.tiles import Tile

from .strategies import random_round, seeds, tables


def test_the_tree_search_lays_the_tile_that_blocks_the_hand_and_wins_it() -> None:
    # Every 6 but 6|3 is on the line: laying 6|3 on the 3 leaves 6 at both ends,
    # the hand is blocked at once and seat 0 (3|0 and 0|0 left, 3 pips) holds
    # fewer pips than any three tiles the opponent can have.
    line = "3|4,4|6,6|6,6|5,5|1,1|6,6|2,2|0,0|6"
    r = Round.from_position(
        replace(PRESETS["luciano"], draw=False),
        f"hands=6|3,3|0,0|0/5|5,4|4,1|1 boneyard=- line={line} turn=0 dealer=1",
    )
    assert str(HardBot(seed=1, iterations=400, tree=20).choose(r.view(0))) == "6|3L"


def test_the_tree_search_is_reproducible_for_a_seed_with_fixed_iterations() -> None:
    r = random_round(PRESETS["duello"], 5, stop_after=3)
    view = r.view(r.turn)
    choices = {HardBot(seed=9, iterations=50, tree=30).choose(view) for _ in range(3)}
    assert len(choices) == 1


@settings(max_examples=40, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=40))
def test_the_tree_search_returns_a_legal_move_and_searches_every_deal_it_was_asked(
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
    # Seat 1 answered the 6|6 with 6|0.  With the deals in which it held 6|5 as
    # well weighed at nothing, no deal searched gives it 6|5; unweighed, some do.
    hands = [["6|6", "1|1", "2|1"], ["6|5", "6|0", "3|3"]]
    r = Round.from_hands(replace(PRESETS["blocco"], players=2), hands)
    r.play("6|6L")
    r.play("6|0L")
    view = r.view(0)
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
