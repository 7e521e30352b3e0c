"""A table in words in Django templates (``games.describe``):
``{{ table|table_mode }}`` and ``{{ rules|table_settings }}``."""

from __future__ import annotations

from django import template

from games.describe import describe_rules
from games.describe import table_mode as mode_of
from games.engine import Rules
from games.models import Table

register = template.Library()


@register.filter
def table_mode(table: Table) -> str:
    return mode_of(table)


@register.filter
def table_settings(rules: Rules) -> str:
    return describe_rules(rules)
