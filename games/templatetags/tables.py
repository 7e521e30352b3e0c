"""A table in words in Django templates (``games.describe``):
``{{ table|table_mode }}`` and ``{{ rules|table_settings }}``; and a player's record
on their profile, ``{% record_panel player %}``."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from games.describe import describe_rules
from games.describe import table_mode as mode_of
from games.engine import Rules
from games.models import Table
from games.selectors import player_record

register = template.Library()


@register.filter
def table_mode(table: Table) -> str:
    return mode_of(table)


@register.filter
def table_settings(rules: Rules) -> str:
    return describe_rules(rules)


@register.inclusion_tag("games/_profile_record.html")
def record_panel(player: User) -> dict[str, Any]:
    """A player's finished games on their profile: in all, and per mode and preset."""
    record = player_record(user=player)
    return {
        "record": record,
        "played": sum(r.played for r in record),
        "won": sum(r.won for r in record),
    }
