"""The standings say, per player, how many of their points came from rooms with
simulated players (counted half, docs/rules.md §7)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from league import services
from league.models import Entry
from league.selectors import current_week, last_closed_week

from .conftest import Finished

pytestmark = pytest.mark.django_db


def row_of(html: str, table_id: str, name: str) -> str:
    table = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    row = next(r for r in table.split("<tr") if f">{name}</a>" in r)
    return re.sub(r"\s+", " ", row)


def test_each_players_halved_points_are_shown_beside_their_total(
    english: Client, make_user: Callable[..., User], finished: Finished
) -> None:
    anna, bruno = make_user("anna"), make_user("bruno")
    finished([anna, bruno], [1, 2])  # people only: 20 and 5, whole
    finished([anna, None], [1, 2], fillers=1)  # a simulated player: 10 for anna, halved
    finished([None, bruno], [1, 2], fillers=1)  # bruno second: 2, halved
    assert sorted(Entry.objects.filter(user=anna).values_list("points", "halved")) == [
        (10, True),
        (20, False),
    ]
    english.force_login(anna)
    html = english.get("/league/").content.decode()
    anna_row, bruno_row = row_of(html, "this-week", "anna"), row_of(html, "this-week", "bruno")
    assert (
        '<td>30<br><small class="halved">of which 10 from rooms with simulated players' in anna_row
    )
    assert "of which 2 from rooms with simulated players" in bruno_row
    carla = make_user("carla")
    finished([carla, make_user("dario")], [1, 2])
    carla_row = row_of(english.get("/league/").content.decode(), "this-week", "carla")
    assert "simulated" not in carla_row  # nothing halved: nothing said


def test_last_weeks_final_table_shows_the_halved_points_too(
    english: Client, make_user: Callable[..., User], finished: Finished
) -> None:
    anna = make_user("anna")
    last_week: datetime = current_week().starts_at - timedelta(days=2)
    finished([anna, None], [1, 2], fillers=1, at=last_week)
    finished([anna, None], [1, 2], fillers=1, at=last_week + timedelta(hours=1))
    services.close_week(week=current_week().previous, now=timezone.now())
    assert last_closed_week() is not None
    english.force_login(anna)
    html = english.get("/league/").content.decode()
    assert "of which 20 from rooms with simulated players" in row_of(
        html, "last-week-table", "anna"
    )
