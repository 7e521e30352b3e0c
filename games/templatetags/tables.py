"""A table in words in Django templates (``games.describe``):
``{{ table|table_mode }}`` and ``{{ rules|table_settings }}``; and a player's record
and finished games on their profile, ``{% record_panel player %}`` and
``{% history_panel player %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from accounts.models import User
from games.describe import table_mode as mode_of
from games.engine import Rules, Tile
from games.history.selectors import finished_games, past_games
from games.models import Table
from games.selectors import player_record
from games.view.drawing import small_tile
from games.view.presets import describe_rules

register = template.Library()


@register.filter
def table_mode(table: Table) -> str:
    return mode_of(table)


@register.filter
def table_settings(rules: Rules) -> str:
    return describe_rules(rules)


@register.filter
def small_tiles(tiles: tuple[str, ...]) -> SafeString:
    """Tiles by their text (``"6|4"``), drawn small (the page needs ``tile_sprite``)."""
    return SafeString("".join(small_tile(Tile.parse(t)) for t in tiles))


@register.filter
def index(items: tuple[Any, ...], at: int) -> Any:
    return items[at]


@register.inclusion_tag("games/_profile_history.html", takes_context=True)
def history_panel(context: template.Context, player: User) -> dict[str, Any]:
    """A player's finished games, newest first, a page at a time (``?games=2``)."""
    request = context.get("request")
    page = finished_games(user=player, page=request.GET.get("games") if request else 1)
    return {"page": page, "games": past_games(page), "player": player}


@register.inclusion_tag("games/_profile_record.html")
def record_panel(player: User) -> dict[str, Any]:
    """A player's finished games on their profile: in all, and per mode and preset."""
    record = player_record(user=player)
    return {
        "record": record,
        "played": sum(r.played for r in record),
        "won": sum(r.won for r in record),
    }
