"""Pages: the leaderboards, one per format."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts.guests import viewer

from .models import Format
from .policy import DUEL
from .selectors import TOP, leaderboard


def leaderboards(request: HttpRequest) -> HttpResponse:
    return redirect("ratings:leaderboard", DUEL)


def leaderboard_page(request: HttpRequest, format: str) -> HttpResponse:
    if format not in Format.values:
        raise Http404("no such format")
    board = leaderboard(format=format, viewer=viewer(request))
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "board": board,
            "formats": Format.choices,
            "top": TOP,
        },
    )
