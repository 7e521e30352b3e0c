"""The measured window: what the server did while the tables played, summed up.

For each move, the time until each of the other seats receives a frame with a
higher version; beside it the echo's round trip and the page loads; the servers'
CPU, memory, time waiting for a CPU and logged collections; the players' own CPU
and loop lag (if they are late, the figures are theirs).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from bench.load.figures import (
    percentile,
    proc_children,
    proc_cpu_seconds,
    proc_memory_mb,
    proc_runqueue_seconds,
    proc_system_seconds,
    spread,
    total,
)
from bench.load.server import collections_logged, log_size

if TYPE_CHECKING:
    from bench.load.run import Bench


async def window(bench: Bench, seconds: float) -> dict[str, Any]:
    """Measure for ``seconds``; then wait for the late updates and sum up."""
    args, pids = bench.args, bench.server_pids
    each0 = {name: proc_cpu_seconds(pid) for name, pid in pids.items()}
    cpu0 = total(each0.values())
    wait0 = total(proc_runqueue_seconds(pid) for pid in pids.values())
    kernel0 = total(proc_system_seconds(pid) for pid in pids.values())
    me0 = proc_cpu_seconds(os.getpid())
    logged0 = log_size(bench.log) if bench.log else 0
    _engine_off_the_servers_core(bench)
    engine0 = _children_cpu(bench)
    await server_lag(bench)  # from here on
    start = time.perf_counter()
    connections: list[int | None] = []
    if bench.scaled:
        watch = asyncio.create_task(watch_connections(bench, connections))
    if args.profile and bench.server_pid:
        await profile(bench, seconds)
    else:
        await asyncio.sleep(seconds)
    end = time.perf_counter()
    if bench.scaled:
        watch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watch
    each1 = {name: proc_cpu_seconds(pid) for name, pid in pids.items()}
    cpu1 = total(each1.values())
    wait1 = total(proc_runqueue_seconds(pid) for pid in pids.values())
    kernel1 = total(proc_system_seconds(pid) for pid in pids.values())
    me1 = proc_cpu_seconds(os.getpid())
    lags = await server_lag(bench)
    engine1 = _children_cpu(bench)
    load = os.getloadavg()[0]
    each_memory = {name: proc_memory_mb(pid) for name, pid in pids.items()}
    memory = {
        key: round(sum(m[key] for m in each_memory.values()), 1)
        for key in ("VmRSS", "VmHWM")
        if each_memory and all(key in m for m in each_memory.values())
    }
    # Updates still on their way get the timeout, or twice the slowest so far (a
    # saturated server is slow, not lossy), up to a minute; later ones count as lost.
    slowest = max(
        (x for a in bench.record.actions if a.t0 >= start for x in a.latencies), default=0.0
    )
    grace = time.perf_counter() + min(60.0, max(args.timeout, 2 * slowest))
    while time.perf_counter() < grace:
        if not any(a.waiting and not a.refused for t in bench.tables for a in t.pending):
            break
        await asyncio.sleep(0.1)
    result = summary(bench, start, end, cpu0, cpu1, me0, me1, memory)
    if bench.log:  # logged by the end of the grace, a collection late in the window too
        result["collections"] = collections_logged(bench.log, logged0)
    if wait0 is not None and wait1 is not None:
        result["server_waiting_for_cpu_pct"] = round(100 * (wait1 - wait0) / (end - start), 1)
    if kernel0 is not None and kernel1 is not None:
        result["server_kernel_cpu_pct"] = round(100 * (kernel1 - kernel0) / (end - start), 1)
    result["machine_load"] = round(load, 1)
    result["server_loop_lag_ms"] = spread([x / 1000 for x in lags]) if lags else None
    if engine1:  # the engine's child processes (computer players, the coach)
        spent = sum(cpu - engine0.get(pid, 0.0) for pid, cpu in engine1.items())
        result["engine_children_cpu_pct"] = round(100 * spent / (end - start), 1)
    if bench.busy:
        moves = [a for t in bench.busy for a in t.record.actions if start <= a.t0 < end]
        result["busy_duels"] = sum(t.ready for t in bench.busy)
        result["busy_guest_moves_per_s"] = round(len(moves) / (end - start), 2)
    if bench.scaled:
        span = end - start
        result["server_processes"] = bench.scaled.processes
        split: dict[str, dict[str, Any]] = {}
        for number, name in enumerate(pids):
            cpu_a, cpu_b = each0[name], each1[name]
            seats = sum(s.process == number for t in bench.tables if t.ready for s in t.seats)
            split[name] = {
                "cpu_pct": None
                if cpu_a is None or cpu_b is None
                else round(100 * (cpu_b - cpu_a) / span, 1),
                "rss_mb": each_memory[name].get("VmRSS"),
                "seats": seats if number < bench.scaled.processes else None,
            }
        result["server_split"] = split
        paced = [
            a for a in bench.record.actions if start <= a.t0 < end and a.kind in ("move", "next")
        ]
        result["crossed_updates"] = sum(a.crossed for a in paced if not a.refused)
        known = [n for n in connections if n is not None]
        result["pg_connections_peak"] = max(known, default=None)
        result["pg_connections_unknown"] = len(connections) - len(known)
    return result


def summary(
    bench: Bench,
    start: float,
    end: float,
    cpu0: float | None,
    cpu1: float | None,
    me0: float | None,
    me1: float | None,
    memory: dict[str, float],
) -> dict[str, Any]:
    record, args = bench.record, bench.args
    span = end - start
    inside = [a for a in record.actions if start <= a.t0 < end]
    paced = [a for a in inside if a.kind in ("move", "next")]
    latencies = [x for a in paced if not a.refused for x in a.latencies]
    late = sum(1 for a in paced for x in a.latencies if x > args.timeout)
    lost = sum(len(a.waiting) for a in inside if not a.refused)
    errors = [e for e in record.errors if start <= e[0] < end + args.timeout]
    kinds: dict[str, int] = {}
    for _, kind, _ in errors:
        kinds[kind] = kinds.get(kind, 0) + 1
    frames = [size for at, size in record.frames if start <= at < end]
    echoes = [rtt for at, rtt in record.echoes if start <= at < end]
    pages: dict[str, list[float]] = {}
    for at, name, seconds in record.pages:
        if start <= at < end:
            pages.setdefault(name, []).append(seconds)
    page_medians = {k: round(statistics.median(v) * 1000, 2) for k, v in pages.items()}
    lag = [x for at, x in record.lag if start <= at < end]
    playing = sum(t.ready for t in bench.tables)
    result: dict[str, Any] = {
        "tables": len(bench.tables),
        "tables_playing": playing,
        "players": 4 * playing,
        "window_s": round(span, 1),
        "moves_per_s": round(len(paced) / span, 2),
        "target_per_s": round(playing / args.interval, 2),
        "actions": {
            k: sum(1 for a in inside if a.kind == k) for k in ("move", "next", "join", "start")
        },
        "rematches": sum(1 for at in record.rematches if start <= at < end),
        "latency_ms": spread(latencies),
        "echo_ms": spread(echoes),
        "echo_sockets": bench.echo_target,
        "errors": sum(kinds.values()) + late,
        "error_kinds": {**kinds, "timeouts": late},
        "error_samples": [detail for _, _, detail in errors[:5]],
        "stale": sum(1 for a in inside if a.refused == "stale"),
        "lost_updates": lost,
        "frame_bytes": {
            "n": len(frames),
            "p50": percentile([float(f) for f in frames], 50),
            "max": max(frames, default=None),
            "per_s": round(sum(frames) / span),
        },
        "server_cpu_pct": None
        if cpu0 is None or cpu1 is None
        else round(100 * (cpu1 - cpu0) / span, 1),
        "server_rss_mb": memory.get("VmRSS"),
        "server_peak_rss_mb": memory.get("VmHWM"),
        "client_cpu_pct": None
        if me0 is None or me1 is None
        else round(100 * (me1 - me0) / span, 1),
        "client_loop_lag_ms": spread(lag),
        "pages_median_ms": page_medians,
    }
    p50, echo50 = result["latency_ms"]["p50"], result["echo_ms"]["p50"]
    p99, echo99 = result["latency_ms"]["p99"], result["echo_ms"]["p99"]
    result["ratio_p50"] = round(p50 / echo50, 1) if p50 and echo50 else None
    result["ratio_p99"] = round(p99 / echo99, 1) if p99 and echo99 else None
    return result


async def watch_connections(bench: Bench, out: list[int | None]) -> None:
    """--scaled: the PostgreSQL connections every 2 s (None: psql was refused)."""
    assert bench.scaled is not None
    while True:
        out.append(await bench.scaled.connections())
        await asyncio.sleep(2)


async def profile(bench: Bench, seconds: float) -> None:
    """py-spy on the server through the window: a flame graph for the first half,
    raw stacks (for bench/profile_top.py) for the second."""
    prefix = bench.args.profile
    prefix.parent.mkdir(parents=True, exist_ok=True)
    py_spy = str(Path(sys.executable).with_name("py-spy"))
    half = max(1, int(seconds / 2))
    for suffix, extra in ((".svg", []), (".txt", ["--format", "raw"])):
        # --nonblocking: sampling without pausing the server (pausing it 100 times a
        # second saturated a process that keeps up unprofiled)
        command = [
            py_spy,
            "record",
            "--nonblocking",
            "--pid",
            str(bench.server_pid),
            "-d",
            str(half),
            *(["--gil"] if bench.args.profile_gil else []),
        ]
        out = prefix.with_name(prefix.name + suffix)
        spy = await asyncio.create_subprocess_exec(
            *command,
            *extra,
            "-o",
            str(out),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await spy.communicate()
        if spy.returncode:
            bench.say(f"  py-spy failed: {err.decode(errors='replace')[-300:]}")
        else:
            bench.say(f"  profile: {out}")


def _engine_off_the_servers_core(bench: Bench) -> None:
    """The engine's child processes on the players' core: started by a server pinned to
    its core (``--server-cpu``), they inherit the pin, and their searches and reviews
    would take the serving core's time, which is what they are there to spare it
    (``games.thinking``: on a machine of several cores, another core does them)."""
    for child in _engine_children(bench):
        with contextlib.suppress(OSError):  # gone meanwhile
            os.sched_setaffinity(child, {bench.args.client_cpu})


def _engine_children(bench: Bench) -> list[int]:
    """The child processes of the servers (the engine's)."""
    return [child for pid in bench.server_pids.values() for child in proc_children(pid)]


def _children_cpu(bench: Bench) -> dict[int, float]:
    """CPU seconds so far of each child process of the servers (the engine's)."""
    found: dict[int, float] = {}
    for child in _engine_children(bench):
        cpu = proc_cpu_seconds(child)
        if cpu is not None:
            found[child] = cpu
    return found


async def server_lag(bench: Bench) -> list[float]:
    """The server's event loop lag (ms, 20 ms sleeps) since the last call; [] when the
    server has no such yardstick (an older ``--rev``) or it did not answer."""
    try:
        async with httpx.AsyncClient(base_url=bench.urls[0], timeout=10) as client:
            response = await client.get("/bench/lag")
        lags: list[float] = response.json()["lag_ms"] if response.status_code == 200 else []
    except (httpx.HTTPError, ValueError, KeyError):
        return []
    return lags
