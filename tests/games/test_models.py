"""games/models.py: what a table stores is what it plays."""

from __future__ import annotations

from dataclasses import replace

from games.engine import PRESET_OPTIONS, PRESETS, Rules
from games.models import Table


def _every_table_offered() -> list[Rules]:
    offered = []
    for preset, options in PRESET_OPTIONS.items():
        for seating in options.seatings:
            for hand_size in seating.hand_sizes:
                for draw in options.draw_choices:
                    for target in options.targets:
                        offered.append(
                            replace(
                                PRESETS[preset],
                                players=seating.players,
                                teams=True
                                if seating.pairs
                                else (False if seating.players == 4 else None),
                                hand_size=hand_size,
                                draw=draw,
                                target=target,
                            )
                        )
    return offered


def test_a_table_plays_the_rules_it_was_made_with_for_every_setting_offered() -> None:
    offered = _every_table_offered()
    assert len(offered) > 10
    for rules in offered:
        assert Table(**Table.rules_fields(rules)).rules == rules, rules
