"""Pages on kept threads (domino_site/page_threads.py): a slow page holds up no other,
and no more than so many run at once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from asgiref.sync import sync_to_async

from domino_site.page_threads import PageThreads


async def test_pages_run_on_kept_threads_and_a_slow_page_holds_up_no_other() -> None:
    """Django's handler started a thread (and, on SQLite, a connection) per page."""
    ran_on: list[int] = []
    release = threading.Event()

    def view(slow: bool) -> None:
        ran_on.append(threading.get_ident())
        if slow:
            release.wait(10)

    async def django(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await sync_to_async(view, thread_sensitive=True)(scope.get("slow", False))  # as Django does

    pages = PageThreads(django, keep=2)
    await pages({"type": "http"}, None, None)
    await pages({"type": "http"}, None, None)
    assert ran_on[0] == ran_on[1]  # the second page on the first one's kept thread
    slow = asyncio.create_task(pages({"type": "http", "slow": True}, None, None))
    while len(ran_on) < 3:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(pages({"type": "http"}, None, None), timeout=5)  # not held up
    assert ran_on[3] != ran_on[2]
    release.set()
    await slow
    assert len(pages.idle) == 2  # both threads kept for the next pages, no more


async def test_no_more_pages_run_at_once_than_the_bound_and_the_next_waits_its_turn() -> None:
    running, most = 0, 0
    release = asyncio.Event()

    async def page(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await release.wait()
        running -= 1

    pages = PageThreads(page, keep=2, most=3)
    loads = [asyncio.create_task(pages({"type": "http"}, None, None)) for _ in range(5)]
    for _ in range(10):  # every load has had its turns of the loop: two wait for a thread
        await asyncio.sleep(0)
    assert running == 3
    release.set()
    await asyncio.gather(*loads)
    assert most == 3 and len(pages.idle) == 2
