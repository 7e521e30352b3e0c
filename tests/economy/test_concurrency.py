"""Races on PostgreSQL, with real threads (row locks do nothing on SQLite)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.utils import timezone

from accounts.models import User
from economy.audit import audit_ledger
from economy.errors import InsufficientCoins
from economy.models import Account, Item, Purchase, Reason, Transfer
from economy.selectors import balance_of
from economy.services import (
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


def answers(responses: list[Any]) -> list[int]:
    """Each request's status code (an exception raised in the view fails the test)."""
    assert all(isinstance(r, HttpResponse) for r in responses), responses
    return [r.status_code for r in responses]


def said(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


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
