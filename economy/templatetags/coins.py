"""``{% coins_panel player %}``: a player's coins on their own profile page;
``{% header_coins user %}``: their balance in every page's header."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import header
from accounts.models import User
from economy import selectors

register = template.Library()


@register.inclusion_tag("economy/_profile_coins.html", takes_context=True)
def coins_panel(context: dict[str, Any], player: User) -> dict[str, Any]:
    """Balance and last movements, shown to the player only (nobody else's business)."""
    viewer = context.get("user")
    own = isinstance(viewer, User) and viewer.pk == player.pk and not player.is_guest
    if not own:
        return {"own": False}
    return {
        "own": True,
        "balance": selectors.balance_of(user=player),
        "lines": selectors.last_transfers(user=player, limit=5),
    }


@register.inclusion_tag("economy/_header_coins.html")
def header_coins(user: object) -> dict[str, Any]:
    """The signed-in player's coins (``accounts.header``); nothing for guests
    and visitors (the header offers them to save their account or sign up)."""
    if not isinstance(user, User) or not user.is_authenticated or user.is_guest:
        return {"balance": None}
    return {"balance": header.figure(user, "coins")}
