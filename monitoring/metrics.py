"""The site's Prometheus metrics, defined once; the code that counts imports them.

Names follow Prometheus' rules: base units (``_seconds``, ``_bytes``), ``_total``
for counters, few label values (an action, a kind of socket, a reason: never a table
or a player).  With ``PROMETHEUS_MULTIPROC_DIR`` set (several daphne processes and
workers) prometheus-client keeps each process's values in files there, and a scrape
adds them up (``monitoring.exposition``); the gauges say how.

On the hot paths (a command, a frame) the callers hold pre-bound children
(``COMMANDS.labels(...)`` once, at import or per socket kind), so counting is an
increment, never a lookup of labels.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from prometheus_client import Counter, Gauge, Histogram

# Websocket commands (games.live.consumers).
COMMANDS = Counter(
    "domino_commands_total",
    "Table commands by action and outcome (accepted, refused, failed, limited).",
    ["action", "outcome"],
)
COMMAND_SECONDS = Histogram(
    "domino_command_seconds",
    "From a command's arrival to its answer (waiting for the database thread included).",
    ["action"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
FRAME_BUILD_SECONDS = Histogram(
    "domino_frame_build_seconds",
    "Building one viewer's frame of a table: its view read and its regions rendered.",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
)

# Sockets (realtime.consumers): socket is "table", "notify" or "queue".
FRAMES_SENT = Counter("domino_frames_sent_total", "Websocket frames sent.", ["socket"])
# Characters, not UTF-8 bytes: a frame is markup, ASCII but for its words' accents and a
# few symbols, so about as many bytes; and counting a frame's bytes encoded it once more
# than daphne does (1.3% of a serving process under load).
FRAME_CHARACTERS_SENT = Counter(
    "domino_frame_characters_sent_total", "Websocket frames' characters sent.", ["socket"]
)
OPEN_SOCKETS = Gauge(
    "domino_open_sockets", "Websockets open now.", ["socket"], multiprocess_mode="livesum"
)

# What a process holds (games.states).
TABLES_IN_MEMORY = Gauge(
    "domino_tables_in_memory",
    "Tables' states held in the processes' memory.",
    multiprocess_mode="livesum",
)

# Deadlines (deadlines.services): outcome is "done", "nothing" (it had moved on) or "failed".
DEADLINES_APPLIED = Counter(
    "domino_deadlines_applied_total", "Deadlines a worker applied.", ["kind", "outcome"]
)
DEADLINE_LATENESS_SECONDS = Histogram(
    "domino_deadline_lateness_seconds",
    "How long after it was due a deadline was applied.",
    ["kind"],
    buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)

# Coins (economy.services.ledger): counted once the transfer is committed.
TRANSFERS = Counter("domino_transfers_total", "Coin transfers posted.", ["reason"])
COINS_POSTED = Counter(
    "domino_coins_posted_total", "Coins moved by posted transfers (their credits).", ["reason"]
)

# Players (accounts): how is "account" (signed up) or "claim" (a guest registered);
# kind is "guest" or "account".
SIGNUPS = Counter("domino_signups_total", "Accounts registered.", ["how"])
LOGINS = Counter("domino_logins_total", "Logins.", ["kind"])
LOGIN_FAILURES = Counter("domino_login_failures_total", "Logins refused.")

# Error lines logged (monitoring.errors), by the logger's first name (games, django…).
LOG_ERRORS = Counter("domino_log_errors_total", "Lines logged at ERROR or above.", ["logger"])

# Pages (monitoring.middleware): every answer but the probes'.
HTTP_RESPONSES = Counter("domino_http_responses_total", "HTTP answers by status.", ["status"])


class SocketCounters(NamedTuple):
    frames: Counter
    characters: Counter
    open: Gauge


@functools.cache
def socket_counters(kind: str) -> SocketCounters:
    """One kind of socket's counters, bound once."""
    return SocketCounters(
        FRAMES_SENT.labels(kind), FRAME_CHARACTERS_SENT.labels(kind), OPEN_SOCKETS.labels(kind)
    )


class DeadlineCounters(NamedTuple):
    done: Counter
    nothing: Counter
    failed: Counter
    lateness: Histogram


@functools.cache
def deadline_counters(kind: str) -> DeadlineCounters:
    """One kind of deadline's counters, bound once."""
    return DeadlineCounters(
        done=DEADLINES_APPLIED.labels(kind, "done"),
        nothing=DEADLINES_APPLIED.labels(kind, "nothing"),
        failed=DEADLINES_APPLIED.labels(kind, "failed"),
        lateness=DEADLINE_LATENESS_SECONDS.labels(kind),
    )
