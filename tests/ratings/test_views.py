"""Where ratings are seen: the leaderboards, the end screen, the lobby, and the forms
of games that are not rated."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.services import online_table_create
from ratings.models import Rating, RatingChange
from ratings.policy import DUEL, FILLER_SKILL, PAIRS
from tests.fixtures import play_to_the_end, signed_in
from tests.stakes import DUEL as BLOCCO_DUEL

pytestmark = pytest.mark.django_db


def rated(user: User, shown: int, *, fmt: str = DUEL, provisional: bool = False) -> None:
    Rating.objects.create(user=user, format=fmt, shown=shown, provisional=provisional, matches=20)


def test_a_leaderboard_lists_settled_ratings_best_first_and_the_viewers_place(
    make_user: Callable[..., User],
) -> None:
    users = [make_user(f"p{i}") for i in range(105)]
    for i, user in enumerate(users):
        rated(user, 1400 + i)
    newcomer = make_user("newcomer")
    rated(newcomer, 2500, provisional=True)  # high, but not settled: left out
    rated(users[0], 2000, fmt=PAIRS)  # another format's board
    page = signed_in(users[2]).get(reverse("ratings:leaderboard", args=[DUEL]))
    html = page.content.decode()
    names = re.findall(r'<a href="/accounts/players/([^/]+)/">', html)
    assert len(names) == 100 and names[:2] == ["p104", "p103"] and "newcomer" not in names
    assert "You are number 103, rated 1402." in html  # below the top 100, still told
    mine = signed_in(newcomer).get(reverse("ratings:leaderboard", args=[DUEL])).content.decode()
    assert "Your rating, 2500?, is still provisional" in mine
    pairs = Client().get(reverse("ratings:leaderboard", args=[PAIRS])).content.decode()
    assert re.findall(r'<a href="/accounts/players/([^/]+)/">', pairs) == ["p0"]
    assert Client().get(reverse("ratings:leaderboard", args=["nine"])).status_code == 404


def test_the_end_screen_shows_each_persons_rating_change(make_user: Callable[..., User]) -> None:
    anna, bruno = make_user("anna"), make_user("bruno")
    table = online_table_create(rules=BLOCCO_DUEL, people=[anna, bruno])
    play_to_the_end(table)
    html = signed_in(anna).get(reverse("table", args=[table.code])).content.decode()
    shown = re.search(r'<table class="seat-notes" id="rating-changes">.*?</table>', html, re.S)
    assert shown is not None
    rows = re.findall(
        r'<th scope="row">(\w+)</th>\s*<td class="after">(\d+)\??</td>\s*'
        r'<td class="change \w+">([+−±]\d+)</td>',
        shown.group(0),
    )
    expected = {  # the viewer's own seat is "You"
        ("You" if c.user == anna else c.user.username, str(c.shown_after), _signed(c.delta))
        for c in RatingChange.objects.select_related("user")
    }
    assert set(rows) == expected and len(rows) == 2


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "±0")


def test_the_online_lobby_shows_the_players_rating_in_each_format(anna: User) -> None:
    rated(anna, 1612)
    html = signed_in(anna).get(reverse("matchmaking:lobby")).content.decode()
    assert re.findall(r'data-format="(\w+)">([\d?]+)<', html) == [
        ("duel", "1612"),
        ("free", "1500?"),
        ("pairs", "1500?"),
    ]


def test_the_pages_say_before_the_game_that_computer_and_friends_games_are_not_rated(
    english: Client,
) -> None:
    new_table = english.get(reverse("table_new") + "?mode=friends").content.decode()
    assert "Neither is rated: only online games change your rating." in new_table
    assert "Practice: not rated." in english.get(reverse("home")).content.decode()
    assert "Online games are rated" in english.get(reverse("matchmaking:lobby")).content.decode()


def test_the_league_links_to_the_leaderboards(english: Client) -> None:
    html = english.get(reverse("league:league")).content.decode()
    assert f'href="{reverse("ratings:leaderboards")}"' in html
    assert english.get(reverse("ratings:leaderboards")).url == reverse(
        "ratings:leaderboard", args=[DUEL]
    )


def test_the_rules_page_gives_the_simulated_players_fixed_ratings(english: Client) -> None:
    html = english.get(reverse("rules_index")).content.decode()
    shown = re.search(r'<span id="filler-ratings">(.*?)</span>', html, re.S)
    assert shown is not None
    levels = re.findall(r"(\w+) <strong>(\d+)</strong>", shown.group(1))
    assert levels == [(level, str(skill.shown)) for level, skill in FILLER_SKILL.items()]
