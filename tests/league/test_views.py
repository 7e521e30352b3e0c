"""The league page: the viewer's division this week, their own row even far down,
last week's final table, the numbers; the profile's best finishes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from economy import numbers
from league import services
from league.models import Entry, Finish, Member, Tier
from league.selectors import current_week

AddPoints = Callable[..., Entry]


@pytest.fixture
def crowd(make_user: Callable[..., User], add_points: AddPoints) -> list[User]:
    """30 Bronze players this week, ``p00`` first with 300 points down to ``p29`` with 10."""
    now = timezone.now()
    users = [make_user(f"p{i:02d}") for i in range(30)]
    for i, user in enumerate(users):
        add_points(user, 300 - 10 * i, now - timedelta(seconds=i))
    return users


def names(html: str, table_id: str) -> list[str]:
    part = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    return [chunk.split("</a>", 1)[0] for chunk in part.split('/">')[1:]]


def test_the_viewer_sees_the_top_and_their_own_row_highlighted_far_down(
    english: Client, crowd: list[User]
) -> None:
    english.force_login(crowd[24])
    html = english.get("/league/").content.decode()
    shown = names(html, "this-week")
    assert shown == [f"p{i:02d}" for i in [*range(10), 22, 23, 24, 25, 26]]
    assert html.count('<tr class="me') == 1 and 'aria-current="true"' in html
    assert '<tr class="gap">' in html
    assert "You are number 25 of 30, with 60 points." in html
    assert "As things stand you go" not in html  # Bronze: nobody goes down


def test_the_page_shows_the_viewer_s_division_only(
    english: Client, crowd: list[User], make_user: Callable[..., User], add_points: AddPoints
) -> None:
    gold = make_user("goldie")
    Member.objects.create(user=gold, tier=Tier.GOLD)
    add_points(gold, 50, timezone.now())
    english.force_login(gold)
    html = english.get("/league/").content.decode()
    assert names(html, "this-week") == ["goldie"]
    assert "Gold: this week" in html
    other = english.get(f"/league/?division={Tier.BRONZE}").content.decode()
    assert names(other, "this-week")[:2] == ["p00", "p01"]
    wrong = english.get("/league/?division=9").content.decode()  # no such division: yours
    assert names(wrong, "this-week") == ["goldie"]


def test_last_week_s_final_table_is_shown_once_the_week_closed(
    english: Client, make_user: Callable[..., User], add_points: AddPoints
) -> None:
    last = current_week().previous
    winner, other = make_user("winner"), make_user("other")
    add_points(winner, 120, last.starts_at + timedelta(hours=5))
    add_points(other, 30, last.starts_at + timedelta(hours=6))
    html = english.get("/league/").content.decode()
    assert "No week has closed yet" in html
    services.ensure_week_deadline(now=last.starts_at)
    from deadlines.services import run_due

    assert run_due(now=last.ends_at) == 1
    english.force_login(other)
    html = english.get("/league/").content.decode()
    assert "Bronze: last week's final table" in html
    assert names(html, "last-week-table") == ["winner", "other"]
    assert f"+{numbers.LEAGUE_PRIZES[0][0]}" in html
    english.force_login(winner)  # gone up to Silver: last week's table is still Bronze's
    html = english.get("/league/").content.decode()
    assert "Silver: this week" in html and "Bronze: last week's final table" in html
    assert names(html, "last-week-table") == ["winner", "other"]


def test_the_numbers_are_on_the_page_in_italian_by_default(client: Client, db: None) -> None:
    html = client.get("/league/").content.decode()
    assert "Lega settimanale" in html
    assert " · ".join(map(str, numbers.LEAGUE_POINTS["4"])) in html
    assert "40 · 25 · 15 · 5" in html and "20 · 12 · 7 · 2" in html  # and halved
    assert " · ".join(map(str, numbers.LEAGUE_PRIZES[Tier.DIAMOND])) in html
    assert f"conta il {numbers.LEAGUE_SIMULATED_PERCENT} per cento" in html
    assert f"i primi {numbers.LEAGUE_PROMOTED} di ogni divisione" in html
    assert "Diamante" in html and "Bronzo" in html
    assert "La Lega è per gli account salvati" in html  # a visitor is asked to join


def test_the_profile_shows_the_player_s_best_finishes(
    english: Client, make_user: Callable[..., User], add_points: AddPoints
) -> None:
    champ = make_user("champ")
    week = current_week().previous.previous
    add_points(champ, 100, week.starts_at + timedelta(hours=1))
    add_points(champ, 100, week.next.starts_at + timedelta(hours=1))
    services.ensure_week_deadline(now=week.starts_at)
    from deadlines.services import run_due

    run_due(now=week.next.ends_at)
    run_due(now=week.next.ends_at)
    assert Finish.objects.filter(user=champ).count() == 2
    html = english.get("/accounts/players/champ/").content.decode()
    assert "Division: Gold." in html
    first, second = html.split('id="league-finishes"')[1].split("<li>")[1:3]
    assert f"Number 1 in Silver, week {week.next.key}" in first
    assert f"Number 1 in Bronze, week {week.key}" in second


def test_operators_see_the_league_read_only_in_the_admin(
    client: Client, make_user: Callable[..., User], add_points: AddPoints
) -> None:
    boss = make_user("boss")
    User.objects.filter(pk=boss.pk).update(is_staff=True, is_superuser=True)
    add_points(boss, 10, timezone.now())
    client.force_login(boss)
    for model in ("leagueweek", "member", "entry", "finish"):
        assert client.get(f"/admin/league/{model}/").status_code == 200
    assert client.get("/admin/league/entry/add/").status_code == 403
