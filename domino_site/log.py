"""Log lines for requests: the method and path, nothing else of the request
(no cookies, no session key, no query string, no headers); a websocket's error
logged once.

Every line knows the request it was written for (``request_id``: a page's, a
websocket's for its whole life, a deadline's while the worker applies it) and the
player (``player_id``), from context variables the code sets where each begins
(``monitoring.context``); with ``LOG_FORMAT=json`` each line is a JSON object (``JsonLines``)
carrying them, in daphne's processes, the worker and the views alike.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime

from monitoring import context
from realtime.errors import ClosedOnError


def daphne_arguments(argv: list[str]) -> list[str]:
    """daphne's arguments as ``serve`` passes them: with JSON lines, daphne's own text
    access log is off (the site writes its own, as JSON: ``monitoring.middleware``,
    ``realtime.consumers``) unless one is asked for."""
    if not context.json_lines() or any(a.startswith("--access-log") for a in argv):
        return argv
    return ["--access-log", os.devnull, *argv]


class Context(logging.Filter):
    """Give every record its ``request_id`` and ``player_id`` (None when unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = context.request_id.get()
        record.player_id = context.player_id.get()
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, request_id,
    player_id, the request's method and path when there is one, the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "player_id": getattr(record, "player_id", None),
        }
        request = getattr(record, "request_line", "-")
        if request != "-":
            line["request"] = request
        line.update(getattr(record, "fields", {}))  # an access line's status and time
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


#: Answered by monitoring.middleware.Probes (not imported: it needs the apps loaded).
PROBE_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


def _printable(text: str) -> str:
    """A path cannot forge log lines: control characters are escaped, as Django does."""
    return text.encode("unicode_escape").decode("ascii")


class RequestLine(logging.Filter):
    """Give every record a ``request_line``: "GET /t/abc/" for a request's, "-" otherwise."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        method, path = getattr(request, "method", None), getattr(request, "path", None)
        record.request_line = f"{method} {_printable(path)}" if method and path else "-"
        return True


class NotTwice(logging.Filter):
    """Drop daphne's "Exception inside application" for a ``ClosedOnError``: the
    consumer has logged the error already."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ClosedOnError))


class NotProbes(logging.Filter):
    """Drop Django's "Service Unavailable: /readyz": a load balancer asks every second,
    and the answer itself names what is wrong (``monitoring.middleware``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        return getattr(request, "path", None) not in PROBE_PATHS
