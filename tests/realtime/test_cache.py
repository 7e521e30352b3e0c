"""Whether the cache is this process's memory decides where presence is read and where a
frame is built; it is known once, and a change of the settings is heard."""

from __future__ import annotations

from django.test import override_settings

from realtime.cache import cache_is_local

SHARED_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def test_a_cache_shared_with_other_processes_is_not_taken_for_this_ones_memory() -> None:
    with override_settings(CACHES=LOCAL_CACHE):
        assert cache_is_local()
        with override_settings(CACHES=SHARED_CACHE):
            assert not cache_is_local()
        assert cache_is_local()
