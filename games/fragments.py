"""Fragments rendered once and reused: by every viewer, version after version.

A table's frame is mostly public and mostly unchanged from the last version (the
line of tiles, the log's earlier lines, the score).  ``shared_html`` renders a
partial template with exactly the values it is given, so its HTML can only
depend on them (and on the language), and keeps the result per process keyed
by those values: the second viewer of a version, and every later version that
shows the same line or the same log line, reuse it.  Values must be hashable
(ints, strings, tuples, frozen dataclasses).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from django.http import HttpRequest
from django.template import engines
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

#: Fragments a process keeps (the least recently used go first): a few MB.
KEEP = 20_000

_kept: OrderedDict[Hashable, SafeString] = OrderedDict()
_lock = threading.Lock()


def shared_html(template: str, **values: Hashable) -> SafeString:
    """``template`` rendered with ``values`` alone, in the current language."""
    key = (template, get_language(), tuple(sorted(values.items())))
    with _lock:
        html = _kept.get(key)
        if html is not None:
            _kept.move_to_end(key)
            return html
    html = mark_safe(render(template, values))  # a template's own (escaped) output
    with _lock:
        _kept[key] = html
        while len(_kept) > KEEP:
            _kept.popitem(last=False)
    return html


def render(template: str, context: dict[str, Any], request: HttpRequest | None = None) -> str:
    """One of the table's live templates (``templates/live/``, Jinja2), straight from
    its engine: these are rendered for every viewer at every version.  With the
    page's ``request``, its forms carry the CSRF token."""
    engine = engines["jinja2"]
    if request is None:  # straight to Jinja2: Django's wrapper costs as much as a small region
        return engine.env.get_template(template).render(context)  # type: ignore[attr-defined,no-any-return]
    return engine.get_template(template).render(context, request=request)


def forget() -> None:
    """Drop every kept fragment (tests that change templates or translations)."""
    with _lock:
        _kept.clear()
