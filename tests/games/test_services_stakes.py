"""games/services/stakes.py, stake tables' lifecycle (docs/rules.md §7): the stake moves
with the seat, an unfilled table is cancelled and refunded exactly once; through the
coins' escrow, through any escrow, and never without one."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path

import pytest

from accounts.models import User
from deadlines.services import run_due
from economy.audit import audit_ledger as audit
from economy.errors import InsufficientCoins
from economy.models import Reason, Transfer
from games.engine import PRESETS
from games.hooks import escrow
from games.kinds import STAKE_FILL
from games.models import StakeSetting, StakeSit, Table
from games.services.stakes import (
    AlreadySeated,
    stake_setting_key,
    stake_table_leave,
    stake_table_sit,
)
from games.view.errors import GameError
from tests.economy.conftest import balance
from tests.fixtures import (
    a_worker_made_a_pass,
    manage_last_line,
    sqlite_value,
    until,
    version_of,
)
from tests.stakes import DUEL, PAIRS, play_to_the_end, pot, rich  # noqa: F401  (rich: a fixture)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_a_stake_table_takes_the_stake_as_you_sit_and_starts_when_full(
    rich: Callable[[str], User],  # noqa: F811
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


def test_a_sit_sent_again_after_it_filled_the_table_lands_there_and_pays_nothing(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    """A double click with no form token on a two-seat table: the first sit starts the
    game; the second found no waiting seat and used to pay for a new table."""
    anna, bruno = rich("anna_r"), rich("bruno_r")
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    with pytest.raises(AlreadySeated, match="in play at this table") as again:
        stake_table_sit(user=anna, rules=DUEL, stake=100)
    assert again.value.table == table
    assert balance(anna) == 900 and not Table.objects.filter(status="waiting").exists()
    play_to_the_end(table)  # the match is over: the pot is paid, and she may sit again
    assert stake_table_sit(user=anna, rules=PAIRS, stake=100).status == Table.Status.WAITING
    assert audit().ok


def test_the_same_form_sent_with_other_settings_is_another_sit(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    """A page kept by the back button, its settings changed, carries the old token."""
    anna = rich("anna_o")
    token = uuid.uuid4()
    table = stake_table_sit(user=anna, rules=PAIRS, stake=500, token=token)
    with pytest.raises(AlreadySeated, match="already sitting") as other:
        stake_table_sit(user=anna, rules=DUEL, stake=100, token=token)
    assert other.value.table == table and balance(anna) == 500
    stake_table_leave(table_id=table.pk, user=anna, version=version_of(table))
    duel = stake_table_sit(user=anna, rules=DUEL, stake=100, token=token)
    assert duel != table and balance(anna) == 900
    assert stake_table_sit(user=anna, rules=DUEL, stake=100, token=token) == duel  # resent
    assert balance(anna) == 900 and audit().ok


def test_a_stake_settings_row_written_before_the_move_is_the_one_a_sit_locks(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    old = StakeSetting.objects.create(key="domino-4p-7-draw-100:250")  # as economy named it
    pairs = replace(PRESETS["domino"], players=4, hand_size=7, teams=True)
    assert stake_setting_key(pairs, 250) == old.key
    stake_table_sit(user=rich("anna_o"), rules=pairs, stake=250)
    assert list(StakeSetting.objects.values_list("pk", flat=True)) == [old.pk]


def test_a_short_wallet_is_refused_with_a_message_and_nothing_changes(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    poor = rich("poor", 50)
    with pytest.raises(InsufficientCoins, match="enough coins"):
        stake_table_sit(user=poor, rules=DUEL, stake=100)
    assert balance(poor) == 50 and not Table.objects.exists()


def test_guests_cannot_sit_at_a_stake_table(make_user: Callable[..., User]) -> None:
    with pytest.raises(GameError, match="Save your account"):
        stake_table_sit(user=make_user("guest-x", guest=True), rules=DUEL, stake=100)
    assert not Table.objects.exists()


def test_a_stake_that_is_not_offered_is_refused(rich: Callable[[str], User]) -> None:  # noqa: F811
    anna = rich("anna_x")
    with pytest.raises(GameError, match="Choose one of the stakes offered"):
        stake_table_sit(user=anna, rules=DUEL, stake=150)
    assert balance(anna) == 1000 and not Table.objects.exists()


def test_leaving_before_the_start_refunds_the_stake_at_once(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna_l")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=250)
    stake_table_leave(table_id=table.pk, user=anna, version=version_of(table))
    table.refresh_from_db()
    assert balance(anna) == 1000 and pot(table) == 0
    assert table.status == Table.Status.CANCELLED  # nobody left at it
    assert audit().ok


def test_a_table_that_does_not_fill_in_time_is_cancelled_and_refunded_exactly_once(
    rich: Callable[[str], User],  # noqa: F811
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


# --- The lifecycle pays through whatever escrow is registered (games.hooks.escrow). ---


@dataclass
class Beans:
    """An escrow in beans, not coins: it records what the lifecycle asked of it."""

    held: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (table, seat)
    returned: list[tuple[int, int, int]] = field(default_factory=list)  # (table, seat, user)

    def stakes(self) -> Sequence[int]:
        return (7, 11)

    def may_stake(self, user: User) -> None:
        if user.username.startswith("broke"):
            raise GameError("No beans for you.")

    def in_play(self, user: User) -> int | None:
        return next((t for (t, _seat), (u, _n) in self.held.items() if u == user.pk), None)

    def stake(self, *, table: Table, seat: int, user: User, amount: int) -> None:
        if amount > 7 and user.username.startswith("thin"):
            raise GameError("Not enough beans.")
        self.held.setdefault((table.pk, seat), (user.pk, amount))

    def refund(self, *, table: Table, seat: int) -> None:
        held = self.held.pop((table.pk, seat), None)
        if held is not None:
            self.returned.append((table.pk, seat, held[0]))

    def refund_all(self, *, table: Table) -> None:
        for t, seat in sorted(self.held):
            if t == table.pk:
                self.refund(table=table, seat=seat)


@pytest.fixture
def beans(monkeypatch: pytest.MonkeyPatch) -> Iterator[Beans]:
    fake = Beans()
    monkeypatch.setattr(escrow, "_registered", None)
    escrow.register(fake)
    yield fake  # monkeypatch puts the coins' escrow back


def test_stake_tables_sit_leave_and_cancel_through_any_escrow_registered(
    beans: Beans, make_user: Callable[..., User]
) -> None:
    anna, bruno, carla = make_user("anna_b"), make_user("bruno_b"), make_user("carla_b")
    table = stake_table_sit(user=anna, rules=DUEL, stake=7, token=uuid.uuid4())
    assert beans.held == {(table.pk, 0): (anna.pk, 7)}
    stake_table_leave(table_id=table.pk, user=anna, version=version_of(table))
    assert beans.held == {} and beans.returned == [(table.pk, 0, anna.pk)]

    waiting = stake_table_sit(user=bruno, rules=DUEL, stake=11)
    stake_table_sit(user=carla, rules=PAIRS, stake=11)
    deadline = waiting.deadlines.get(kind=STAKE_FILL)
    assert run_due(now=deadline.due_at + timedelta(seconds=1)) == 2  # both tables expire
    assert beans.held == {}
    assert sorted(user for _t, _s, user in beans.returned) == sorted([anna.pk, bruno.pk, carla.pk])

    full = stake_table_sit(user=anna, rules=DUEL, stake=7)
    assert stake_table_sit(user=bruno, rules=DUEL, stake=7) == full
    full.refresh_from_db()
    assert full.status == Table.Status.PLAYING
    assert beans.held == {(full.pk, 0): (anna.pk, 7), (full.pk, 1): (bruno.pk, 7)}
    assert not Transfer.objects.filter(reason__in=[Reason.STAKE, Reason.REFUND]).exists()


def test_what_the_escrow_refuses_seats_nobody_and_says_why(
    beans: Beans, make_user: Callable[..., User]
) -> None:
    with pytest.raises(GameError, match="Choose one of the stakes offered"):
        stake_table_sit(user=make_user("anna_r"), rules=DUEL, stake=100)  # a coin stake
    with pytest.raises(GameError, match="No beans for you"):
        stake_table_sit(user=make_user("broke_r"), rules=DUEL, stake=7)
    with pytest.raises(GameError, match="Not enough beans"):
        stake_table_sit(user=make_user("thin_r"), rules=DUEL, stake=11, token=uuid.uuid4())
    assert not Table.objects.exists() and not StakeSit.objects.exists() and beans.held == {}


def test_a_stake_table_without_an_escrow_seats_nobody_and_keeps_the_stakes_it_holds(
    rich: Callable[[str], User],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    anna, bruno = rich("anna_n"), rich("bruno_n")
    table = stake_table_sit(user=anna, rules=PAIRS, stake=250)
    monkeypatch.setattr(escrow, "_registered", None)  # no app keeps the stakes
    with pytest.raises(escrow.NoEscrow):
        stake_table_sit(user=bruno, rules=PAIRS, stake=250)
    with pytest.raises(escrow.NoEscrow):
        stake_table_leave(table_id=table.pk, user=anna, version=version_of(table))
    deadline = table.deadlines.get(kind=STAKE_FILL)
    assert run_due(now=deadline.due_at + timedelta(seconds=1)) == 0  # raised: tried later
    assert table.deadlines.get(kind=STAKE_FILL).attempts == 1
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    assert [s.user for s in table.seats.exclude(user=None)] == [anna]
    assert balance(anna) == 750 and balance(bruno) == 1000 and pot(table) == 250


RESTART_SETUP = """
from django.core.management import call_command
call_command("migrate", "--noinput", verbosity=0)
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.services.stakes import stake_table_sit
from games.engine import PRESETS
user = User.objects.create_user("alone", password="x-alone-x")
table = stake_table_sit(user=user, rules=PRESETS["duello"], stake=250)
table.deadlines.filter(kind="stake_fill").update(due_at=timezone.now() + timedelta(hours=1))
"""


@pytest.mark.django_db(transaction=True)
def test_a_server_stopped_past_a_stake_tables_deadline_refunds_the_stakes_when_back(
    tmp_path: Path,
) -> None:
    database = tmp_path / "stakes.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "GAME_CLOCK_ENABLED": "0"}
    env.pop("REDIS_URL", None)

    def wallet() -> int:
        return sqlite_value(
            database,
            "SELECT balance FROM economy_account JOIN accounts_user ON user_id = accounts_user.id"
            " WHERE kind = 'wallet' AND username = 'alone'",
        )

    manage_last_line(env, "shell", "-c", RESTART_SETUP)
    assert wallet() == 750  # 1000 from the grant, 250 in the pot
    command = [sys.executable, "manage.py", "run_worker", "--tick", "0.05"]
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        until(lambda: a_worker_made_a_pass(database), "the first worker never made a pass")
    finally:
        worker.kill()  # the server goes down before the deadline…
        worker.wait(timeout=10)
    assert wallet() == 750
    # …and the deadline passes while it is down (its clock moved on: the row's due time
    # moved back)
    sqlite_value(
        database,
        f"UPDATE games_deadline SET due_at = datetime('now', '-1 minute')"
        f" WHERE kind = '{STAKE_FILL}'",
    )
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        until(lambda: wallet() == 1000, "the stake never came back after the restart")
    finally:
        worker.terminate()
        worker.wait(timeout=10)
    fills_left = f"SELECT count(*) FROM games_deadline WHERE kind = '{STAKE_FILL}'"
    assert sqlite_value(database, fills_left) == 0  # applied once, and gone
    assert manage_last_line(env, "audit_ledger").endswith("0 problems")
