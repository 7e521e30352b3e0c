"""Exporting an account's data (privacy.export): one JSON download holding exactly the
player's own rows: the profile, every table they sit or sat at (with the record of
a finished match), every entry on their wallet, their purchases and XP, and their
league weeks; nobody else's."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from economy.models import Entry, XpAward
from economy.services.shop import shop_buy
from games import services
from games.engine import Match
from games.models import Seat
from games.services.stakes import stake_table_sit
from league.models import Entry as LeagueEntry
from privacy.export import account_export
from tests.fixtures import DUELLO, version_of
from tests.fixtures import play_to_the_end as play_friends_to_the_end
from tests.stakes import DUEL, play_to_the_end, rich  # noqa: F401  (rich: a fixture)

pytestmark = pytest.mark.django_db


def test_the_export_holds_exactly_the_players_own_rows(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna, bruno, carla = rich("anna"), rich("bruno"), rich("carla")
    anna.email = "anna@example.org"
    anna.save()
    staked = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    play_to_the_end(staked)
    waiting = stake_table_sit(user=carla, rules=DUEL, stake=250)  # nobody else's table
    stake_table_sit(user=anna, rules=DUEL, stake=250)  # anna sits with carla: it starts
    waiting.refresh_from_db()

    data = account_export(user=anna)

    assert data["profile"]["username"] == "anna" and data["profile"]["email"] == "anna@example.org"
    assert data["profile"]["forced_moves_played_for_me"] is True  # the choices she made
    assert data["profile"]["table_as_text"] is False
    tables = sorted(g["table"] for g in data["games"])
    assert tables == sorted(Seat.objects.filter(user=anna).values_list("table__code", flat=True))
    assert len(tables) == 2
    [done] = [g for g in data["games"] if g["table"] == staked.code]
    assert done["status"] == "finished" and done["result"]["rank"] in (1, 2)
    assert done["players"] == ["anna", "bruno"] and done["stake"] == 100
    assert Match.from_record(done["record"]).over  # the engine reads it back
    [running] = [g for g in data["games"] if g["table"] == waiting.code]
    assert running["record"] is None and running["result"] is None
    mine = sorted(Entry.objects.filter(account__user=anna).values_list("amount", flat=True))
    assert sorted(t["coins"] for t in data["coins"]["transfers"]) == mine
    assert {t["reason"] for t in data["coins"]["transfers"]} >= {"signup", "stake"}
    assert len(data["xp"]) == XpAward.objects.filter(user=anna).count()
    assert [m["table"] for m in data["league"]["matches"]] == list(
        LeagueEntry.objects.filter(user=anna).values_list("table__code", flat=True)
    )
    assert len(data["league"]["matches"]) == 1 and data["league"]["division"]
    text = json.dumps(data)
    assert "carla" in text  # her name, as the running table's players show it ...
    assert "bruno@" not in text and '"username": "bruno"' not in text  # ... nothing more


def test_purchases_are_in_the_export(rich: Callable[[str], User]) -> None:  # noqa: F811
    anna = rich("anna", 5000)
    shop_buy(user=anna, item="gold", token=uuid.uuid4())
    [bought] = account_export(user=anna)["coins"]["purchases"]
    assert bought["item"] == "gold" and bought["price"] > 0


def test_the_download_is_one_json_file_for_the_signed_in_player(anna: User) -> None:
    assert Client().get(reverse("privacy:export")).status_code == 302  # to log in
    client = Client()
    client.force_login(anna)
    answer = client.get(reverse("privacy:export"))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json; charset=utf-8"
    assert answer["Content-Disposition"].startswith('attachment; filename="domino-account-')
    assert "no-cache" in answer["Cache-Control"] or "no-store" in answer["Cache-Control"]
    data = json.loads(answer.content)
    assert data["format"] == "domino-account-export/1" and data["profile"]["username"] == "anna"


def test_a_guest_exports_their_games_too(make_user: Callable[..., User], anna: User) -> None:
    guest = make_user("guest-77", guest=True)
    table = services.table_create(host=anna, mode="friends", rules=DUELLO)
    services.table_join(table_id=table.pk, version=version_of(table), user=guest)
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    play_friends_to_the_end(table)
    [game] = account_export(user=guest)["games"]
    assert game["players"] == ["anna", "Guest 1234"] and game["record"]
