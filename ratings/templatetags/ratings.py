"""``{% ratings_panel player %}`` (the profile: each format's rating, record and chart)
and ``{% your_ratings user %}`` (the online lobby: the player's rating per format)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from ratings import selectors
from ratings.chart import layout

register = template.Library()


@register.inclusion_tag("ratings/_profile_ratings.html")
def ratings_panel(player: User) -> dict[str, Any]:
    formats = []
    for rating in selectors.ratings_of(user=player):
        points = selectors.history(user=player, format=rating.format)
        chart = layout([p.shown for p in points]) if len(points) > 1 else None
        formats.append({"rating": rating, "points": points, "chart": chart})
    return {"player": player, "formats": formats}


@register.inclusion_tag("ratings/_your_ratings.html")
def your_ratings(user: User | None) -> dict[str, Any]:
    return {"ratings": selectors.ratings_of(user=user)}
