"""``/healthz`` and ``/readyz``: what a load balancer is told when all is well, and
when the database, the channel layer (Redis) or the deadline worker is away; and that
a probe makes no session, sets no cookie and needs no CSRF token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from channels.layers import channel_layers
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines import worker
from domino_site.log import PROBE_PATHS
from monitoring import health
from monitoring.middleware import PROBES

ROOT = Path(__file__).resolve().parents[2]
DEAD_PORT = 1  # nothing listens there


def answer(response: Any) -> dict[str, Any]:
    return json.loads(response.content)  # type: ignore[no-any-return]


def made_nothing(response: Any) -> bool:
    """No cookie set, no session row, no guest: the probe left no trace."""
    return (
        "Set-Cookie" not in response.headers
        and not Session.objects.exists()
        and not User.objects.exists()
    )


@pytest.fixture
def strict_client() -> Client:
    return Client(enforce_csrf_checks=True)


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_healthz_says_the_process_answers_and_leaves_no_trace(
    strict_client: Client, method: str
) -> None:
    response = getattr(strict_client, method)("/healthz")
    assert response.status_code == 200 and answer(response) == {"status": "ok"}
    assert made_nothing(response)


@pytest.mark.django_db(transaction=True)  # the check reads on a thread of its own
def test_readyz_is_ready_once_a_worker_has_made_a_pass(strict_client: Client) -> None:
    worker.step()
    response = strict_client.get("/readyz")
    assert response.status_code == 200
    assert answer(response) == {
        "status": "ready",
        "checks": {"database": "ok", "migrations": "ok", "worker": "ok", "channel_layer": "ok"},
    }
    assert response["Cache-Control"] == "no-store"
    assert made_nothing(response)


@pytest.mark.django_db(transaction=True)
def test_readyz_is_not_ready_before_any_worker_pass(client: Client) -> None:
    response = client.get("/readyz")
    assert response.status_code == 503
    assert answer(response)["status"] == "not ready"
    assert answer(response)["checks"]["worker"] == "no heartbeat yet"


@pytest.mark.django_db(transaction=True)
def test_readyz_is_not_ready_when_the_workers_heartbeat_is_stale(client: Client) -> None:
    stale = health.WORKER_STALE + timedelta(seconds=10)
    worker.step(now=timezone.now() - stale)  # the last pass any worker made
    response = client.get("/readyz")
    assert response.status_code == 503
    checks = answer(response)["checks"]
    assert checks["worker"] == f"last heartbeat {int(stale.total_seconds())} s ago"
    assert checks["database"] == checks["channel_layer"] == "ok"
    worker.step()  # a worker passes again: ready again
    assert client.get("/readyz").status_code == 200


def _redis_layer(url: str) -> dict[str, Any]:
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": url, "socket_connect_timeout": 1}]},
        }
    }


@pytest.mark.django_db(transaction=True)
def test_readyz_is_not_ready_when_redis_is_away(client: Client, settings: Any) -> None:
    worker.step()
    settings.CHANNEL_LAYERS = _redis_layer(f"redis://127.0.0.1:{DEAD_PORT}/0")
    channel_layers.backends.clear()
    response = client.get("/readyz")
    assert response.status_code == 503
    checks = answer(response)["checks"]
    assert checks["channel_layer"] == "unreachable (ConnectionError)"
    assert checks["database"] == checks["worker"] == "ok"


LIVE_REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


def _redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(LIVE_REDIS, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.mark.skipif(not _redis_answers(), reason="needs Redis")
@pytest.mark.django_db(transaction=True)
def test_readyz_makes_a_round_trip_through_redis(client: Client, settings: Any) -> None:
    worker.step()
    settings.CHANNEL_LAYERS = _redis_layer(LIVE_REDIS)
    channel_layers.backends.clear()
    response = client.get("/readyz")
    assert answer(response)["checks"]["channel_layer"] == "ok"
    assert response.status_code == 200


def _probe_in_a_process(database_url: str) -> tuple[int, dict[str, Any]]:
    """``/readyz`` asked of a process of its own with this database."""
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "r = Client().get('/readyz')\n"
        "print(r.status_code, r.content.decode())\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "domino_site.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    status, _, body = done.stdout.strip().splitlines()[-1].partition(" ")
    return int(status), json.loads(body)


def test_readyz_is_not_ready_when_the_database_is_away() -> None:
    status, body = _probe_in_a_process(f"postgres://postgres@127.0.0.1:{DEAD_PORT}/domino")
    assert status == 503
    assert body["checks"]["database"] in {
        f"no answer within {health.WITHIN:g} s",
        "unreachable (OperationalError)",
    }
    assert "worker" not in body["checks"]  # nothing read: nothing to say of it


def test_readyz_is_not_ready_before_the_migrations(tmp_path: Path) -> None:
    status, body = _probe_in_a_process(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    assert status == 503
    checks = body["checks"]
    assert checks["database"] == "ok" and checks["migrations"].endswith(" not applied")
    assert checks["worker"] == "not asked"


def test_the_probes_logs_know_are_the_probes_answered() -> None:
    """A failing probe is not logged as a server error (domino_site.log.NotProbes)."""
    assert set(PROBES) == PROBE_PATHS
