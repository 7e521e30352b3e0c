"""``{% ratings_panel player %}`` (the profile: each format's rating, record and chart),
``{% your_ratings user %}`` (the online lobby: the player's rating per format) and
``{% rating_rules %}`` (how ratings work, with the simulated players' fixed ratings:
the rules and the leaderboards)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from games.models import BotLevel
from ratings import selectors
from ratings.chart import layout
from ratings.policy import FILLER_SKILL, PROVISIONAL_SIGMA, SCALE

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


@register.inclusion_tag("ratings/_rules.html")
def rating_rules() -> dict[str, Any]:
    return {
        "provisional_points": round(PROVISIONAL_SIGMA * SCALE),
        "fillers": [(BotLevel(level).label, skill.shown) for level, skill in FILLER_SKILL.items()],
    }
