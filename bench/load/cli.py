"""The command line: options, one run or several, each on fresh servers, the JSON."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import bench.load
from bench.load import pairs
from bench.load.report import median_of, medians_text
from bench.load.run import run
from bench.load.scaled_servers import ScaledServers
from bench.load.server import ROOT, Server

RAMP_STEPS = (10, 25, 50, 100, 150, 200, 250, 300, 400, 500)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bench.load",
        description=bench.load.__doc__,
        formatter_class=argparse.RawTextHelpFormatter,
    )
    p.add_argument("--tables", type=int, default=10, help="four-player tables (default 10)")
    p.add_argument(
        "--ramp",
        nargs="?",
        const=",".join(map(str, RAMP_STEPS)),
        default=None,
        help="climb through these table counts until p99 passes --p99-limit",
    )
    p.add_argument("--p99-limit", type=float, default=150.0, help="ms (default 150)")
    p.add_argument("--interval", type=float, default=4.0, help="seconds between a table's moves")
    p.add_argument(
        "--window", type=float, default=None, help="measured seconds (default 60; 30 per ramp step)"
    )
    p.add_argument(
        "--warmup", type=float, default=90.0, help="at most this long to warm up (default 90 s)"
    )
    p.add_argument(
        "--warmup-moves",
        type=int,
        default=60,
        help="each table first plays a random 0..N quick moves (default 60)",
    )
    p.add_argument(
        "--setup-timeout",
        type=float,
        default=300.0,
        help="at most this long to sit the tables down (default 300 s)",
    )
    p.add_argument("--settle", type=float, default=5.0, help="human pace before measuring (s)")
    p.add_argument(
        "--timeout", type=float, default=10.0, help="an update later than this is an error"
    )
    p.add_argument("--target", type=int, default=100, choices=(50, 100, 150), help="match points")
    p.add_argument("--echo-sockets", type=int, default=None, help="default: one per table")
    p.add_argument("--page-pause", type=float, default=0.2, help="seconds between page loads")
    p.add_argument("--setup-concurrency", type=int, default=8, help="tables sitting at once")
    p.add_argument(
        "--rev", default=None, help="serve this commit (git archive) instead of the checkout"
    )
    p.add_argument(
        "--site",
        type=Path,
        default=None,
        help="serve the project in this folder (e.g. a copy of a working tree)",
    )
    p.add_argument("--url", default=None, help="an existing server (127.0.0.1 only)")
    p.add_argument("--server-pid", type=int, default=None, help="its pid, for CPU and memory")
    p.add_argument(
        "--server-cpu", default="0", help="core(s) for daphne, as taskset -c takes them (default 0)"
    )
    p.add_argument(
        "--scaled",
        type=int,
        default=None,
        metavar="N",
        help="N daphne processes + the worker on PostgreSQL (database domino_bench)\n"
        "and Redis (database 11), as make serve-scaled; all on --server-cpu",
    )
    p.add_argument(
        "--by-table",
        action="store_true",
        help="--scaled: a table's four seats on one process (table t on process t mod N),\n"
        "as nginx's `hash $request_uri` puts them; default: spread round-robin",
    )
    p.add_argument("--client-cpu", type=int, default=1, help="core for the players (default 1)")
    p.add_argument("--max-seconds", type=float, default=1800, help="the whole run's bound")
    p.add_argument(
        "--repeat", type=int, default=1, help="runs, each on a fresh server; prints their medians"
    )
    p.add_argument(
        "--pairs",
        type=int,
        default=None,
        help="alternating runs of the fixed reference (bench/REFERENCE) and the checkout:\n"
        "prints the reference's medians, the checkout's and their ratio (bench/load/pairs.py)",
    )
    p.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="py-spy the server through the window: PREFIX.svg, PREFIX.txt (raw); with "
        "--pairs, PREFIX-reference-1.svg, PREFIX-checkout-2.svg, …",
    )
    p.add_argument(
        "--profile-gil",
        action="store_true",
        help="with --profile: only the thread holding the GIL, i.e. where the CPU goes "
        "(without it, a thread waiting for the GIL or for the core counts as at work)",
    )
    p.add_argument(
        "--own-forced-moves",
        dest="forced_moves_played",
        action="store_false",
        help="the players turn off 'Play my only moves for me' and play them themselves,\n"
        "as the reference's players did: the same moves for the same work (default: the\n"
        "site plays them, about two moves in five more a table)",
    )
    p.add_argument(
        "--busy-bots",
        type=int,
        default=0,
        help="beside the measured tables, so many duels of a guest against the computer\n"
        "(--busy-level), the guest playing at once: the computer players' searches and the\n"
        "coach's reviews keep the engine busy (not in the window's moves and updates)",
    )
    p.add_argument(
        "--busy-level", default="hard", choices=("easy", "medium", "hard"), help="their level"
    )
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", type=Path, default=None, help="write the figures here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.url:
        host = urllib.parse.urlsplit(args.url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            p.error("--url must be on this machine (127.0.0.1)")
    if args.pairs is not None:
        for name in ("url", "rev", "site", "scaled", "ramp"):
            if getattr(args, name):
                p.error(f"--pairs serves the reference and the checkout: not with --{name}")
    if args.scaled is not None:
        if args.scaled < 1:
            p.error("--scaled wants at least one process")
        for name in ("url", "rev", "site", "profile"):
            if getattr(args, name):
                p.error(f"--scaled starts the checkout's processes: not with --{name}")
    args.steps = [int(n) for n in args.ramp.split(",")] if args.ramp else [args.tables]
    if args.window is None:
        args.window = 30.0 if args.ramp else 60.0
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.seed is not None:
        random.seed(args.seed)
    if args.pairs is not None:
        return run_pairs(args)
    runs = [run_once(args, n) for n in range(args.repeat)]
    if args.repeat > 1 and not args.ramp:
        print(medians_text(runs))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        config = {k: v for k, v in vars(args).items() if k != "json"}
        site = args.rev or (str(args.site) if args.site else _commit())
        payload: dict[str, Any] = {"config": config, "site": site}
        if args.repeat == 1:
            payload.update(runs[0])
        else:
            payload["runs"] = runs
            done = [o["steps"][0] for o in runs if o["steps"] and not args.ramp]
            payload["median"] = median_of(done) if done else None
        args.json.write_text(json.dumps(payload, indent=2, default=str))
        print(f"figures written to {args.json}")
    return 0


def run_pairs(args: argparse.Namespace) -> int:
    """``--pairs``: the reference and the checkout in alternating runs, then one table."""
    ref = pairs.reference()
    runs: dict[str, list[dict[str, Any]]] = {"reference": [], "checkout": []}
    prefix = args.profile
    for number, site in enumerate(pairs.order(args.pairs)):
        args.rev = ref if site == "reference" else None
        print(f"\n== {site} ({ref if args.rev else _commit()}), run {number + 1}", flush=True)
        if prefix is not None:  # each run's profile apart: PREFIX-reference-1, …
            args.profile = prefix.with_name(f"{prefix.name}-{site}-{number + 1}")
        outcome = run_once(args, number)
        runs[site] += outcome["steps"][:1]
    args.rev = None
    text = pairs.table(runs, ref)
    print(f"\n{text}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {"reference": ref, "checkout": _commit(), "runs": runs, "table": text}
        args.json.write_text(json.dumps(payload, indent=2, default=str))
    return 0


def run_once(args: argparse.Namespace, number: int) -> dict[str, Any]:
    """One run on a fresh server (unless ``--url``): its steps' figures."""
    if args.scaled is not None:
        return run_scaled(args, number)
    server = None
    url, pid = args.url, args.server_pid
    if url is None:
        server = Server(cpu=args.server_cpu, rev=args.rev, site=args.site)
        try:
            server.start()
        except BaseException:
            server.stop()
            raise
        url, pid = server.url, server.pid
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setaffinity(0, {args.client_cpu})
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(
        f"Domino load benchmark · {started} · server {url} (pid {pid}, "
        f"{'cpu ' + str(args.server_cpu) if server else 'given'}) · "
        f"players on cpu {args.client_cpu}",
        flush=True,
    )
    try:
        outcome = _bounded_run(
            args, number, run(args, url, pid, log=server.log if server else None)
        )
    finally:
        if server is not None:
            if server.proc is not None and server.proc.poll() is not None:
                print(f"daphne stopped during the run:\n{server.log_tail()}", file=sys.stderr)
            server.stop()
    return {"started": started, **outcome}


def run_scaled(args: argparse.Namespace, number: int) -> dict[str, Any]:
    """One run on fresh processes (``--scaled N``): PostgreSQL and Redis emptied first."""

    def terminated(*_: Any) -> None:
        raise SystemExit(143)  # through the finally below: the processes are stopped

    previous = signal.signal(signal.SIGTERM, terminated)
    servers = ScaledServers(args.scaled, cpu=args.server_cpu)
    try:
        servers.start()
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setaffinity(0, {args.client_cpu})
        started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        last = servers.port + args.scaled - 1
        pids = ", ".join(f"{name} {pid}" for name, pid in servers.pids.items())
        print(
            f"Domino load benchmark · {started} · {args.scaled} daphne on 127.0.0.1:"
            f"{servers.port}…{last} + worker, PostgreSQL {servers.DATABASE}, "
            f"Redis {servers.REDIS_URL} (pids {pids}; cpu {args.server_cpu}) · "
            f"players on cpu {args.client_cpu}",
            flush=True,
        )
        outcome = _bounded_run(
            args, number, run(args, servers.url, servers.pid, servers, servers.log)
        )
        if servers.proc is not None:
            print(
                f"a server process stopped during the run:\n{servers.log_tail()}", file=sys.stderr
            )
        return {"started": started, "server_processes": args.scaled, **outcome}
    finally:
        servers.stop()
        signal.signal(signal.SIGTERM, previous)


def _bounded_run(
    args: argparse.Namespace, number: int, players: Coroutine[Any, Any, dict[str, Any]]
) -> dict[str, Any]:
    """The players' run, stopped at ``--max-seconds`` (then no steps)."""
    if args.repeat > 1:
        print(f"run {number + 1} of {args.repeat}", flush=True)
    try:
        return asyncio.run(asyncio.wait_for(players, args.max_seconds))
    except TimeoutError:
        print(f"stopped: the run passed --max-seconds {args.max_seconds:g}", file=sys.stderr)
        return {"steps": []}


def _commit() -> str:
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip()
    return ""
