"""Races on PostgreSQL, with real threads (row locks do nothing on SQLite)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from accounts.models import User
from economy.audit import audit_ledger
from economy.errors import InsufficientCoins
from economy.models import Account, Item, Purchase, Reason, Transfer
from economy.selectors import balance_of
from economy.services import (
    escrow_of,
    house,
    pay_match_rewards,
    post_transfer,
    pot_pay,
    shop_buy,
    stake_sit,
    wallet_of,
)
from games.models import SeatResult, Table
from tests.fixtures import race, signed_in

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def drain_to(user: User, coins: int) -> None:
    have = balance_of(user=user)
    if have == coins:
        return
    post_transfer(
        key=f"drain:{user.pk}",
        reason=Reason.ADJUSTMENT,
        legs=[
            (wallet_of(user=user), coins - have),
            (house(Account.Source.ADJUSTMENTS), have - coins),
        ],
    )


def test_threads_spending_the_same_last_coins_exactly_one_succeeds(anna: User) -> None:
    drain_to(anna, 300)
    results = race(6, lambda i: shop_buy(user=anna, item=Item.GOLD_BOOSTER, token=uuid.uuid4()))
    bought = [r for r in results if isinstance(r, Purchase)]
    refused = [r for r in results if isinstance(r, InsufficientCoins)]
    assert (len(bought), len(refused)) == (1, 5), results
    assert balance_of(user=anna) == 0
    assert audit_ledger().ok


def test_threads_sitting_with_the_last_coins_at_two_tables_one_sits(
    anna: User, make_table: Callable[..., Table]
) -> None:
    drain_to(anna, 100)
    tables = [make_table(status="waiting") for _ in range(4)]
    results = race(4, lambda i: stake_sit(table=tables[i], seat=0, user=anna, amount=100))
    assert sum(isinstance(r, Transfer) for r in results) == 1, results
    assert sum(isinstance(r, InsufficientCoins) for r in results) == 3
    assert balance_of(user=anna) == 0 and audit_ledger().ok


def test_two_threads_paying_the_same_key_pay_once(anna: User) -> None:
    start = balance_of(user=anna)

    def pay(_i: int) -> Transfer:
        return post_transfer(
            key="bonus:once",
            reason=Reason.ADJUSTMENT,
            legs=[(house(Account.Source.ADJUSTMENTS), -70), (wallet_of(user=anna), 70)],
        )

    results = race(4, pay)
    assert len({r.pk for r in results}) == 1, results
    assert balance_of(user=anna) == start + 70
    assert audit_ledger().ok


def test_two_workers_paying_the_same_match_pay_once(
    anna: User, bruno: User, make_table: Callable[..., Table]
) -> None:
    table = make_table(mode="online", status="finished")
    Table.objects.filter(pk=table.pk).update(finished_at=timezone.now())
    for seat, user in enumerate((anna, bruno)):
        SeatResult.objects.create(
            table=table, seat=seat, user=user, side=seat, rank=seat + 1, points=0, is_bot=False
        )
    start = balance_of(user=anna), balance_of(user=bruno)
    results = race(3, lambda i: pay_match_rewards(table_id=table.pk))
    assert results == [None, None, None]
    assert (balance_of(user=anna), balance_of(user=bruno)) == (start[0] + 60, start[1] + 20)
    anna.refresh_from_db()
    assert anna.xp == 30 and audit_ledger().ok


def test_two_workers_paying_the_same_pot_pay_once(
    anna: User, bruno: User, make_table: Callable[..., Table]
) -> None:
    table = make_table(status="playing")
    stake_sit(table=table, seat=0, user=anna, amount=500)
    stake_sit(table=table, seat=1, user=bruno, amount=500)
    start = balance_of(user=anna)
    results = race(3, lambda i: pot_pay(table=table, winners=[(0, anna)]))
    assert len({r.pk for r in results if isinstance(r, Transfer)}) == 1, results
    assert balance_of(user=anna) == start + 1000
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert audit_ledger().ok


# Through the site's own forms, as a player's double click or several tabs would.
SIT = "/coins/stakes/sit/"


def stake_form(
    *, seating: str = "2", hand_size: str = "7", token: str = "", **game: str
) -> dict[str, str]:
    """The stake form of a 100-coin table: blocco (one hand, quick) unless ``game`` says."""
    form = {"preset": "blocco", "draw": "no", "target": "single"} | game
    form |= {"seating": seating, "hand_size": hand_size, "stake": "100"}
    return form | ({"token": token} if token else {})


def open_stake_seats(user: User) -> list[Table]:
    return list(Table.objects.filter(status="waiting", stake__gt=0, seats__user=user))


def answers(responses: list[Any]) -> list[int]:
    """Each request's status code (an exception raised in the view fails the test)."""
    assert all(isinstance(r, HttpResponse) for r in responses), responses
    return [r.status_code for r in responses]


def sit_with(clients: list[Client], i: int) -> HttpResponse:
    return clients[i].post(SIT, stake_form())


def said(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.parametrize("open_table", [False, True], ids=["no open table", "an open table"])
@pytest.mark.parametrize("tokens", ["one form", "ten tabs"])
def test_one_player_posting_the_sit_ten_times_at_once_sits_once_and_pays_once(
    anna: User, bruno: User, open_table: bool, tokens: str
) -> None:
    drain_to(anna, 1000)
    if open_table:  # bruno waits at a four-seat table
        drain_to(bruno, 1000)
        signed_in(bruno).post(SIT, stake_form(seating="4p"))
    form_token = str(uuid.uuid4())
    client = signed_in(anna)

    def sit(_i: int) -> HttpResponse:
        token = form_token if tokens == "one form" else str(uuid.uuid4())
        return client.post(SIT, stake_form(seating="4p" if open_table else "2", token=token))

    responses = race(10, sit)
    assert set(answers(responses)) == {302}
    [table] = open_stake_seats(anna)
    assert {r["Location"] for r in responses} == {f"/t/{table.code}/"}
    assert balance_of(user=anna) == 900
    assert escrow_of(table=table).balance == (200 if open_table else 100)
    if tokens == "ten tabs":  # the nine others were told why they landed there
        told = [m for r in responses for m in said(r)]
        assert sum("already sitting at a stake table" in m for m in told) == 9, told
    assert audit_ledger().ok


def test_one_player_sitting_at_four_stake_tables_at_once_sits_at_one(
    make_user: Callable[..., User],
) -> None:
    forms = [
        stake_form(seating="2"),
        stake_form(seating="3", hand_size="5"),
        stake_form(seating="4p"),
        stake_form(seating="3", preset="domino", draw="yes", target="100"),
    ]
    for n, form in enumerate(forms):  # someone waits at each of four tables
        host = make_user(f"host{n}")
        drain_to(host, 1000)
        assert signed_in(host).post(SIT, form).status_code == 302
    assert Table.objects.filter(status="waiting", stake=100).count() == 4
    anna = make_user("anna")
    drain_to(anna, 1000)
    client = signed_in(anna)

    def sit(i: int) -> HttpResponse:
        return client.post(SIT, forms[i])

    assert set(answers(race(4, sit))) == {302}
    seated = Table.objects.filter(stake__gt=0, seats__user=anna)
    assert seated.count() == 1
    assert balance_of(user=anna) == 900
    assert audit_ledger().ok


def test_two_players_at_the_same_settings_at_the_same_instant_share_one_table(
    make_user: Callable[..., User],
) -> None:
    for pair in range(3):
        players = [make_user(f"p{pair}a"), make_user(f"p{pair}b")]
        for player in players:
            drain_to(player, 1000)
        clients = [signed_in(p) for p in players]
        responses = race(2, partial(sit_with, clients))
        assert answers(responses) == [302, 302]
        [table] = Table.objects.filter(stake__gt=0, seats__user=players[0])
        assert {s.user for s in table.seats.all()} == set(players)
        assert table.status == "playing"  # full: the game began
        assert escrow_of(table=table).balance == 200
    assert not Table.objects.filter(status="waiting").exists()
    assert audit_ledger().ok


def test_the_daily_bonus_asked_twenty_times_at_once_pays_once_and_says_so_once(
    anna: User,
) -> None:
    drain_to(anna, 0)
    client = signed_in(anna)
    responses = race(20, lambda _i: client.post("/coins/daily/"))
    assert set(answers(responses)) == {302}
    told = [m for r in responses for m in said(r)]
    assert sum("Daily bonus: 100 coins." in m for m in told) == 1, told
    assert sum("already collected today" in m for m in told) == 19, told
    assert balance_of(user=anna) == 100
    assert audit_ledger().ok
