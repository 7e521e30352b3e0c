"""``{% league_panel player %}``: a player's best league finishes on their profile."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from league import selectors
from league.models import Tier

register = template.Library()


@register.inclusion_tag("league/_profile_league.html")
def league_panel(player: User) -> dict[str, Any]:
    return {
        "player": player,
        "tier_name": Tier(selectors.tier_of(user=player)).label,
        "finishes": selectors.best_finishes(user=player),
    }
