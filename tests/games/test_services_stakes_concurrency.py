"""games/services/stakes.py under races, on PostgreSQL with real threads (row locks do
nothing on SQLite): one player's sits run one after another and stake once, people
sitting at the same settings at the same instant share a table, and a refund racing
the last player to sit never both starts and refunds.  (Over two live processes:
tests/site/test_stake_sits_scaled.py.)"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from functools import partial

import pytest
from django.core.management import call_command
from django.db import connections
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from economy.audit import audit_ledger
from economy.models import Transfer
from economy.selectors import balance_of
from economy.services import escrow_of
from games.engine import PRESETS, Rules
from games.kinds import STAKE_FILL
from games.models import Table
from games.services.stakes import stake_table_sit
from tests.economy.conftest import balance, drain_to
from tests.fixtures import answers, postgres_only, race, said, signed_in
from tests.stakes import pot, rich  # noqa: F401  (rich: a fixture)

pytestmark = [pytest.mark.postgres, postgres_only, pytest.mark.django_db(transaction=True)]


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


def sit_with(clients: list[Client], i: int) -> HttpResponse:
    return clients[i].post(SIT, stake_form())


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


def test_one_player_sitting_at_five_stake_tables_at_once_sits_at_one(
    make_user: Callable[..., User],
) -> None:
    forms = [
        stake_form(seating="4", hand_size="5"),
        stake_form(seating="3", hand_size="5"),
        stake_form(seating="4p"),
        stake_form(seating="3", preset="domino", draw="yes", target="100"),
        stake_form(),  # two seats: anna's would start the game
    ]
    for n, form in enumerate(forms):  # someone waits at each of five tables
        host = make_user(f"host{n}")
        drain_to(host, 1000)
        assert signed_in(host).post(SIT, form).status_code == 302
    assert Table.objects.filter(status="waiting", stake=100).count() == 5
    anna = make_user("anna")
    drain_to(anna, 1000)
    client = signed_in(anna)

    def sit(i: int) -> HttpResponse:
        return client.post(SIT, forms[i])

    assert set(answers(race(5, sit))) == {302}
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


def test_a_refund_racing_the_last_player_sitting_never_both_starts_and_refunds(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    for attempt in range(6):
        first, last = rich(f"first{attempt}"), rich(f"last{attempt}")
        rules = replace(PRESETS["duello"], target=50 * (attempt + 1))  # a new table each time
        table = stake_table_sit(user=first, rules=rules, stake=100)
        claimed = table.deadlines.get(kind=STAKE_FILL)
        Deadline.objects.filter(pk=claimed.pk).update(due_at=timezone.now())
        barrier = threading.Barrier(2)

        def expire(barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            run_due(now=timezone.now() + timedelta(seconds=1))
            connections.close_all()

        def sit(
            barrier: threading.Barrier = barrier, last: User = last, rules: Rules = rules
        ) -> None:
            barrier.wait()
            stake_table_sit(user=last, rules=rules, stake=100)
            connections.close_all()

        threads = [threading.Thread(target=expire), threading.Thread(target=sit)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        table.refresh_from_db()
        if table.status == Table.Status.PLAYING:  # the last player came first: no refund
            assert pot(table) == 200 and balance(first) == 900
            assert not Transfer.objects.filter(key__startswith=f"refund:{table.pk}:").exists()
        else:  # the deadline came first: refunded, and the last player opened a new table
            assert table.status == Table.Status.CANCELLED and pot(table) == 0
            assert balance(first) == 1000 and balance(last) == 900
        assert audit_ledger().ok
    call_command("audit_ledger")
