"""``LOG_FORMAT=json``: one switch for JSON lines, each with the request id and the
player, from the views, the websockets (daphne's processes) and the worker alike."""

from __future__ import annotations

import io
import json
import logging
import os
import runpy
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

import domino_site
from accounts.models import User
from deadlines import services as deadline_services
from deadlines.services import run_due, set_deadline
from deadlines.worker import HOUSEKEEPING
from domino_site import log
from games.live import consumers
from tests.games.test_consumers import connect, current_version, frame_at_least, started_duello
from tests.site.test_log import HIDDEN_TILE

ROOT = Path(__file__).resolve().parents[2]
Lines = Callable[[], list[dict[str, Any]]]


@pytest.fixture
def json_lines() -> Iterator[Lines]:
    """The JSON lines the site's handlers would print, for the loggers that matter here."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(log.JsonLines())
    handler.addFilter(log.RequestLine())
    handler.addFilter(log.Context())
    loggers = [logging.getLogger(n) for n in ("django.request", "games", "deadlines", "domino")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def settings_with(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(Path(domino_site.__file__).parent / "settings.py"))


def test_one_switch_turns_every_handler_to_json_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    text = settings_with(monkeypatch, LOG_FORMAT="text")["LOGGING"]
    assert "root" not in text and text["handlers"]["requests"]["formatter"] == "request"
    logging_ = settings_with(monkeypatch, LOG_FORMAT="json")["LOGGING"]
    assert logging_["root"]["handlers"] == ["console"]  # daphne's and the worker's lines
    printing = [h for h in logging_["handlers"].values() if h["class"].endswith("StreamHandler")]
    assert len(printing) == 2
    for handler in printing:
        assert handler["formatter"] == "json"
        assert "context" in handler["filters"]


def test_with_json_lines_daphnes_text_access_log_is_off(settings: Any) -> None:
    settings.LOG_FORMAT = "json"
    assert log.daphne_arguments(["-p", "8001"]) == ["--access-log", os.devnull, "-p", "8001"]
    assert log.daphne_arguments(["--access-log=-"]) == ["--access-log=-"]  # asked for
    settings.LOG_FORMAT = "text"
    assert log.daphne_arguments(["-p", "8001"]) == ["-p", "8001"]


@pytest.mark.urls("tests.site.test_log")
@pytest.mark.django_db
def test_a_pages_error_line_names_its_request_and_player(
    json_lines: Lines, make_user: Callable[..., User], settings: Any
) -> None:
    settings.LOG_FORMAT = "json"
    client = Client(raise_request_exception=False)
    anna = make_user("anna")
    client.force_login(anna)
    response = client.post("/broken/abc123/?token=query-secret", {"password": "hunter22"})
    assert response.status_code == 500
    errors = [line for line in json_lines() if line["level"] == "ERROR"]
    assert len(errors) == 1
    error = errors[0]
    assert error["request_id"] == response["X-Request-ID"] and error["player_id"] == anna.pk
    assert error["request"] == "POST /broken/abc123/"
    assert "RuntimeError: the view broke holding 1 tile" in error["exc"]
    printed = json.dumps(json_lines())
    for secret in ("query-secret", "hunter22", HIDDEN_TILE):
        assert secret not in printed
    access = [line for line in json_lines() if line["logger"] == "domino.access"]
    assert [(a["request_id"], a["status"]) for a in access] == [(error["request_id"], 500)]


@pytest.mark.django_db
def test_the_proxys_request_id_is_kept_and_a_forged_one_is_not(client: Client) -> None:
    given = client.get("/", headers={"X-Request-ID": "f00dcafe-1234"})
    assert given["X-Request-ID"] == "f00dcafe-1234"
    forged = client.get("/", headers={"X-Request-ID": 'x"\n{"level": "forged"}'})
    assert "forged" not in forged["X-Request-ID"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_connections_after")
async def test_a_websockets_lines_carry_its_id_and_player_for_its_whole_life(
    json_lines: Lines, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.LOG_FORMAT = "json"
    table, anna, _bruno, _carla = await started_duello()

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(consumers, "dispatch", broken)
    comm = await connect(f"/ws/table/{table.code}/", anna)
    await frame_at_least(comm, 0)
    await comm.send_json_to({"action": "next", "version": await current_version(table.pk)})
    assert "Something went wrong" in await comm.receive_from(timeout=5)
    await comm.disconnect()
    lines = json_lines()
    failed = [line for line in lines if line["level"] == "ERROR"]
    assert len(failed) == 1 and failed[0]["player_id"] == anna.pk
    socket = failed[0]["request_id"]
    assert socket
    access = [(a["message"], a["request_id"]) for a in lines if a["logger"] == "domino.access"]
    assert access == [("websocket open", socket), ("websocket closed", socket)]


@pytest.mark.django_db
def test_a_deadlines_lines_name_it(json_lines: Lines, monkeypatch: pytest.MonkeyPatch) -> None:
    due = timezone.now()
    set_deadline(HOUSEKEEPING, due, key="broken-job")
    monkeypatch.setitem(
        deadline_services._handlers,
        HOUSEKEEPING,
        lambda d, now: 1 / 0,  # a bug
    )
    run_due(now=due + timedelta(seconds=1))
    (warning,) = [line for line in json_lines() if line["level"] == "WARNING"]
    assert warning["request_id"].startswith("deadline:") and warning["player_id"] is None
    assert "ZeroDivisionError" in warning["exc"]


def test_daphnes_and_the_workers_own_lines_are_json_too() -> None:
    """In a process started with the switch (as serve and run_worker are), lines of
    loggers the site does not configure (daphne's, the worker's) are JSON lines."""
    script = (
        "import django, logging; django.setup()\n"
        "logging.basicConfig(format='%(message)s')  # as daphne's command line does\n"
        "logging.getLogger('daphne.server').warning('from daphne')\n"
        "logging.getLogger('deadlines.worker').error('from the worker')\n"
        "logging.getLogger('games').warning('from the games')\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "domino_site.settings", "LOG_FORMAT": "json"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    assert [(line["logger"], line["message"]) for line in lines] == [
        ("daphne.server", "from daphne"),
        ("deadlines.worker", "from the worker"),
        ("games", "from the games"),
    ]
    assert all({"request_id", "player_id", "time", "level"} <= set(line) for line in lines)
