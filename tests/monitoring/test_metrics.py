"""The Prometheus metrics: their names and labels as /metrics shows them, who may
read them (a bearer token; none set: no such page), and that what players do moves
them (a move its commands', frames' and sockets' counters; a sign-up, a login, a
coin transfer, a deadline, a page theirs)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from accounts.models import User
from deadlines.services import run_due, set_deadline
from deadlines.worker import HOUSEKEEPING
from economy import numbers
from economy.services import grants
from games import services, states
from games.models import Table
from games.records import load_match
from monitoring.exposition import exposition
from tests.fixtures import DUELLO
from tests.games.test_consumers import connect, current_version, frame_at_least, started_duello

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "s3cret-token"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def families() -> dict[str, set[str]]:
    """Every metric /metrics shows, with the label names of its samples."""
    shown: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(exposition().decode()):
        labels = shown.setdefault(family.name, set())
        for sample in family.samples:
            labels.update(k for k in sample.labels if k not in ("le",))
    return shown


EXPECTED = {
    "domino_commands": {"action", "outcome"},
    "domino_command_seconds": {"action"},
    "domino_frame_build_seconds": set(),
    "domino_frames_sent": {"socket"},
    "domino_frame_characters_sent": {"socket"},
    "domino_open_sockets": {"socket"},
    "domino_tables_in_memory": set(),
    "domino_deadlines_applied": {"kind", "outcome"},
    "domino_deadline_lateness_seconds": {"kind"},
    "domino_transfers": {"reason"},
    "domino_coins_posted": {"reason"},
    "domino_signups": {"how"},
    "domino_logins": {"kind"},
    "domino_login_failures": set(),
    "domino_http_responses": {"status"},
    "domino_log_errors": {"logger"},
    "domino_deadlines_due": set(),
    "domino_deadlines_parked": set(),
    "domino_coach_queue": set(),
    "domino_tables_playing": set(),
}


@pytest.mark.django_db
def test_every_metric_is_shown_with_its_labels_and_no_player_or_table_among_them(
    client: Client,
) -> None:
    client.get("/")  # a page, a guest's login
    anna = User.objects.create_user("anna", password="pw-anna-123")
    bruno = User.objects.create_user("bruno", password="pw-bruno-123")
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, user=bruno, version=0)
    services.table_start(table_id=table.pk, by=anna, version=1)
    run_due(now=timezone.now() + timedelta(minutes=1))
    shown = families()
    for name, labels in EXPECTED.items():
        assert name in shown, name
        if shown[name]:  # a labelled family shows its labels once it has a sample
            assert shown[name] == labels, name
    every_label = set().union(*shown.values())
    assert not every_label & {"table", "user", "player", "code"}


@pytest.mark.django_db
def test_metrics_need_the_token_and_without_one_set_there_is_no_such_page(
    client: Client, settings: Any
) -> None:
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    settings.METRICS_TOKEN = TOKEN
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    assert b"domino_commands_total" in response.content
    assert "Set-Cookie" not in response.headers


def _to_move(table_id: int) -> tuple[int, str]:
    match = load_match(Table.objects.get(pk=table_id))
    return match.round.turn, str(match.round.legal_moves()[0])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_connections_after")
async def test_a_move_moves_the_commands_frames_and_sockets_counters() -> None:
    table, anna, bruno, _carla = await started_duello()
    sockets = value("domino_open_sockets", socket="table")
    comms = [await connect(f"/ws/table/{table.code}/", p) for p in (anna, bruno)]
    assert value("domino_open_sockets", socket="table") == sockets + 2
    for comm in comms:
        await frame_at_least(comm, 2)
    before = {
        "accepted": value("domino_commands_total", action="move", outcome="accepted"),
        "refused": value("domino_commands_total", action="move", outcome="refused"),
        "timed": value("domino_command_seconds_count", action="move"),
        "frames": value("domino_frames_sent_total", socket="table"),
        "characters": value("domino_frame_characters_sent_total", socket="table"),
        "built": value("domino_frame_build_seconds_count"),
    }
    version = await current_version(table.pk)
    seat, move = await sync_to_async(_to_move)(table.pk)
    await comms[seat].send_json_to({"action": "move", "move": move, "version": version})
    for comm in comms:
        await frame_at_least(comm, version + 1)
    assert value("domino_commands_total", action="move", outcome="accepted") == (
        before["accepted"] + 1
    )
    assert value("domino_command_seconds_count", action="move") == before["timed"] + 1
    assert value("domino_frames_sent_total", socket="table") >= before["frames"] + 2
    assert value("domino_frame_characters_sent_total", socket="table") > (
        before["characters"] + 100
    )
    assert value("domino_frame_build_seconds_count") >= before["built"] + 2
    # the same move again, now stale: refused
    await comms[seat].send_json_to({"action": "move", "move": move, "version": version})
    await comms[seat].receive_from(timeout=5)
    assert value("domino_commands_total", action="move", outcome="refused") == (
        before["refused"] + 1
    )
    for comm in comms:
        await comm.disconnect()
    assert value("domino_open_sockets", socket="table") == sockets


@pytest.mark.django_db
def test_sign_ups_logins_and_pages_are_counted(
    client: Client, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    # not the login's rate limit (counted in the default cache: Redis keeps the other
    # tests' attempts from this address, and a refused login is no form shown)
    settings.RATELIMIT_ENABLE = False
    signups = value("domino_signups_total", how="account")
    logins = value("domino_logins_total", kind="account")
    failures = value("domino_login_failures_total")
    found = value("domino_http_responses_total", status="200")
    missing = value("domino_http_responses_total", status="404")
    passwords = {"password1": "a-Long-pass-123", "password2": "a-Long-pass-123"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:signup"), {"username": "dora", **passwords})
    assert response.status_code == 302
    assert value("domino_signups_total", how="account") == signups + 1
    assert value("domino_logins_total", kind="account") == logins + 1  # signed in at once
    client.logout()
    client.post(reverse("accounts:login"), {"username": "dora", "password": "wrong-one"})
    assert value("domino_login_failures_total") == failures + 1
    client.get("/")
    client.get("/no-such-page/")
    assert value("domino_http_responses_total", status="200") >= found + 2  # the two forms
    assert value("domino_http_responses_total", status="404") == missing + 1


@pytest.mark.django_db
def test_coins_posted_are_counted_by_reason(
    anna: User, django_capture_on_commit_callbacks: Any
) -> None:
    reason = "daily"
    transfers = value("domino_transfers_total", reason=reason)
    coins = value("domino_coins_posted_total", reason=reason)
    with django_capture_on_commit_callbacks(execute=True):
        grants.daily_bonus(user=anna, now=timezone.now())
    assert value("domino_transfers_total", reason=reason) == transfers + 1
    assert value("domino_coins_posted_total", reason=reason) == coins + numbers.DAILY_BONUS


def applied(kind: str) -> float:
    return sum(
        value("domino_deadlines_applied_total", kind=kind, outcome=outcome)
        for outcome in ("done", "nothing", "failed")
    )


@pytest.mark.django_db
def test_deadlines_applied_and_how_late_are_counted() -> None:
    kind, due = HOUSEKEEPING, timezone.now()
    set_deadline(kind, due, key="a job no longer there")  # applied: dropped, nothing done
    before, late = applied(kind), value("domino_deadline_lateness_seconds_sum", kind=kind)
    nothing = value("domino_deadlines_applied_total", kind=kind, outcome="nothing")
    run_due(now=due + timedelta(seconds=30))
    assert applied(kind) == before + 1
    assert value("domino_deadlines_applied_total", kind=kind, outcome="nothing") == nothing + 1
    assert value("domino_deadline_lateness_seconds_sum", kind=kind) == late + 30


@pytest.mark.django_db
def test_tables_held_in_memory_are_counted(anna: User) -> None:
    states.forget()
    assert value("domino_tables_in_memory") == 0
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)
    states.table_state(table.pk)
    assert value("domino_tables_in_memory") == 1
    states.forget(table.pk)
    assert value("domino_tables_in_memory") == 0


def test_several_processes_metrics_are_added_up_in_multiprocess_mode(tmp_path: Path) -> None:
    """Two processes count into one PROMETHEUS_MULTIPROC_DIR, then end; a third's
    scrape adds their counters up, and drops the sockets they held open (a live gauge
    counts only processes still running)."""
    count = (
        "import django; django.setup()\n"
        "from monitoring import metrics\n"
        "metrics.LOGIN_FAILURES.inc()\n"
        "metrics.OPEN_SOCKETS.labels('table').inc()\n"
    )
    scrape = (
        "import django; django.setup()\n"
        "from monitoring.exposition import exposition\n"
        "print(exposition().decode())\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "domino_site.settings",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'none.sqlite3'}",  # no figures from it
    }

    def run(script: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout

    run(count)
    run(count)
    shown = {
        (family.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(run(scrape))
        for sample in family.samples
    }
    assert shown[("domino_login_failures", ())] == 2
    assert shown.get(("domino_open_sockets", (("socket", "table"),)), 0) == 0
