"""A deadline whose handler keeps failing: retried later and later, then parked and
logged once, until its subject sets it again or an operator retries it."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from accounts.models import User
from deadlines import services as deadlines
from deadlines import worker
from deadlines.models import Deadline
from deadlines.services import PARK_AFTER, claim_due, run_due, set_deadline
from deadlines.worker import HOUSEKEEPING

pytestmark = pytest.mark.django_db

KEY = "test-broken-job"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[datetime]]:
    """A housekeeping job that fails every time it runs; the times it ran."""
    ran: list[datetime] = []

    def broken(now: datetime) -> None:
        ran.append(now)
        raise RuntimeError("boom")

    monkeypatch.setattr(worker, "PERIODIC", {KEY: (timedelta(hours=1), broken)})
    yield ran


def row() -> Deadline:
    return Deadline.objects.get(kind=HOUSEKEEPING, key=KEY)


def fail_until_parked(start: datetime) -> datetime:
    """Run the worker each time the row is due again, until it is parked; when it was."""
    now = start
    for _ in range(PARK_AFTER):
        assert run_due(now=now) == 0
        if row().parked_at is not None:
            return now
        now = row().due_at
    raise AssertionError("never parked")


def test_a_failing_deadline_is_retried_later_and_later_then_parked_and_logged_once(
    calls: list[datetime], caplog: pytest.LogCaptureFixture
) -> None:
    start = timezone.now()
    set_deadline(HOUSEKEEPING, start, key=KEY)
    with caplog.at_level(logging.WARNING, logger="games"):
        parked_at = fail_until_parked(start)
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(calls)]
    assert gaps == [30, 60, 120, 240, 480, 960, 1800]  # doubling, capped at 30 minutes
    assert len(calls) == PARK_AFTER == 8
    parked = row()
    assert (parked.parked_at, parked.attempts, parked.claimed_until) == (parked_at, 8, None)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1  # the seven retries were warnings
    message = errors[0].getMessage()
    assert "housekeeping" in message and KEY in message and "parked" in message
    assert errors[0].exc_info is not None  # with the last failure's traceback

    much_later = parked_at + timedelta(days=365)
    assert claim_due(now=much_later) == []
    run_due(now=much_later)
    assert len(calls) == 8  # no worker takes it again


def test_setting_the_deadline_again_unparks_it_with_a_fresh_count(calls: list[datetime]) -> None:
    start = timezone.now()
    set_deadline(HOUSEKEEPING, start, key=KEY)
    parked_at = fail_until_parked(start)
    set_deadline(HOUSEKEEPING, parked_at, key=KEY)  # the subject moved on
    fresh = row()
    assert (fresh.parked_at, fresh.attempts) == (None, 0)
    assert [d.pk for d in claim_due(now=parked_at)] == [fresh.pk]
    deadlines.apply(fresh, now=parked_at)  # fails again: counted from one
    assert (row().attempts, row().due_at) == (1, parked_at + timedelta(seconds=30))


def test_a_deadline_that_succeeds_after_failures_starts_afresh(
    calls: list[datetime], monkeypatch: pytest.MonkeyPatch
) -> None:
    start = timezone.now()
    set_deadline(HOUSEKEEPING, start, key=KEY)
    run_due(now=start)
    run_due(now=row().due_at)
    assert row().attempts == 2
    monkeypatch.setattr(worker, "PERIODIC", {KEY: (timedelta(hours=1), calls.append)})
    now = row().due_at
    assert run_due(now=now) == 1
    assert (row().attempts, row().due_at) == (0, now + timedelta(hours=1))


def test_a_kind_without_a_handler_is_parked_too(caplog: pytest.LogCaptureFixture) -> None:
    start = timezone.now()
    Deadline.objects.create(kind="gone", key="old-kind", due_at=start)
    now = start
    with caplog.at_level(logging.WARNING, logger="games"):
        for _ in range(PARK_AFTER):
            run_due(now=now)
            now = Deadline.objects.get(key="old-kind").due_at
    assert Deadline.objects.get(key="old-kind").parked_at is not None
    assert "no handler for deadlines of kind 'gone'" in caplog.text


def test_an_operator_finds_the_parked_deadlines_and_retries_them(
    calls: list[datetime], make_user: Callable[..., User]
) -> None:
    start = timezone.now()
    set_deadline(HOUSEKEEPING, start, key=KEY)
    set_deadline(HOUSEKEEPING, start + timedelta(days=1), key="test-fine-job")
    fail_until_parked(start)
    operator = make_user("operator")
    operator.is_staff = operator.is_superuser = True
    operator.save()
    client = Client()
    client.force_login(operator)
    page = client.get("/admin/deadlines/deadline/?parked_at__isempty=0").content.decode()
    assert KEY in page and "test-fine-job" not in page
    response = client.post(
        "/admin/deadlines/deadline/", {"action": "retry", "_selected_action": [row().pk]}
    )
    assert response.status_code == 302
    assert (row().parked_at, row().attempts) == (None, 0)
    assert [d.key for d in claim_due(now=row().due_at)] == [KEY]


def test_a_kind_no_app_registered_is_refused_before_any_row_is_written() -> None:
    with pytest.raises(ValueError, match="unknown deadline kind"):
        set_deadline("not_a_kind", timezone.now(), key="anything")
    assert not Deadline.objects.filter(kind="not_a_kind").exists()


def test_each_app_registers_its_own_kinds_and_the_operator_reads_their_names() -> None:
    from games.kinds import BOT_MOVE
    from league.kinds import LEAGUE_WEEK
    from matchmaking.kinds import POOL_FILL

    with translation.override("en"):
        assert deadlines.label_of(BOT_MOVE) == "a computer player's move"
        assert deadlines.label_of(POOL_FILL) == "filling a room with simulated players"
        assert deadlines.label_of(LEAGUE_WEEK) == "closing the league's week"
    with pytest.raises(ValueError, match="registered twice"):
        deadlines.kind(BOT_MOVE, "something else")
