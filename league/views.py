"""The league page: this week's table of a division, last week's final one, the numbers."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from economy import numbers

from . import rules, selectors, services
from .models import Tier


def _viewer(request: HttpRequest) -> User | None:
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def _chosen_tier(request: HttpRequest, default: int) -> int:
    """``?division=2`` shows another division; anything else shows the viewer's own."""
    raw = request.GET.get("division", "")
    return int(raw) if raw.isdigit() and int(raw) in Tier.values else default


def league(request: HttpRequest) -> HttpResponse:
    viewer = _viewer(request)
    viewer_id = viewer.pk if viewer else None
    own_tier = selectors.tier_of(user=viewer)
    tier = _chosen_tier(request, own_tier)
    week = selectors.current_week()
    rows = selectors.standings(week=week, tier=tier)
    last = selectors.last_closed_week()
    # Last week's table: of the division the viewer finished in, unless they chose one.
    finished_in = selectors.finish_tier(week=last, user=viewer) if last else None
    last_tier = tier if finished_in is None or "division" in request.GET else finished_in
    last_rows = selectors.final_table(week=last, tier=last_tier) if last else []
    context = {
        "week": week,
        "tier": Tier(tier),
        "own_tier": Tier(own_tier),
        "tiers": list(reversed(Tier)),
        "rows": selectors.visible_rows(rows, viewer_id=viewer_id),
        "ranked": len(rows),
        "me": next((r for r in rows if r.user_id == viewer_id), None),
        "last": last,
        "last_tier": Tier(last_tier),
        "last_rows": selectors.visible_rows(last_rows, viewer_id=viewer_id),
        "may_enter": services.player_may_enter(user=viewer),
        "points_rows": selectors.points_rows(),
        "division_rows": selectors.division_rows(),
        "numbers": numbers,
        "lowest": Tier(rules.LOWEST),
    }
    return render(request, "league/league.html", context)
