"""Money where it matters: a stake table shows its stake and pot, the end screen says
what the match paid this player (and only this player), a cancelled table says the
stake is back, "another table at this stake" sits the player again, and the header
shows a signed-in player's coins."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import Client

from accounts.models import User
from deadlines.services import run_due
from economy import numbers
from economy.models import Entry, XpAward
from economy.services import shop_buy
from games import services
from games.engine import PRESETS
from games.kinds import STAKE_FILL
from games.models import SeatResult, Table
from games.services.online import Filler
from games.services.stakes import stake_table_sit
from league.models import Entry as LeagueEntry
from tests.fixtures import play_to_the_end, signed_in

from .conftest import balance, top_up

pytestmark = pytest.mark.django_db

DUEL = PRESETS["blocco"]  # two players, one hand: a match is quick to finish


def rich(make_user: Callable[..., User], name: str, coins: int = 1000) -> User:
    user = make_user(name)
    if coins != balance(user):
        top_up(user, coins - balance(user))
    return user


def decided_stake_match(
    make_user: Callable[..., User], stake: int = 100
) -> tuple[Table, User, User]:
    """A finished 2-player stake match with a winner (a drawn hand is tried again):
    (table, winner, loser)."""
    for attempt in range(10):
        anna = rich(make_user, f"anna{attempt}")
        bruno = rich(make_user, f"bruno{attempt}")
        table = stake_table_sit(user=anna, rules=DUEL, stake=stake)
        stake_table_sit(user=bruno, rules=DUEL, stake=stake)
        play_to_the_end(table, seed=attempt)
        ranks = dict(SeatResult.objects.filter(table=table).values_list("user_id", "rank"))
        if ranks[anna.pk] != ranks[bruno.pk]:
            return (table, anna, bruno) if ranks[anna.pk] == 1 else (table, bruno, anna)
    raise AssertionError("ten drawn hands in a row")


def region(html: str, name: str) -> str:
    """A region of the page, its white space collapsed."""
    start = html.index(f'id="{name}"')
    return re.sub(r"\s+", " ", html[start : html.index("</section>", start)])


def test_a_stake_table_shows_its_stake_and_pot_in_the_title_and_the_header(
    make_user: Callable[..., User],
) -> None:
    anna, bruno = rich(make_user, "anna"), rich(make_user, "bruno")
    table = stake_table_sit(user=anna, rules=DUEL, stake=250)
    waiting = signed_in(anna).get(f"/t/{table.code}/").content.decode()
    assert "Stake 250 · pot 250 · Domino" in waiting  # only anna has paid so far
    stake_table_sit(user=bruno, rules=DUEL, stake=250)
    html = signed_in(anna).get(f"/t/{table.code}/").content.decode()
    head = region(html, "table-head")
    assert re.search(r'data-title="[^"]*Stake 250 · pot 500', head)
    assert "Stake <strong>250</strong> · pot <strong>500</strong>" in head
    assert "<title>Stake 250 · pot 500 · Domino</title>" in html
    friendly = services.online_table_create(
        rules=DUEL, people=[make_user("carla")], fillers=[Filler("ugo", "easy")]
    )
    other = signed_in(anna).get(f"/t/{friendly.code}/").content.decode()
    assert "stake-pot" not in other and "pot " not in region(other, "table-head")


def test_the_winner_of_a_stake_match_reads_plus_the_pot_and_the_loser_nothing_false(
    make_user: Callable[..., User],
) -> None:
    table, winner, loser = decided_stake_match(make_user)
    assert balance(winner) == 1100 and balance(loser) == 900
    won = region(signed_in(winner).get(f"/t/{table.code}/").content.decode(), "status")
    assert '<strong class="amount">+200</strong>' in won
    assert "You won 200 coins from the pot." in won
    lost = region(signed_in(loser).get(f"/t/{table.code}/").content.decode(), "status")
    assert "You won" not in lost and "+200" not in lost and "back in your wallet" not in lost
    # the loser's own XP and league points, as recorded; nothing of the winner's
    xp = XpAward.objects.get(table=table, user=loser).amount
    points = LeagueEntry.objects.get(table=table, user=loser).points
    assert f'<strong class="amount">+{xp}</strong> XP' in lost
    assert f'<strong class="amount">+{points}</strong> league points' in lost
    winner_xp = XpAward.objects.get(table=table, user=winner).amount
    assert winner_xp != xp and f"+{winner_xp}</strong>" not in lost
    # stake tables pay no coins from the house: no "coins" line besides the pot
    assert "payout coins" not in won and "payout coins" not in lost
    watcher = signed_in(make_user("carla")).get(f"/t/{table.code}/").content.decode()
    assert 'id="payouts"' not in watcher  # a spectator sees nobody's earnings


def test_a_cancelled_stake_table_says_the_coins_are_back(make_user: Callable[..., User]) -> None:
    anna = rich(make_user, "anna")
    table = stake_table_sit(user=anna, rules=DUEL, stake=500)
    assert balance(anna) == 500
    deadline = table.deadlines.get(kind=STAKE_FILL)
    run_due(now=deadline.due_at + timedelta(seconds=1))
    html = signed_in(anna).get(f"/t/{table.code}/").content.decode()
    lobby = region(html, "lobby")
    assert "This table was cancelled." in lobby
    assert "Your 500 coins are back in your wallet." in lobby
    assert balance(anna) == 1000
    assert 'id="sit-again"' in lobby and "Another table at 500 coins" in lobby


def sit_again_form(html: str) -> dict[str, str]:
    form = html[html.index('class="inline sit-again"') : html.index('id="sit-again"')]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


def test_another_table_at_this_stake_sits_the_player_once_with_the_same_settings(
    make_user: Callable[..., User],
) -> None:
    pairs = replace(PRESETS["blocco"], players=4, hand_size=7, teams=True)
    people = [rich(make_user, f"p{n}") for n in range(4)]
    table = None
    for person in people:
        table = stake_table_sit(user=person, rules=pairs, stake=250)
    assert table is not None
    play_to_the_end(table, seed=5)
    anna = people[0]
    before = balance(anna)
    client = signed_in(anna)
    form = sit_again_form(client.get(f"/t/{table.code}/").content.decode())
    assert form["stake"] == "250" and form["seating"] == "4p" and form["target"] == "single"
    answers = [client.post("/coins/stakes/sit/", form, HTTP_HX_REQUEST="true") for _ in range(2)]
    new = Table.objects.get(stake=250, status=Table.Status.WAITING)
    assert [a["HX-Redirect"] for a in answers] == [f"/t/{new.code}/"] * 2  # a double click
    assert balance(anna) == before - 250  # paid once
    assert (new.preset, new.players, new.teams, new.hand_size, new.draw, new.target) == (
        table.preset,
        table.players,
        table.teams,
        table.hand_size,
        table.draw,
        table.target,
    )
    assert new.seats.filter(user=anna).exists()
    # another player's button is their own: it does not return anna's sit
    bruno_form = sit_again_form(signed_in(people[1]).get(f"/t/{table.code}/").content.decode())
    assert bruno_form["token"] != form["token"]


def online_match(
    make_user: Callable[..., User], *, fillers: int = 0, booster: bool = False
) -> tuple[Table, list[User]]:
    """A finished online blocco duel between people (and simulated players)."""
    for attempt in range(10):
        people = [make_user(f"o{attempt}_{n}") for n in range(2 - fillers)]
        if booster:
            shop_buy(user=people[0], item="gold", token=uuid.uuid4())
        table = services.online_table_create(
            rules=DUEL,
            people=people,
            fillers=[Filler(f"sim{attempt}", "easy") for _ in range(fillers)],
        )
        play_to_the_end(table, seed=attempt)
        ranks = set(SeatResult.objects.filter(table=table).values_list("rank", flat=True))
        if ranks == {1, 2}:
            return table, people
    raise AssertionError("ten drawn hands in a row")


def test_the_end_of_an_online_match_shows_coins_xp_with_the_boosters_share_and_league_points(
    make_user: Callable[..., User],
) -> None:
    table, (anna, bruno) = online_match(make_user, booster=True)
    rank = SeatResult.objects.get(table=table, user=anna).rank
    coins = Entry.objects.get(transfer__key=f"reward:{table.pk}:{anna.pk}", amount__gt=0).amount
    xp = XpAward.objects.get(table=table, user=anna).amount
    base_coins, base_xp = numbers.ONLINE_COINS["2"][rank - 1], numbers.ONLINE_XP["2"][rank - 1]
    assert coins == base_coins * numbers.GOLD_BOOSTER_PERCENT // 100  # the booster paid
    status = region(signed_in(anna).get(f"/t/{table.code}/").content.decode(), "status")
    share = coins - base_coins
    assert (
        f'<strong class="amount">+{coins}</strong> coins (of which +{share} from your booster)'
        in status
    )
    assert (
        f'<strong class="amount">+{xp}</strong> XP (of which +{xp - base_xp} from your booster)'
        in status
    )
    points = numbers.LEAGUE_POINTS["2"][rank - 1]
    assert f'<strong class="amount">+{points}</strong> league points' in status
    assert "counted half" not in status
    assert 'id="play-online-again"' in status  # an online table's way back, as before
    theirs = region(signed_in(bruno).get(f"/t/{table.code}/").content.decode(), "status")
    assert "booster" not in theirs  # bruno has none, and anna's is not his to see
    bruno_rank = SeatResult.objects.get(table=table, user=bruno).rank
    assert f"+{numbers.ONLINE_COINS['2'][bruno_rank - 1]}</strong> coins" in theirs


def test_league_points_from_a_room_with_simulated_players_say_they_counted_half(
    make_user: Callable[..., User],
) -> None:
    table, (anna,) = online_match(make_user, fillers=1)
    entry = LeagueEntry.objects.get(table=table, user=anna)
    assert entry.halved
    status = region(signed_in(anna).get(f"/t/{table.code}/").content.decode(), "status")
    assert (
        f'<strong class="amount">+{entry.points}</strong> league points '
        "(counted half: the room had simulated players)"
    ) in status


def test_the_end_screen_speaks_italian(make_user: Callable[..., User]) -> None:
    table, winner, _loser = decided_stake_match(make_user)
    client = Client()
    client.force_login(winner)
    html = client.get(f"/t/{table.code}/").content.decode()
    assert "Hai vinto 200 monete dal piatto." in html
    assert "Posta <strong>100</strong> · piatto <strong>200</strong>" in html


def test_the_header_shows_a_signed_in_players_coins_and_nothing_to_guests(
    make_user: Callable[..., User], client: Client
) -> None:
    anna = rich(make_user, "anna", 1234)
    html = signed_in(anna).get("/").content.decode()
    assert re.search(r'id="header-coins"[^>]*>1234 coins</a>', html)
    guest = make_user("guest", guest=True)
    client.force_login(guest)
    client.cookies["django_language"] = "en"
    as_guest = client.get("/").content.decode()
    assert 'id="header-coins"' not in as_guest and "Save your account" in as_guest
    assert 'id="header-coins"' not in Client().get("/").content.decode()  # a visitor
