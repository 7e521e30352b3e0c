"""Fragments rendered once and reused: by every viewer, version after version.

A table's frame is mostly public and mostly unchanged from the last version (the
line of tiles, the log's earlier lines, the score).  ``shared_html`` renders a
partial template with exactly the values it is given, so its HTML can only
depend on them (and on the language), and keeps the result per process keyed
by those values: the second viewer of a version, and every later version that
shows the same line or the same log line, reuse it.  Values must be hashable
(ints, strings, tuples such as the views' NamedTuples).

The table's live templates (``templates/regions/``) are Jinja2, rendered here
straight from that engine: they are rendered for every viewer at every version.
A shared region (``games.view.regions.SHARED``: the hand, the board, the scores)
is one such fragment of a few of the view's values (``region_html``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Iterator
from typing import Any

from django.http import HttpRequest
from django.template import engines
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from jinja2 import pass_context
from jinja2.runtime import Context

from games.view.parts import TableView
from games.view.regions import SHARED, drawn_fragment

#: Fragments a process keeps (the oldest go first): a few MB.
KEEP = 20_000

_kept: OrderedDict[Hashable, SafeString] = OrderedDict()
_lock = threading.Lock()


def shared_html(template: str, **values: Hashable) -> SafeString:
    """``template`` rendered with ``values`` alone, in the current language."""
    return _shared(template, get_language(), values)


def shared_in(language: str, template: str, **values: Hashable) -> SafeString:
    """``shared_html`` in ``language``."""
    return _shared(template, language, values)


@pass_context
def shared(context: Context, template: str, **values: Hashable) -> SafeString:
    """``{{ shared("games/_x.html", a=…) }}`` in a live template: ``shared_html`` in
    the language the template is being rendered in (set by ``render``; else the
    current one: a live template rendered through Django's loader)."""
    return _shared(template, context.get("language") or get_language(), values)


def _shared(template: str, language: str, values: dict[str, Hashable]) -> SafeString:
    # A frame looks up a few dozen fragments, so a hit is kept cheap: the values in
    # their call's order (a call site always passes them alike; another order is
    # only another entry), one lookup, no lock (a single dict operation is atomic
    # under the GIL), and no reordering: the oldest fragment goes first, not the
    # least recently used (a fragment still in use is rendered once more).
    key = (template, language, *values.items())
    html = _kept.get(key)
    if html is not None:
        return html
    drawn = drawn_fragment(template, values)
    if drawn is None:
        drawn = _render(template, values, language)
    return _keep(key, SafeString(drawn))  # a template's or a drawing's own (escaped) output


def _keep(key: Hashable, html: SafeString) -> SafeString:
    with _lock:
        _kept[_plain(key)] = html
        while len(_kept) > KEEP:
            _kept.popitem(last=False)
    return html


#: Values a kept key holds as they are: the collector never tracks them.
_ATOMS = frozenset({int, str, bool, float, type(None)})
#: Each class met in a key: ``tuple`` or ``str`` when its instances are kept as that
#: builtin (equal, with the same hash), else None (kept as they are).
_kinds: dict[type, type | None] = {}


def _plain(value: Any) -> Any:
    """``value`` with its named tuples and its strings as builtin tuples and strings: equal,
    with the same hash, so the kept key is found by ``value``.  CPython's collector stops
    tracking a builtin tuple of such values once it has seen it, so the kept keys leave
    its scans; it tracks every instance of a class for good, named tuples included.
    (A miss converts its key: atomic items are not visited, classes are looked at once.)"""
    kind = type(value)
    if kind in _ATOMS:
        return value
    plain = _kinds.get(kind, _kinds)
    if plain is _kinds:
        plain = _kinds[kind] = _plain_kind(kind)
    if plain is tuple:
        return tuple([item if type(item) in _ATOMS else _plain(item) for item in value])
    if plain is str:
        return str.__str__(value)  # an exact copy (a lazy text, an enumeration's member stay)
    return value


def _plain_kind(kind: type) -> type | None:
    if kind is tuple or (
        issubclass(kind, tuple) and kind.__hash__ is tuple.__hash__ and kind.__eq__ is tuple.__eq__
    ):
        return tuple
    if issubclass(kind, str) and kind.__hash__ is str.__hash__:
        return str
    return None


def keyed(template: str, key: Hashable, context: dict[str, Any], language: str) -> SafeString:
    """A region whose whole HTML ``key`` decides (``games.view.regions.KEYED``): rendered
    with ``context`` the first time it is asked for in ``language``, then looked up."""
    kept_as = (template, language, "keyed", key)
    html = _kept.get(kept_as)
    if html is not None:
        return html
    return _keep(kept_as, SafeString(_render(template, context, language)))


def render(template: str, context: dict[str, Any], request: HttpRequest | None = None) -> str:
    """One of the live templates, in the current language.  With the page's
    ``request``, its forms carry the CSRF token."""
    return _render(template, context, get_language(), request)


def render_in(language: str, template: str, context: dict[str, Any]) -> str:
    """One of the live templates, in ``language``."""
    return _render(template, context, language)


def render_each(templates: Iterable[str], context: dict[str, Any], language: str) -> Iterator[str]:
    """Each of ``templates`` (live templates) rendered with one ``context``, in
    ``language``: a frame's regions, with what they share looked up once.  Straight
    to Jinja2: Django's wrapper costs as much as a small region."""
    context = _in_language(context, language)
    env = engines["jinja2"].env  # type: ignore[attr-defined]
    for template in templates:
        yield env.get_template(template).render(context)


def _render(
    template: str, context: dict[str, Any], language: str, request: HttpRequest | None = None
) -> str:
    if request is None:
        return next(render_each((template,), context, language))
    context = _in_language(context, language)
    return engines["jinja2"].get_template(template).render(context, request=request)


def _in_language(context: dict[str, Any], language: str) -> dict[str, Any]:
    # The language a shared fragment is looked up in (the messages themselves follow
    # the language active while rendering: the caller's ``translation.override``).
    return {**context, "language": language}


def region_html(region: str, tv: TableView, language: str) -> SafeString:
    """A shared region's HTML for ``tv`` (``games.view.regions.SHARED``), in ``language``."""
    template, values = SHARED[region]
    return shared_in(language, template, **values(tv))


@pass_context
def region(context: Context, region: str, tv: TableView) -> SafeString:
    """``{{ region("games/_hand.html", tv) }}`` in the region's own template (the page)."""
    template, values = SHARED[region]
    return shared(context, template, **values(tv))


def forget() -> None:
    """Drop every kept fragment (tests that change templates or translations)."""
    with _lock:
        _kept.clear()
