"""``manage.py run_worker``: the deadline worker as its own process."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from deadlines.worker import TICK, run_forever


class Command(BaseCommand):
    help = "Apply due deadlines (bots' moves, turn clocks, next hands, fills) until stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tick", type=float, default=TICK, help="seconds between passes")

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write(f"worker running, a pass every {options['tick']} s")
        run_forever(tick=options["tick"], stop=stop)
        self.stdout.write("worker stopped")
