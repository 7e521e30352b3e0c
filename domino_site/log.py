"""Log lines for requests: the method and path, nothing else of the request
(no cookies, no session key, no query string, no headers); a websocket's error
logged once."""

from __future__ import annotations

import logging

from realtime.errors import ClosedOnError

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
