"""Hypothesis strategies: every table the presets offer, and random legal play."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import strategies as st

from games.engine import PRESET_OPTIONS, PRESETS, Round, Rules


def every_table(*, targets: bool = False) -> list[Rules]:
    """Every table the presets offer: each seating, tiles each and draw choice, at the
    preset's own target (``targets``: at every target it offers too)."""
    tables = []
    for name, options in PRESET_OPTIONS.items():
        for seating in options.seatings:
            for size in seating.hand_sizes:
                for draw in options.draw_choices:
                    table = replace(
                        PRESETS[name],
                        players=seating.players,
                        hand_size=size,
                        teams=seating.pairs,
                        draw=draw,
                    )
                    if targets:
                        tables.extend(replace(table, target=t) for t in options.targets)
                    else:
                        tables.append(table)
    return tables


EVERY_TABLE = every_table()
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
