"""games/models.py: what a table stores is what it plays."""

from __future__ import annotations

from games.models import Table
from tests.engine.strategies import every_table


def test_a_table_plays_the_rules_it_was_made_with_for_every_setting_offered() -> None:
    offered = every_table(targets=True)
    assert len(offered) > 10
    for rules in offered:
        assert Table(**Table.rules_fields(rules)).rules == rules, rules
