"""Whether this process can serve: what ``/readyz`` checks, each cheap enough to ask
every second.

- **database**: one query (the worker's heartbeat row), on a thread of its own and
  waited for ``WITHIN`` seconds at most: a pool waiting for a dead server would hold
  the probe 20 s.  While a check is still waiting, the next probe says so rather than
  queue another.
- **migrations**: none left to apply (Django's own plan, as ``runserver`` checks it);
  once found applied, not asked again by this process.
- **channel layer**: a message sent to a new channel and received back (Redis); the
  embedded layer lives in the process and is always there.
- **worker**: some deadline worker made a pass within ``WORKER_STALE``
  (``deadlines.worker.beat``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import threading
from datetime import datetime
from typing import NamedTuple

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections
from django.db.migrations.executor import MigrationExecutor

from deadlines.models import WorkerBeat
from deadlines.worker import BEAT_EVERY

OK = "ok"
#: Seconds a probe waits for the database, and for the channel layer's round trip.
WITHIN = 2.0
#: A heartbeat older than this: no worker is applying the deadlines.
WORKER_STALE = BEAT_EVERY * 6


class DatabaseRead(NamedTuple):
    migrations: str  # OK, or how many are not applied
    beat_at: datetime | None  # the workers' last heartbeat (None before migrations)


# One daemon thread reads for the probes (its own kept connection): a read stuck on a
# dead server must not hold the process at its exit, as an executor's thread would.
_asks: queue.SimpleQueue[concurrent.futures.Future[DatabaseRead]] = queue.SimpleQueue()
_reader: threading.Thread | None = None
_pending: concurrent.futures.Future[DatabaseRead] | None = None
_pending_lock = threading.Lock()
_migrated = False  # once true, stays true: the code and its migrations are this process's


def readiness(now: datetime) -> dict[str, str]:
    """Each check's answer: ``"ok"``, or what is wrong."""
    read, database = _database()
    checks = {"database": database}
    if read is not None:
        checks["migrations"] = read.migrations
        checks["worker"] = _worker(read.beat_at, now) if read.migrations == OK else "not asked"
    checks["channel_layer"] = _channel_layer()
    return checks


def _database() -> tuple[DatabaseRead | None, str]:
    global _pending, _reader
    with _pending_lock:
        if _pending is not None and not _pending.done():
            return None, f"no answer yet to the previous check (over {WITHIN:g} s)"
        if _reader is None:
            _reader = threading.Thread(target=_read_when_asked, name="readyz", daemon=True)
            _reader.start()
        future: concurrent.futures.Future[DatabaseRead] = concurrent.futures.Future()
        _pending = future
        _asks.put(future)
    try:
        return future.result(timeout=WITHIN), OK
    except concurrent.futures.TimeoutError:
        return None, f"no answer within {WITHIN:g} s"
    except Exception as error:
        return None, f"unreachable ({type(error).__name__})"


def _read_when_asked() -> None:
    while True:
        future = _asks.get()
        try:
            future.set_result(_read_database())
        except Exception as error:
            future.set_exception(error)


def _read_database() -> DatabaseRead:
    """On the database thread: whether migrations are left, then the heartbeat."""
    global _migrated
    try:
        if not _migrated:
            executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
            left = executor.migration_plan(executor.loader.graph.leaf_nodes())
            if left:
                return DatabaseRead(f"{len(left)} not applied", None)
            _migrated = True
        beat = WorkerBeat.objects.filter(name="worker").values_list("beat_at", flat=True)
        return DatabaseRead(OK, beat.first())
    finally:
        close_old_connections()  # a pooled connection goes back to its pool


def _worker(beat_at: datetime | None, now: datetime) -> str:
    if beat_at is None:
        return "no heartbeat yet"
    if now - beat_at > WORKER_STALE:
        return f"last heartbeat {int((now - beat_at).total_seconds())} s ago"
    return OK


def _channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None or isinstance(layer, InMemoryChannelLayer):
        return OK  # in this process: there whenever the process is
    try:
        async_to_sync(_round_trip)(layer)
    except TimeoutError:
        return f"no round trip within {WITHIN:g} s"
    except Exception as error:
        return f"unreachable ({type(error).__name__})"
    return OK


async def _round_trip(layer: BaseChannelLayer) -> None:
    async with asyncio.timeout(WITHIN):
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "readyz.probe"})
        await layer.receive(channel)
