"""The profile's rating chart: an SVG drawn on the server and a table of the same
points for screen readers, which must agree."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from itertools import pairwise

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Table
from ratings.chart import layout
from ratings.models import Rating, RatingChange
from ratings.policy import DUEL

pytestmark = pytest.mark.django_db

SHOWN = [1500, 1579, 1530, 1561, 1611, 1596]


def test_the_layout_keeps_every_point_inside_a_round_numbered_axis() -> None:
    chart = layout([1211, 2090, 1500])
    assert [t.value for t in chart.ticks] == [1000, 1500, 2000, 2500]
    assert all(chart.ticks[-1].y <= p.y <= chart.ticks[0].y for p in chart.points)
    assert [round(chart.value_at(p.y)) for p in chart.points] == [1211, 2090, 1500]
    assert [p.x for p in layout([1500]).points] == [172.0]  # one point: in the middle


@pytest.fixture
def anna_history(make_user: Callable[..., User], anna: User) -> User:
    """anna's duel rating after five rated games (their changes as the service writes them)."""
    bruno = make_user("bruno")
    start = timezone.now() - timedelta(days=5)
    for n, (before, after) in enumerate(pairwise(SHOWN)):
        table = Table.objects.create(
            mode="online", host=bruno, preset="blocco", players=2, hand_size=7
        )
        RatingChange.objects.create(
            table=table,
            user=anna,
            seat=0,
            format=DUEL,
            outcome="win" if after > before else "loss",
            mu_before=0,
            sigma_before=1,
            mu_after=0,
            sigma_after=1,
            shown_before=before,
            shown_after=after,
            provisional_after=n < 3,
            created_at=start + timedelta(days=n),
        )
    Rating.objects.create(user=anna, format=DUEL, shown=SHOWN[-1], provisional=False, matches=5)
    return anna


def _number(text: str) -> float:
    return float(text.replace("−", "-"))


def test_the_chart_and_its_table_show_the_same_ratings(client: Client, anna_history: User) -> None:
    html = client.get(reverse("accounts:profile", args=["anna"])).content.decode()  # Italian
    figure = re.search(r'<figure class="rating-chart" id="chart-duel">(.*?)</figure>', html, re.S)
    assert figure is not None
    svg, table = figure.group(1).split("</svg>")
    # the axis as drawn: each grid line's height and its label
    ticks = [
        (float(y), _number(v))
        for y, v in re.findall(r'<text class="tick" x="[^"]+" y="([^"]+)"[^>]*>([^<]+)</text>', svg)
    ]
    (y0, v0), (y1, v1) = ticks[0], ticks[-1]
    drawn = [float(cy) for cy in re.findall(r'<circle class="point" cx="[^"]+" cy="([^"]+)"', svg)]
    read_off = [round(v0 + (y - y0) * (v1 - v0) / (y1 - y0)) for y in drawn]
    listed = [int(v) for v in re.findall(r'<td class="value" data-value="(\d+)">', table)]
    assert read_off == listed == SHOWN
    xs = [float(x) for x in re.findall(r'<circle class="point" cx="([^"]+)"', svg)]
    assert xs == sorted(xs)  # oldest on the left, as the table lists them first
    assert "1579?" in table and "1611<" in table  # provisional then settled
    assert re.findall(r"<td>([+−±][^<]*)</td>", table) == ["+79", "−49", "+31", "+50", "−15"]


def test_a_player_without_rated_games_has_no_chart(english: Client, anna: User) -> None:
    html = english.get(reverse("accounts:profile", args=["anna"])).content.decode()
    assert 'id="ratings"' in html and "rating-chart" not in html and "No rated games yet." in html
