"""The engine's searches off the process that serves the sockets.

In the embedded default the deadline worker runs inside daphne (``deadlines.clock``),
on a thread of the very process that holds every socket: a computer player's search
or the coach's review there took the serving core's time.  ``domino_site.serve``
calls ``in_child`` as the server starts: from then on ``think`` hands those searches
(``games.engine.thinking``: text in, text out) to a child process, on another core,
while the worker's thread waits for the answer with the GIL released.  Anywhere else
(``manage.py run_worker``, tests, benchmarks) ``think`` calls them in place: such a
process serves nobody.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

log = logging.getLogger("games")

P = ParamSpec("P")
T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None
_processes = 1  # how many children the pool was started with
_lock = threading.Lock()


def in_child(processes: int | None = None) -> None:
    """Run the engine's searches in child processes from now on (``processes``: how many;
    ``ENGINE_PROCESSES``, default 1).  Started cold (``spawn``): a fork of a process with
    threads and sockets would inherit both."""
    global _pool, _processes
    _processes = processes or int(os.environ.get("ENGINE_PROCESSES", "1"))
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                max_workers=_processes,
                mp_context=context,
                initializer=_leave_with,
                initargs=(os.getpid(),),
            )


def elsewhere() -> bool:
    """Whether this process hands its searches to a child."""
    return _pool is not None


def in_place() -> None:
    """Back to running the searches in this process (tests)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def think(search: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``search(*args, **kwargs)``: in a child process when this process serves sockets.
    A child that died is replaced once (the search runs again there)."""
    pool = _pool
    if pool is None:
        return search(*args, **kwargs)
    try:
        return pool.submit(search, *args, **kwargs).result()
    except BrokenProcessPool:
        log.error("the engine's child process died: starting another")
        _replace(pool)
        return think(search, *args, **kwargs)


def _leave_with(parent: int) -> None:
    """In the child: end when the server does (however it ended: a kill leaves no word);
    run on the cores the server was kept off, if it was pinned to some (``taskset``)."""
    elsewhere = _other_cores()
    if elsewhere:
        os.sched_setaffinity(0, elsewhere)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-the-server", daemon=True).start()


def _other_cores() -> set[int]:
    """The machine's cores this process may not run on (none where it may run on all, or
    where the system cannot say): a child spawned by a pinned server inherits its pin,
    and its searches would take the very core it was started to spare."""
    if not hasattr(os, "sched_getaffinity"):
        return set()
    return set(range(os.cpu_count() or 1)) - os.sched_getaffinity(0)


def _replace(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)
    in_child(_processes)
