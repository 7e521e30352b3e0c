"""``manage.py run_worker``: the deadline worker as its own process."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from deadlines.worker import run_forever


class Command(BaseCommand):
    help = "Apply due deadlines (bots' moves, turn clocks, next hands, fills) until stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tick",
            type=float,
            default=None,
            help="seconds between passes (default: the DEADLINE_TICK_SECONDS setting)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        tick = settings.DEADLINE_TICK_SECONDS if options["tick"] is None else options["tick"]
        self.stdout.write(f"worker running, a pass every {tick} s")
        run_forever(tick=tick, stop=stop)
        self.stdout.write("worker stopped")
