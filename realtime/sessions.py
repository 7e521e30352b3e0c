"""A websocket's session and user, from its cookies: Channels' ``AuthMiddlewareStack``
without the session middleware's hook on every message sent, and with the user itself
in the scope rather than a lazy object in front of it.

Channels' ``SessionMiddleware`` wraps the socket's ``send`` so that a message that
starts an HTTP response saves a modified session and sets its cookie.  A websocket
sends no such message, so it never saves; but every frame went through the wrapper,
which looked at the session twice through a lazy object (2% of a serving process's
CPU under load).  Here the session is the store of the socket's cookie, resolved
once as Channels' own does, and the server's ``send`` is the socket's: a consumer that
changes the session does not save it, as with Channels' middleware.

Channels' ``AuthMiddleware`` reads the user at once too, but leaves a lazy object in
``scope["user"]``: each read of it in a frame or a command (its id, whether it is
signed in) went through Django's proxy (15 of 982 samples of a serving process under
load, py-spy).
Here ``scope["user"]`` is what Channels' ``get_user`` returns: the ``User``, or an
``AnonymousUser``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.auth import get_user
from channels.sessions import CookieMiddleware
from django.conf import settings


class SocketSessionMiddleware:
    """``scope["session"]``: the session of the socket's cookie (not loaded until read)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        store = import_module(settings.SESSION_ENGINE).SessionStore
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner(dict(scope, session=store(key)), receive, send)


class SocketUserMiddleware:
    """``scope["user"]``: the user of the socket's session, read once as it connects."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        return await self.inner(dict(scope, user=await get_user(scope)), receive, send)


def socket_auth_stack(inner: Any) -> CookieMiddleware:
    """The cookies, the session and the user of a websocket, for ``inner``."""
    return CookieMiddleware(SocketSessionMiddleware(SocketUserMiddleware(inner)))
