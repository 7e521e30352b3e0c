"""What the log lines being written are about: the request (a page's, a websocket's
for its whole life, a deadline's while the worker applies it) and the player.

Context variables, set where each begins (``bind``): a page's thread, a socket's
task, a deadline's application; ``domino_site.log`` puts them in every line.
Nothing here imports the apps: the apps underneath (deadlines, realtime) set them.
"""

from __future__ import annotations

import contextvars
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
player_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("player_id", default=None)
#: A request id given by the proxy (nginx's ``$request_id``) is kept if it looks like one.
GIVEN_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def new_request_id(given: str | None = None) -> str:
    """The proxy's ``X-Request-ID`` if it is a plain token, else a new one."""
    return given if given and GIVEN_ID.fullmatch(given) else secrets.token_hex(8)


def json_lines() -> bool:
    """Whether the switch is on (``LOG_FORMAT=json``)."""
    from django.conf import settings

    return bool(settings.LOG_FORMAT == "json")


def bind(request: str | None, player: int | None) -> None:
    """What this task's (or thread's) lines are about, from here on."""
    request_id.set(request)
    player_id.set(player)


@contextmanager
def about(request: str) -> Iterator[None]:
    """Lines written inside are about ``request`` (a deadline applied, say)."""
    token = request_id.set(request)
    try:
        yield
    finally:
        request_id.reset(token)
