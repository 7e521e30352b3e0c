"""Pages run on kept threads, each with its kept database connection.

Django's ASGI handler runs each request's views and middleware on a new thread of
its own (a ``ThreadSensitiveContext`` per request), so every page started a thread
and, on SQLite, opened a connection there (0.1 ms and 0.4 ms of a 4 ms page), left
for the collector when the thread ended.  Here each request gets an idle kept
thread instead — a new one only when every kept thread is busy, up to ``MOST``
at once (more pages wait for one) — and a thread keeps its connection from one
page to the next, as a threaded WSGI server's do.  The outermost context decides
the thread, so Django's own context inside follows it.

Only asgiref's documented API (``ThreadSensitiveContext(executor=…)``, asgiref
3.13).  Measured at 200 moves a second: without it the server held 250 MB more
(each page's thread and connection left for the collector) and its pages took
longer (docs/performance.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

# As Django's ASGIHandler types them.
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Idle threads kept for the next pages…
KEEP = 8
#: …and the most pages run at once (each on a thread of its own, with its connection).
MOST = 32


class PageThreads:
    def __init__(self, app: App, keep: int = KEEP, most: int = MOST) -> None:
        self.app = app
        self.keep = keep
        self.idle: list[ThreadPoolExecutor] = []  # touched on the event loop only
        self.running = asyncio.Semaphore(most)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        async with self.running:
            thread = self.idle.pop() if self.idle else ThreadPoolExecutor(1, "page")
            try:
                async with ThreadSensitiveContext(executor=thread):
                    await self.app(scope, receive, send)
            finally:
                if len(self.idle) < self.keep:
                    self.idle.append(thread)
                else:
                    thread.shutdown(wait=False)
