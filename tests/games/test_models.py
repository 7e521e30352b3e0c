"""games/models.py: what a table stores is what it plays."""

from __future__ import annotations

from dataclasses import replace

from games.engine import PRESETS, offered_tables
from games.models import Table


def test_a_table_plays_the_rules_it_was_made_with_for_every_setting_offered() -> None:
    offered = offered_tables(targets=True)
    assert len(offered) > 10
    for rules in offered:
        assert Table(**Table.rules_fields(rules)).rules == rules, rules


def test_a_tables_settings_are_named_as_the_rows_written_before_were() -> None:
    """Stake settings' rows were named by matchmaking's pool key: the same names, so a
    row written then is the lock of the same settings now."""
    from matchmaking.models import pool_key

    pairs = replace(PRESETS["domino"], players=4, hand_size=7, teams=True)
    assert Table.rules_key(pairs) == "domino-4p-7-draw-100"
    blocco = replace(PRESETS["blocco"], players=3, hand_size=5)
    assert Table.rules_key(blocco) == "blocco-3-5-block-single"
    for rules in offered_tables(targets=True):
        assert Table.rules_key(rules) == pool_key(rules), rules
