"""The run: tables sat down and warmed up, step after step, each step measured."""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.load import probes
from bench.load.record import Record
from bench.load.report import RAMP_HEADER, ramp_line, report
from bench.load.scaled_servers import ScaledServers
from bench.load.tables import BusyTable, Table
from bench.load.window import window


class Bench:
    """What the players, the probes and the window share for one run."""

    def __init__(
        self,
        args: argparse.Namespace,
        url: str,
        server_pid: int | None,
        servers: ScaledServers | None = None,
        log: Path | None = None,
    ) -> None:
        self.args = args
        self.server_pid = server_pid
        self.scaled = servers
        self.log = log  # the servers' own output (their collections)
        # Every server process (--scaled: the daphne ones and the worker), by name.
        self.urls = servers.urls if servers else [url.rstrip("/")]
        if servers:
            self.server_pids = servers.pids
        else:
            self.server_pids = {"daphne": server_pid} if server_pid else {}
        self.record = Record()
        self.tables: list[Table] = []
        self.busy: list[BusyTable] = []  # --busy-bots: beside the measured tables
        self.tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        self.warming = True
        self.failed_tables = 0
        self.echo_target = 0
        self.setup_gate = asyncio.Semaphore(args.setup_concurrency)

    async def grow(self, count: int) -> None:
        """Sit ``count`` tables in all, then warm the new ones up with quick moves, then
        settle at human pace.  Sitting and warming are separate phases, each bounded."""
        args = self.args
        new = [Table(self, n) for n in range(len(self.tables), count)]
        gate = asyncio.Event()  # the new tables wait for each other before warming up
        for table in new:
            table.warmup_left = random.randint(0, args.warmup_moves)
            table.gate = gate
        self.tables += new
        self.warming = True
        self.tasks += [asyncio.create_task(t.run(self.setup_gate)) for t in new]
        self.echo_target = count if args.echo_sockets is None else args.echo_sockets
        started_at = time.perf_counter()

        def seated() -> int:
            return sum(t.ready for t in new)

        def to_warm() -> int:
            return sum(max(0, t.warmup_left) for t in new if t.ready)

        def all_seated() -> bool:
            return seated() + self.failed_tables >= len(new)

        def all_warm() -> bool:
            return to_warm() == 0

        phases: list[tuple[str, Callable[[], bool], float]] = [
            ("sitting", all_seated, args.setup_timeout),
            ("warming up", all_warm, args.warmup),
        ]
        for phase, done, limit in phases:
            deadline = time.perf_counter() + limit
            report_at = time.perf_counter() + 10
            while not done() and time.perf_counter() < deadline and not self.stopping:
                await asyncio.sleep(0.25)
                if time.perf_counter() >= report_at:
                    report_at += 10
                    self.say(
                        f"  … {phase}: {seated()} of {len(new)} new tables seated, "
                        f"{to_warm()} warm-up moves to go"
                    )
            gate.set()
        self.warming = False
        self.say(
            f"  {sum(t.ready for t in self.tables)} tables playing "
            f"({time.perf_counter() - started_at:.0f} s to sit and warm up)"
        )
        await asyncio.sleep(args.settle)

    def say(self, text: str) -> None:
        if not self.args.quiet:
            print(text, flush=True)

    async def stop(self) -> None:
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(
            *(t.close() for t in [*self.tables, *self.busy]), return_exceptions=True
        )

    async def keep_busy(self) -> None:
        """``--busy-bots``: the duels against the computer, seated before the measured
        tables and played throughout."""
        self.busy = [BusyTable(self, 100_000 + n) for n in range(self.args.busy_bots)]
        self.tasks += [asyncio.create_task(t.run(self.setup_gate)) for t in self.busy]
        deadline = time.perf_counter() + self.args.setup_timeout
        while sum(t.ready for t in self.busy) < len(self.busy) and time.perf_counter() < deadline:
            await asyncio.sleep(0.25)
        self.say(f"  {sum(t.ready for t in self.busy)} duels against the computer playing")


async def run(
    args: argparse.Namespace,
    url: str,
    server_pid: int | None,
    servers: ScaledServers | None = None,
    log: Path | None = None,
) -> dict[str, Any]:
    """Each step's table count in turn (one, or the ramp's), measured for ``--window``."""
    bench = Bench(args, url, server_pid, servers, log)
    helpers = [
        asyncio.create_task(probes.watch_lag(bench)),
        asyncio.create_task(probes.pages(bench)),
    ]
    most_echoes = args.echo_sockets if args.echo_sockets is not None else max(args.steps)
    helpers += [asyncio.create_task(probes.echo(bench, n)) for n in range(most_echoes)]
    bench.tasks += helpers
    steps: list[dict[str, Any]] = []
    try:
        if args.busy_bots:
            await bench.keep_busy()
        for count in args.steps:
            bench.say(f"{count} tables: sitting down and warming up…")
            await bench.grow(count)
            result = await window(bench, args.window)
            steps.append(result)
            if args.ramp:
                if len(steps) == 1:
                    print(RAMP_HEADER, flush=True)
                print(ramp_line(result), flush=True)
                p99 = result["latency_ms"]["p99"]
                if p99 is None or p99 > args.p99_limit or result["tables_playing"] < count:
                    break
            else:
                print(report(result, args), flush=True)
    finally:
        await bench.stop()
    return {"steps": steps}
