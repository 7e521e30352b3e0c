"""Stake tables (docs/rules.md §7): the stake moves with the seat, an unfilled table is
cancelled and refunded exactly once, and the whole pot goes to the winners."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from economy.audit import audit_ledger as audit
from economy.errors import InsufficientCoins
from economy.models import Account, Transfer
from economy.services import escrow_of
from economy.services.stake_tables import AlreadySeated, stake_table_leave, stake_table_sit
from games.engine import PRESETS, Round, Rules
from games.errors import GameError
from games.kinds import STAKE_FILL
from games.models import Hand, SeatResult, Table
from games.records import load_match
from tests.fixtures import manage_last_line, play_a_legal_move, version_of

from .conftest import balance, top_up

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DUEL = PRESETS["blocco"]  # two players, one hand: a match is quick to finish
PAIRS = replace(PRESETS["blocco"], players=4, hand_size=7, teams=True)


@pytest.fixture
def rich(make_user: Callable[..., User]) -> Callable[[str], User]:
    def make(name: str, coins: int = 1000) -> User:
        """A registered player holding exactly ``coins`` (whatever the starting grant)."""
        user = make_user(name)
        if coins != balance(user):
            top_up(user, coins - balance(user))
        return user

    return make


def pot(table: Table) -> int:
    return escrow_of(table=table).balance


def _play_to_the_end(table: Table) -> None:
    rng = random.Random(5)
    for _ in range(500):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return
        match = load_match(table)
        if match.round.over:
            deadline = table.deadlines.get()
            run_due(now=deadline.due_at + timedelta(seconds=1))
        else:
            play_a_legal_move(table, rng)
    raise AssertionError("the match did not end")


def test_a_stake_table_takes_the_stake_as_you_sit_and_starts_when_full(
    rich: Callable[[str], User],
) -> None:
    anna, bruno = rich("anna_s"), rich("bruno_s")
    before = balance(anna)
    token = uuid.uuid4()
    table = stake_table_sit(user=anna, rules=DUEL, stake=100, token=token)
    assert balance(anna) == before - 100 and pot(table) == 100
    assert table.status == Table.Status.WAITING
    assert table.deadlines.filter(kind=STAKE_FILL).exists()
    # the same form again (a second click): the same table, nothing more paid
    assert stake_table_sit(user=anna, rules=DUEL, stake=100, token=token) == table
    with pytest.raises(AlreadySeated, match="already sitting") as another:  # another form
        stake_table_sit(user=anna, rules=DUEL, stake=100, token=uuid.uuid4())
    assert another.value.table == table
    assert balance(anna) == before - 100
    same = stake_table_sit(user=bruno, rules=DUEL, stake=100)
    assert same == table
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and pot(table) == 200
    assert not table.deadlines.filter(kind=STAKE_FILL).exists()
    assert [s.user for s in table.seats.order_by("number")] == [anna, bruno]
    assert not table.seats.exclude(bot_level="").exists()  # people only


def test_a_short_wallet_is_refused_with_a_message_and_nothing_changes(
    rich: Callable[[str], User],
) -> None:
    poor = rich("poor", 50)
    with pytest.raises(InsufficientCoins, match="enough coins"):
        stake_table_sit(user=poor, rules=DUEL, stake=100)
    assert balance(poor) == 50 and not Table.objects.exists()


def test_guests_cannot_sit_at_a_stake_table(make_user: Callable[..., User]) -> None:
    with pytest.raises(GameError, match="Save your account"):
        stake_table_sit(user=make_user("guest-x", guest=True), rules=DUEL, stake=100)


def test_leaving_before_the_start_refunds_the_stake_at_once(rich: Callable[[str], User]) -> None:
    anna = rich("anna_l")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=250)
    stake_table_leave(table_id=table.pk, user=anna, version=version_of(table))
    table.refresh_from_db()
    assert balance(anna) == 1000 and pot(table) == 0
    assert table.status == Table.Status.CANCELLED  # nobody left at it
    assert audit().ok


def test_a_table_that_does_not_fill_in_time_is_cancelled_and_refunded_exactly_once(
    rich: Callable[[str], User],
) -> None:
    anna, bruno = rich("anna_c"), rich("bruno_c")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=500)
    stake_table_sit(user=bruno, rules=PAIRS, stake=500)
    due = table.deadlines.get(kind=STAKE_FILL).due_at
    assert run_due(now=due - timedelta(seconds=1)) == 0  # not before its time
    assert run_due(now=due + timedelta(seconds=1)) == 1
    assert run_due(now=due + timedelta(seconds=2)) == 0  # once
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    assert balance(anna) == balance(bruno) == 1000 and pot(table) == 0
    assert Transfer.objects.filter(key__startswith=f"refund:{table.pk}:").count() == 2
    assert audit().ok


def test_the_whole_pot_goes_to_the_winner_in_the_transaction_that_ends_the_match(
    rich: Callable[[str], User],
) -> None:
    anna, bruno = rich("anna_w"), rich("bruno_w")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    _play_to_the_end(table)
    results = {r.user: r.rank for r in SeatResult.objects.filter(table=table)}
    if results[anna] == results[bruno]:
        assert balance(anna) == balance(bruno) == 1000  # a drawn hand: stakes back
    else:
        winner = anna if results[anna] == 1 else bruno
        loser = bruno if winner == anna else anna
        assert balance(winner) == 1100 and balance(loser) == 900
        assert Transfer.objects.get(key=f"pot:{table.pk}").reason == "pot"
    assert pot(table) == 0
    assert audit().ok


def test_a_drawn_single_hand_returns_the_stakes(rich: Callable[[str], User]) -> None:
    anna, bruno = rich("anna_d"), rich("bruno_d")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    r = Round.from_hands(DUEL, [["6|6", "2|0"], ["1|1", "0|0"]], dealer=1)  # blocked, 2 - 2
    Hand.objects.filter(table=table).update(initial_position=r.initial_position)
    _play_to_the_end(table)
    assert balance(anna) == balance(bruno) == 1000 and pot(table) == 0
    assert not Transfer.objects.filter(key=f"pot:{table.pk}").exists()


def test_partners_split_the_pot(rich: Callable[[str], User]) -> None:
    people = [rich(f"p{n}") for n in range(4)]
    table = None
    for person in people:
        table = stake_table_sit(user=person, rules=PAIRS, stake=250)
    assert table is not None
    _play_to_the_end(table)
    ranks = {r.user: r.rank for r in SeatResult.objects.filter(table=table)}
    winners = [p for p in people if ranks[p] == 1]
    if len(winners) == 4:
        return  # a drawn hand: covered above
    assert len(winners) == 2
    for person in people:
        assert balance(person) == (1250 if person in winners else 750)
    assert audit().ok


def test_the_stake_lobby_lists_open_tables_and_sits_a_player(
    rich: Callable[[str], User], client: Client
) -> None:
    anna, bruno = rich("anna_v"), rich("bruno_v")
    stake_table_sit(user=anna, rules=PAIRS, stake=1000)
    client.force_login(bruno)
    client.cookies["django_language"] = "en"
    page = client.get("/coins/stakes/").content.decode()
    assert "Open tables" in page and "1000" in page
    form = {"preset": "blocco", "seating": "4p", "hand_size": "7", "draw": "no"}
    response = client.post("/coins/stakes/sit/", {**form, "target": "single", "stake": "1000"})
    table = Table.objects.get(stake=1000)
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}/"
    assert balance(bruno) == 0 and pot(table) == 2000


def test_the_sit_form_sent_twice_sits_once_and_another_form_says_where_you_sit(
    rich: Callable[[str], User], client: Client
) -> None:
    anna = rich("anna_t")
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    page = client.get("/coins/stakes/").content.decode()
    token = re.search(r'name="token" value="([0-9a-f-]{36})"', page)
    assert token is not None  # the page's form carries its own token
    form = {"preset": "blocco", "seating": "4p", "hand_size": "7", "draw": "no"}
    form |= {"target": "single", "stake": "250", "token": token.group(1)}
    first = client.post("/coins/stakes/sit/", form, follow=True)
    table = Table.objects.get(stake=250)
    again = client.post("/coins/stakes/sit/", form, follow=True)  # a double click
    assert first.redirect_chain[-1][0] == again.redirect_chain[-1][0] == f"/t/{table.code}/"
    assert "already sitting" not in again.content.decode()  # the same request, answered again
    assert balance(anna) == 750 and pot(table) == 250
    other = client.post(
        "/coins/stakes/sit/", {**form, "stake": "100", "token": str(uuid.uuid4())}, follow=True
    )
    assert other.redirect_chain[-1][0] == f"/t/{table.code}/"  # where they sit, and why
    assert "You are already sitting at a stake table" in other.content.decode()
    assert balance(anna) == 750 and not Table.objects.filter(stake=100).exists()


def test_the_leave_form_says_what_happened_to_this_player_at_this_table(
    rich: Callable[[str], User], client: Client
) -> None:
    anna, bruno, carla = rich("anna_f"), rich("bruno_f"), rich("carla_f")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    _play_to_the_end(table)

    def leave(user: User) -> str:
        client.force_login(user)
        client.cookies["django_language"] = "en"
        leave_url = f"/coins/stakes/{table.code}/leave/"
        response = client.post(leave_url, {"version": version_of(table)}, follow=True)
        return response.content.decode()

    assert "You are not sitting at this table." in leave(carla)  # never sat there
    assert "This game is over." in leave(anna)
    cancelled = stake_table_sit(user=carla, rules=DUEL, stake=100)
    deadline = cancelled.deadlines.get(kind=STAKE_FILL)
    run_due(now=deadline.due_at + timedelta(seconds=1))
    with pytest.raises(GameError, match="cancelled: every stake went back"):
        stake_table_leave(table_id=cancelled.pk, user=carla, version=version_of(cancelled))
    assert balance(carla) == 1000 and audit().ok


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_refund_racing_the_last_player_sitting_never_both_starts_and_refunds(
    rich: Callable[[str], User],
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
        assert audit().ok
    call_command("audit_ledger")


def test_stake_accounts_are_wallets_and_escrows_only(rich: Callable[[str], User]) -> None:
    anna = rich("anna_k")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    kinds = set(
        Account.objects.filter(entries__transfer__key__startswith="stake:").values_list(
            "kind", flat=True
        )
    )
    assert kinds == {Account.Kind.WALLET, Account.Kind.ESCROW}
    assert escrow_of(table=table).table == table


RESTART_SETUP = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from economy.services.stake_tables import stake_table_sit
from games.engine import PRESETS
from deadlines.models import Deadline
user = User.objects.create_user("alone", password="x-alone-x")
table = stake_table_sit(user=user, rules=PRESETS["duello"], stake=250)
table.deadlines.filter(kind="stake_fill").update(due_at=timezone.now() + timedelta(seconds=2))
"""
WALLET = (
    "from economy.models import Account; "
    "print(Account.objects.get(kind='wallet', user__username='alone').balance)"
)


@pytest.mark.django_db(transaction=True)
def test_a_server_stopped_past_a_stake_tables_deadline_refunds_the_stakes_when_back(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'stakes.sqlite3'}",
        "GAME_CLOCK_ENABLED": "0",
    }
    env.pop("REDIS_URL", None)

    manage_last_line(env, "migrate", "--noinput", "-v", "0")
    manage_last_line(env, "shell", "-c", RESTART_SETUP)
    wallet = manage_last_line(env, "shell", "-c", WALLET)
    assert wallet == "750"  # 1000 from the grant, 250 in the pot
    command = [sys.executable, "manage.py", "run_worker", "--tick", "0.1"]
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    time.sleep(0.5)
    worker.kill()  # the server goes down before the deadline…
    worker.wait(timeout=10)
    time.sleep(2.5)  # …and the deadline passes while it is down
    assert manage_last_line(env, "shell", "-c", WALLET) == "750"
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if manage_last_line(env, "shell", "-c", WALLET) == "1000":
                break
            time.sleep(0.2)
        else:
            pytest.fail("the stake never came back after the restart")
    finally:
        worker.terminate()
        worker.wait(timeout=10)
    assert manage_last_line(env, "audit_ledger").endswith("0 problems")
