"""In process: what a page costs the server, beside a bare Django view.

Four-player friends' tables on a fresh SQLite file, a few moves into their first
hand; a seated player's browser (Django's test client, logged in) loads the home
page, the online lobby and its table's page, and a visitor loads the bare view
(``/bench/bare``: the middleware and nothing else).  Medians in ms over the
loads, and the queries of one load.  The settings are the load benchmark's
(``bench.site.settings``: the site's, with the bare view added to its URL map):

    .venv/bin/python bench/pages.py [--tables 20] [--loads 300]
    .venv/bin/python bench/pages.py --profile home     # cProfile's top lines for one page
    .venv/bin/python bench/pages.py --guests --sql     # the load's players, and each page's queries

It measures the code, not the server: under load (``python -m bench.load``) a page also
waits for the event loop and shares the GIL with the frames being rendered.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import actions  # noqa: E402  # its set-up: a fresh SQLite file, migrated

PAGES = ("bare", "home", "lobby", "table")


def setup(folder: str) -> None:
    """As bench/actions.py sets up, served as the load benchmark serves the site."""
    os.environ.update(
        DJANGO_HTTPS="0",  # plain http
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_STATIC_ROOT=f"{folder}/static",  # hashed names, as a served site has
    )
    actions.setup(folder, settings="bench.site.settings")  # /bench/bare
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--loads", type=int, default=300, help="loads of each page")
    parser.add_argument("--profile", choices=PAGES, default=None)
    parser.add_argument("--sort", default="tottime", help="the profile's order (cumulative …)")
    parser.add_argument("--lines", type=int, default=30, help="the profile's lines")
    parser.add_argument("--guests", action="store_true", help="guests, as the load's players")
    parser.add_argument("--sql", action="store_true", help="print each page's queries")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        run(args, random.Random(args.seed))


def run(args: argparse.Namespace, rng: random.Random) -> None:
    from dataclasses import replace

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games import states
    from games.engine import PRESETS
    from games.live.commands import dispatch
    from games.models import Table
    from games.services import table_create, table_join, table_start
    from tests.fixtures import version_of

    rules = replace(PRESETS["domino"], players=4, hand_size=7, target=150)
    browsers: list[tuple[Client, str]] = []
    for t in range(args.tables):
        players = [
            User.objects.create(username=f"p{t}_{n}", is_guest=args.guests) for n in range(4)
        ]
        table = table_create(host=players[0], mode=Table.Mode.FRIENDS, rules=rules)
        for player in players[1:]:
            table_join(table_id=table.pk, user=player, version=version_of(table))
        table_start(table_id=table.pk, by=players[0], version=version_of(table))
        for _ in range(rng.randrange(8)):  # a few moves into the hand
            state = states.table_state(table.pk)
            current = state.rounds[-1]
            if current.over:
                break
            move = rng.choice(current.legal_moves())
            data = {"action": "move", "move": str(move), "version": state.version}
            dispatch(table_id=table.pk, user=players[current.turn], data=data)
        for player in players:
            browser = Client()
            browser.force_login(player)
            browser.get("/bench/bare")  # each client loads the middleware once
            browsers.append((browser, f"/t/{table.code}/"))

    def load(page: str) -> None:
        browser, table_path = rng.choice(browsers)
        path = {"bare": "/bench/bare", "home": "/", "lobby": "/online/"}.get(page, table_path)
        response = browser.get(path)
        assert response.status_code == 200, (path, response.status_code)

    for page in PAGES:  # warm: templates compiled, states remembered
        for _ in range(20):
            load(page)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.loads):
            load(args.profile)
        profiler.disable()
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.lines)
        return

    took: dict[str, list[float]] = {page: [] for page in PAGES}
    for _ in range(args.loads):
        for page in PAGES:
            start = time.perf_counter()
            load(page)
            took[page].append((time.perf_counter() - start) * 1000)
    bare = statistics.median(took["bare"])
    print(f"{args.tables} tables, {args.loads} loads of each page (medians)")
    for page in PAGES:
        with CaptureQueriesContext(connection) as queries:
            load(page)
        ms = statistics.median(took[page])
        ratio = f" ({ms / bare:.1f}x bare)" if page != "bare" else ""
        print(f"  {page:6} {ms:6.2f} ms{ratio}, {len(queries)} queries")
        for query in queries if args.sql else ():
            print(f"         {query['sql'][:160]}")


if __name__ == "__main__":
    main()
