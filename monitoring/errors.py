"""Error lines counted: by the minute in the cache, for the operators' live page
("errors in the last hour"), and in Prometheus (``domino_log_errors_total``).

A handler on the site's loggers (``LOGGING``), at level ERROR; it writes nothing
itself: the lines are printed by the other handlers.  The cache is the processes'
shared one with Redis, the process's own otherwise (the embedded default has one).
"""

from __future__ import annotations

import contextvars
import functools
import logging

from django.core.cache import cache
from prometheus_client import Counter

from monitoring import metrics

#: Minutes kept (the page shows the last 60).
KEEP_SECONDS = 2 * 60 * 60
_counting: contextvars.ContextVar[bool] = contextvars.ContextVar("counting", default=False)


def _key(minute: int) -> str:
    return f"errors:{minute}"


@functools.cache
def _counter(logger: str) -> Counter:
    return metrics.LOG_ERRORS.labels(logger)


class CountErrors(logging.Handler):
    def __init__(self, level: int = logging.ERROR) -> None:
        super().__init__(level)

    def emit(self, record: logging.LogRecord) -> None:
        if _counting.get():
            return  # an error while counting one (the cache away) is not counted again
        token = _counting.set(True)
        try:
            _counter(record.name.partition(".")[0]).inc()
            key = _key(int(record.created // 60))
            cache.add(key, 0, timeout=KEEP_SECONDS)
            cache.incr(key)
        except Exception:  # counting is a courtesy: the line itself is printed anyway
            pass
        finally:
            _counting.reset(token)


def errors_last_hour(now: float) -> int:
    """Error lines written in the last 60 minutes (``now``: a Unix time)."""
    minute = int(now // 60)
    counts = cache.get_many([_key(m) for m in range(minute - 59, minute + 1)])
    return sum(int(count) for count in counts.values())
