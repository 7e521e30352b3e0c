"""In process: what one table action costs the server, with no sockets in the way.

Four-player tables (the load benchmark's: domino, pairs, 7 tiles) on a fresh SQLite
file, played in turn: the seat to play sends a legal move through the websocket's
command dispatcher (``next hand`` when a hand is over), then each of the four seats
builds its frame as its consumer does after the group message (the regions that
changed).  Medians over every action, in ms, and the region renders behind a frame:

    .venv/bin/python bench/actions.py [--tables 20] [--actions 400] [--steps [--top 12]]

``--steps``: the Python steps a command and a frame take (``bench/steps.py``), counted
rather than timed, so alike on a busy machine and a quiet one; after the first action
of every table (the templates compiled), with the functions that take the most.
It measures the code, not the server: the load benchmark (bench/load/) adds the
sockets, the event loop, the thread handoffs and a busy machine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup(folder: str, settings: str = "domino_site.settings") -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE=settings,
        DATABASE_URL=f"sqlite:///{folder}/actions.sqlite3",
        GAME_CLOCK_ENABLED="0",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="bench-only-" + "x" * 40,
    )
    os.environ.pop("REDIS_URL", None)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", action="store_true", help="count Python steps, not time")
    parser.add_argument("--top", type=int, default=12, help="with --steps: functions listed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        run(args.tables, args.actions, random.Random(args.seed), steps=args.steps, top=args.top)


def run(
    tables: int, actions: int, rng: random.Random, *, steps: bool = False, top: int = 12
) -> None:
    from contextlib import nullcontext
    from dataclasses import replace

    from django.utils import translation

    from accounts.models import User
    from bench.steps import Steps
    from games import states
    from games.engine import PRESETS
    from games.live import fragments, frames
    from games.live.commands import dispatch
    from games.models import Table
    from games.selectors import table_view
    from games.services import table_create, table_join, table_start
    from realtime import announce as realtime_announce
    from tests.fixtures import version_of

    def frame_of(table_id: int, viewer: list[Any], at_least: int | None) -> tuple[str, Any]:
        """One viewer's frame, as its socket's consumer builds it (``games.live.frames``)."""
        player, screen = viewer
        with translation.override("it"):
            tv = table_view(table=table_id, user=player, with_presence=True, at_least=at_least)
            context = {"share_url": "http://x/", "user": player}
            return frames.view_frame(tv, screen, language="it", context=context)

    rules = replace(PRESETS["domino"], players=4, hand_size=7, target=150)  # long matches
    games = []
    for t in range(tables):
        players = [User.objects.create(username=f"p{t}_{n}") for n in range(4)]
        table = table_create(host=players[0], mode=Table.Mode.FRIENDS, rules=rules)
        for player in players[1:]:
            table_join(table_id=table.pk, user=player, version=version_of(table))
        table_start(table_id=table.pk, by=players[0], version=version_of(table))
        viewers = [[player, frames.Screen()] for player in players]
        for viewer in viewers:
            viewer[1] = frame_of(table.pk, viewer, None)[1]  # the page's first frame
        games.append((table.pk, players, viewers))

    region_ms: dict[str, list[float]] = defaultdict(list)
    plain_render_each = fragments.render_each

    def timed_render_each(templates: Any, context: dict[str, Any], language: str) -> Any:
        regions = plain_render_each(templates, context, language)
        for template in templates:
            start = time.perf_counter()
            html = next(regions)
            region_ms[template].append((time.perf_counter() - start) * 1000)
            yield html

    fragments.render_each = timed_render_each  # type: ignore[assignment]
    counted = Steps()

    def counting(kind: str, n: int) -> Any:
        return counted.counting(kind) if steps and n >= tables else nullcontext()

    command_ms: list[float] = []
    frame_ms: list[float] = []
    frame_kb: list[float] = []
    for n in range(actions):
        table_id, players, viewers = games[n % len(games)]
        state = states.table_state(table_id)
        if state.table.status != Table.Status.PLAYING:
            continue  # this match is over: the other tables go on
        current = state.rounds[-1]
        if current.over:  # the next player not yet ready says so (the last one deals)
            data: dict[str, object] = {"action": "next", "version": state.version}
            seat = next(s for s in sorted(state.seats, key=lambda s: s.number) if not s.ready)
            player = players[seat.number]
        else:
            move = rng.choice(current.legal_moves())
            data = {"action": "move", "move": str(move), "version": state.version}
            player = players[current.turn]
        told = realtime_announce.Told()
        start = time.perf_counter()
        with realtime_announce.collecting(told), counting("command", n):
            dispatch(table_id=table_id, user=player, data=data)
        command_ms.append((time.perf_counter() - start) * 1000)
        version = told.take()[-1][1]["version"]
        for viewer in viewers:
            start = time.perf_counter()
            with counting("frame", n):
                html, viewer[1] = frame_of(table_id, viewer, version)
            frame_ms.append((time.perf_counter() - start) * 1000)
            frame_kb.append(len(html.encode()) / 1000)

    if steps:
        print(f"{tables} tables, {actions} actions, counted after the first {tables}")
        for kind in ("command", "frame"):
            print(f"  {kind}: {counted.per_run(kind):,.0f} Python steps on average")
            for share, where in counted.top(kind, top):
                print(f"    {share:5.1f}%  {where}")
        return

    def median(values: list[float]) -> str:
        return f"{statistics.median(values):6.2f}"

    print(f"{tables} tables, {actions} actions (medians)")
    print(
        f"  command (dispatch + commit)   {median(command_ms)} ms "
        f"(mean {statistics.fmean(command_ms):.2f}: a new hand costs more)"
    )
    print(f"  one viewer's frame            {median(frame_ms)} ms, {median(frame_kb)} KB")
    action = statistics.median(command_ms) + 4 * statistics.median(frame_ms)
    print(f"  an action (command + 4 frames){action:7.2f} ms")
    print("  region renders:")
    for template, values in sorted(region_ms.items(), key=lambda kv: -sum(kv[1])):
        total = sum(values) / actions
        print(f"    {template:24} {median(values)} ms median, {total:6.2f} ms per action")


if __name__ == "__main__":
    main()
