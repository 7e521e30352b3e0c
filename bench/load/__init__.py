"""Load: real players on four-player friends' tables against one daphne process.

Starts daphne on the embedded default (a fresh SQLite file in a temporary folder,
in-memory channel layer, the game clock on, debug off) pinned to one core, and
plays from this process, pinned to the other core, as real clients: guests
create friends' tables and sit down over HTTP through the site's own forms,
every seat keeps the table's websocket open, reads its legal moves from its own
fragments (the buttons' ``hx-vals``) and sends them as the browser would; each
table acts once every ``--interval`` seconds (a move, or "next hand" when a hand
is over); finished matches are restarted with the rematch button.  Before the
measured window every table plays a random number of quick moves, so the tables
are spread across their hands (late-hand frames are the largest).

In the window it measures, for each action, the time until each of the OTHER
seats receives a frame with a higher version; the round trip of a bare echo
websocket on the same server at the same rate; page loads (home, the online
lobby, a table page, a bare Django view); the server's CPU and memory.  The
server is the site as ``bench.site`` serves it: the production site plus those
two yardsticks.

    .venv/bin/python -m bench.load --tables 100            # one run
    .venv/bin/python -m bench.load --ramp                  # 10, 25, 50 … until p99 > 150 ms
    .venv/bin/python -m bench.load --tables 50 --json bench/results/t50.json
    .venv/bin/python -m bench.load --url http://127.0.0.1:8000 --server-pid 1234
    .venv/bin/python -m bench.load --scaled 4 --tables 50  # 4 daphne + worker, PostgreSQL, Redis

``--scaled N`` starts the site as ``make serve-scaled`` does (domino_site/scaled.py):
N daphne processes and the deadline worker, all on the one server core, sharing the
PostgreSQL database ``domino_bench`` (dropped and created again) and Redis database 11
(flushed).  A table's four seats talk to the processes round-robin (seat i of table t
to process (t + i) mod N, its pages and its websocket), so every move reaches the other
players through Redis; with ``--by-table`` a table's seats share process t mod N, as a
proxy that hashes on the table's address would place them.  CPU and memory are the
sums over the processes.

Traffic goes to 127.0.0.1 only; every run is bounded (``--max-seconds``) and
stops every process it started.
"""
