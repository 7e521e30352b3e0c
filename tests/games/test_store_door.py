"""games/store.py's door: every service that changes a table, and every worker step that
does, moves the table to its next version and tells its viewers of that version once
committed.  The list of writers is checked against ``games.services.__all__``, so a new
service cannot be added without its case here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from games import services
from games.kinds import BOT_MOVE, STAKE_FILL
from games.live import announce
from games.models import Invitation, Table
from games.records import load_match
from games.services.online import Filler
from games.services.play import abandoned_computer_tables_close
from games.services.stakes import stake_table_expire
from games.store import changing
from tests.economy.conftest import top_up
from tests.fixtures import DUELLO, PAIRS, version_of

pytestmark = pytest.mark.django_db

#: Services that write no table state a viewer sees: a read, an error, a browser's seed
#: for the next deal (kept on its own rows: nobody's screen changes).
NOT_WRITERS = {"AlreadySeated", "open_stake_tables", "client_seed_add"}


@dataclass
class Told:
    """The versions announced to each table's viewers, after the commit."""

    versions: dict[int, list[int]]

    def of(self, table_id: int) -> list[int]:
        return self.versions.get(table_id, [])


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> Told:
    seen = Told({})

    def send_now(group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "table.version":
            table_id = int(group.removeprefix("table-"))
            seen.versions.setdefault(table_id, []).append(message["version"])

    monkeypatch.setattr(announce, "send_now", send_now)
    return seen


@pytest.fixture
def people(make_user: Callable[..., User]) -> list[User]:
    return [make_user(name) for name in ("anna", "bruno", "carla", "dora")]


def waiting(host: User, rules: Any = DUELLO, *others: User) -> Table:
    table = services.table_create(host=host, mode=Table.Mode.FRIENDS, rules=rules)
    for other in others:
        services.table_join(table_id=table.pk, user=other, version=version_of(table))
    return table


def playing(host: User, guest: User, rules: Any = DUELLO) -> Table:
    table = waiting(host, rules, guest)
    services.table_start(table_id=table.pk, by=host, version=version_of(table))
    return Table.objects.get(pk=table.pk)


def to_move(table: Table) -> tuple[User, str]:
    match = load_match(table)
    seat = table.seats.get(number=match.round.turn)
    assert seat.user is not None
    return seat.user, str(match.round.legal_moves()[0])


def over_hand(host: User, guest: User) -> Table:
    """A friends' duello whose first hand is over (the next waits for both players)."""
    table = playing(host, guest)
    for _ in range(200):
        table.refresh_from_db()
        if load_match(table).round.over:
            return table
        user, move = to_move(table)
        services.move_submit(table_id=table.pk, user=user, move=move, version=table.version)
    raise AssertionError("the hand did not end")


def rich(user: User) -> User:
    top_up(user, 1000)
    return user


#: Each writer: set a table up, then the change (returns the table it changed).
Case = Callable[[list[User]], tuple[Table, Callable[[], Any]]]


def _join(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0])
    return t, lambda: services.table_join(table_id=t.pk, user=p[1], version=version_of(t))


def _leave(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0], DUELLO, p[1])
    return t, lambda: services.table_leave(table_id=t.pk, user=p[1], version=version_of(t))


def _swap(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0], PAIRS, p[1])
    return t, lambda: services.table_swap_seats(
        table_id=t.pk, by=p[0], a=1, b=2, version=version_of(t)
    )


def _set_bot(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0])
    return t, lambda: services.table_set_bot(
        table_id=t.pk, by=p[0], seat_number=1, level="easy", version=version_of(t)
    )


def _fill(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0], PAIRS)
    return t, lambda: services.table_fill_with_bots(
        table_id=t.pk, by=p[0], level="easy", version=version_of(t)
    )


def _start(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0], DUELLO, p[1])
    return t, lambda: services.table_start(table_id=t.pk, by=p[0], version=version_of(t))


def _cancel(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0])
    return t, lambda: services.table_cancel(table_id=t.pk, by=p[0], version=version_of(t))


def _invite(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = waiting(p[0])
    return t, lambda: services.table_invite(
        table_id=t.pk, by=p[0], username=p[1].username, version=version_of(t)
    )


def _invited(p: list[User]) -> Invitation:
    t = waiting(p[0])
    return services.table_invite(
        table_id=t.pk, by=p[0], username=p[1].username, version=version_of(t)
    )


def _accept(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    invitation = _invited(p)
    return invitation.table, lambda: services.invitation_accept(
        invitation_id=invitation.pk, user=p[1]
    )


def _decline(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    invitation = _invited(p)
    return invitation.table, lambda: services.invitation_decline(
        invitation_id=invitation.pk, user=p[1]
    )


def _rematch(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1], replace(DUELLO, target=50))
    Table.objects.filter(pk=t.pk).update(status=Table.Status.FINISHED)
    return t, lambda: services.table_rematch(table_id=t.pk, by=p[0])


def _create(p: list[User]) -> tuple[None, Callable[[], Any]]:  # a table against the computer
    return None, lambda: services.table_create(host=p[0], mode=Table.Mode.COMPUTER, rules=DUELLO)


def _online(p: list[User]) -> tuple[None, Callable[[], Any]]:
    return None, lambda: services.online_table_create(
        rules=DUELLO, people=[p[0]], fillers=[Filler("tonino", "easy")]
    )


def _computer_end(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = services.table_create(host=p[0], mode=Table.Mode.COMPUTER, rules=DUELLO)
    return t, lambda: services.computer_game_end(table_id=t.pk, user=p[0])


def _move(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1])
    user, move = to_move(t)
    return t, lambda: services.move_submit(
        table_id=t.pk, user=user, move=move, version=version_of(t)
    )


def _away(t: Table, user: User) -> None:
    t.seats.filter(user=user).update(away=True)


def _seat_back(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1])
    _away(t, p[1])
    return t, lambda: services.seat_back(table_id=t.pk, user=p[1])


def _forced_moves(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1])
    return t, lambda: services.forced_moves_choose(user=p[1], on=False, table_id=t.pk)


def _text_mode(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1])
    return t, lambda: services.text_mode_choose(user=p[1], on=True, table_id=t.pk)


def _hand_to_bot(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1])
    return t, lambda: services.seat_hand_to_bot(
        table_id=t.pk, by=p[0], seat_number=1, version=version_of(t)
    )


def _end(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1])
    return t, lambda: services.table_end(table_id=t.pk, by=p[0], version=version_of(t))


def _game_leave(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = playing(p[0], p[1])
    return t, lambda: services.game_leave(table_id=t.pk, user=p[1])


def _hand_next(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = over_hand(p[0], p[1])
    return t, lambda: services.hand_next(table_id=t.pk, user=p[0], version=version_of(t))


def _stake_sit(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    first = services.stake_table_sit(user=rich(p[0]), rules=PAIRS, stake=100)
    return first, lambda: services.stake_table_sit(user=rich(p[1]), rules=PAIRS, stake=100)


def _stake_leave(p: list[User]) -> tuple[Table, Callable[[], Any]]:
    t = services.stake_table_sit(user=rich(p[0]), rules=PAIRS, stake=100)
    services.stake_table_sit(user=rich(p[1]), rules=PAIRS, stake=100)
    return t, lambda: services.stake_table_leave(table_id=t.pk, user=p[1], version=version_of(t))


SERVICES: dict[str, Case] = {
    "table_join": _join,
    "table_leave": _leave,
    "table_swap_seats": _swap,
    "table_set_bot": _set_bot,
    "table_fill_with_bots": _fill,
    "table_start": _start,
    "table_cancel": _cancel,
    "table_invite": _invite,
    "invitation_accept": _accept,
    "invitation_decline": _decline,
    "table_rematch": _rematch,
    "table_create": _create,  # type: ignore[dict-item]
    "online_table_create": _online,  # type: ignore[dict-item]
    "computer_game_end": _computer_end,
    "move_submit": _move,
    "seat_back": _seat_back,
    "forced_moves_choose": _forced_moves,
    "text_mode_choose": _text_mode,
    "seat_hand_to_bot": _hand_to_bot,
    "table_end": _end,
    "game_leave": _game_leave,
    "hand_next": _hand_next,
    "stake_table_sit": _stake_sit,
    "stake_table_leave": _stake_leave,
}


def test_every_service_that_writes_a_table_is_walked_here() -> None:
    assert set(services.__all__) - NOT_WRITERS == set(SERVICES)


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_each_service_moves_the_table_to_its_next_version_and_tells_its_viewers(
    name: str, people: list[User], told: Told, django_capture_on_commit_callbacks: Any
) -> None:
    table, change = SERVICES[name](people)
    before = version_of(table) if table is not None else 0
    told.versions.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result = change()
    changed = table if table is not None else result
    after = version_of(changed)
    assert after > before, name
    assert told.of(changed.pk) and told.of(changed.pk)[-1] == after, (name, told.versions)


def _bot_move(p: list[User]) -> Table:
    t = services.table_create(host=p[0], mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_set_bot(
        table_id=t.pk, by=p[0], seat_number=1, level="easy", version=version_of(t)
    )
    services.table_start(table_id=t.pk, by=p[0], version=version_of(t))
    for _ in range(10):  # until the bot is to play
        t.refresh_from_db()
        if t.deadlines.filter(kind=BOT_MOVE).exists():
            return t
        user, move = to_move(t)
        services.move_submit(table_id=t.pk, user=user, move=move, version=t.version)
    raise AssertionError("the bot never had a turn")


@pytest.mark.parametrize("step", ["a bot's move", "an unfilled stake table", "an idle game"])
def test_each_worker_step_that_changes_a_table_goes_through_the_door(
    step: str, people: list[User], told: Told, django_capture_on_commit_callbacks: Any
) -> None:
    if step == "a bot's move":
        table = _bot_move(people)
    elif step == "an unfilled stake table":
        table = services.stake_table_sit(user=rich(people[0]), rules=PAIRS, stake=100)
    else:
        table = services.table_create(host=people[0], mode=Table.Mode.COMPUTER, rules=DUELLO)
        Deadline.objects.filter(table=table).delete()
    before = version_of(table)
    told.versions.clear()
    later = timezone.now() + timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        if step == "an idle game":
            table.started_at = timezone.now() - timedelta(days=2)
            Table.objects.filter(pk=table.pk).update(started_at=table.started_at)
            assert abandoned_computer_tables_close(now=later) == 1
        elif step == "an unfilled stake table":
            deadline = table.deadlines.get(kind=STAKE_FILL)
            assert stake_table_expire(deadline, later)
        else:
            assert run_due(now=later) >= 1
    after = version_of(table)
    assert after > before and told.of(table.pk)[-1] == after, (step, told.versions)


def test_a_writer_that_changed_nothing_keeps_the_version_and_tells_nobody(
    people: list[User], told: Told, django_capture_on_commit_callbacks: Any
) -> None:
    table = waiting(people[0], DUELLO, people[1])
    before = version_of(table)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_join(table_id=table.pk, user=people[1], version=before)  # sits there
    assert version_of(table) == before and not told.of(table.pk)


@pytest.mark.django_db(transaction=True)  # no test-wide transaction around it
def test_the_door_refuses_a_change_outside_a_transaction(people: list[User]) -> None:
    table = waiting(people[0])
    with pytest.raises(RuntimeError, match="inside a transaction"), changing(table.pk):
        pass


def test_a_failed_change_leaves_the_table_as_it_was(
    people: list[User], told: Told, django_capture_on_commit_callbacks: Any
) -> None:
    table = waiting(people[0])
    before = version_of(table)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(ValueError, match="halfway"),
        transaction.atomic(),
        changing(table.pk) as writing,
    ):
        writing.table.status = Table.Status.CANCELLED
        raise ValueError("a bug halfway")
    assert version_of(table) == before and not told.of(table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING
