"""Hypothesis strategies: every table the presets offer, and random legal play."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.engine import Round, Rules, offered_tables

EVERY_TABLE = offered_tables()
tables = st.sampled_from(EVERY_TABLE)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_round(rules: Rules, seed: int, stop_after: int | None = None) -> Round:
    """A dealt round played at random, to the end or for ``stop_after`` moves."""
    rng = random.Random(seed)
    r = Round.deal(rules, rng=rng, dealer=rng.randrange(rules.players))
    count = 0
    while not r.over and (stop_after is None or count < stop_after):
        r.play(rng.choice(r.legal_moves()))
        count += 1
    return r
