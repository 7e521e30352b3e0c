"""The admin's live page: the figures an operator looks at first (staff only)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from monitoring import live

#: Seconds between the page's own reloads.
REFRESH = 15


def live_figures(request: HttpRequest) -> HttpResponse:
    context = {
        **admin.site.each_context(request),
        "title": "Live figures",
        "figures": live.figures(timezone.now()),
        "late": int(live.LATE.total_seconds()),
        "refresh": REFRESH,
    }
    return render(request, "monitoring/live.html", context)


live_page = admin.site.admin_view(live_figures)
