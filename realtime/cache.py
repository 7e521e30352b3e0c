"""The cache from an event loop: right here when it is this process's memory, else on
a thread of its own."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.dispatch import receiver

T = TypeVar("T")


@functools.cache
def cache_is_local() -> bool:
    """Whether the cache is this process's memory (the embedded default: no network).
    Asked at every frame, so known once: the settings say it (a test that changes them
    is heard)."""
    return isinstance(caches["default"], LocMemCache)


@receiver(setting_changed)
def _cache_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        cache_is_local.cache_clear()


async def in_cache(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``work`` on the cache: right here when the cache is this process's memory
    (microseconds: a hop to a thread costs more), else on a thread of its own, never
    queued behind the database thread's commands (a heartbeat per socket every 15 s)."""
    if cache_is_local():
        return work(*args, **kwargs)
    return await sync_to_async(work, thread_sensitive=False)(*args, **kwargs)
