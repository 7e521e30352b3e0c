"""The translations of the table's live regions, rendered for every viewer at every
version, looked up once per render.  Written against Jinja2 3.1.6: they follow its
private ``jinja2.ext._make_new_gettext`` and ``_make_new_ngettext``
(tests/overrides/test_written_against.py fails when either changes).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup


def _percent(message: str, values: Mapping[str, Any]) -> str:
    return message % values


@functools.lru_cache(maxsize=32)
def gettext_callables(
    catalog: Any, fill: Callable[[str, Mapping[str, Any]], str] = _percent
) -> dict[str, Callable[..., str]]:
    """The gettext functions Jinja2's ``{% trans %}`` and ``_()`` call, for one catalog:
    as Jinja2's "new style" ones (``jinja2.ext._make_new_gettext``), but calling the
    catalog straight rather than through ``Context.call``, and formatting a message
    only when there is something to format (Jinja2's always do: ``%%`` becomes ``%``,
    which formatting a message with a ``%`` in it still does here).  ``fill`` formats
    a message with its values (``message % values`` unless the caller says otherwise:
    the site writes players' names with the language's rules)."""
    catalog_gettext, catalog_ngettext = catalog.gettext, catalog.ngettext

    @pass_context
    def gettext(__context: Context, __string: str, **variables: Any) -> str:
        rv = catalog_gettext(__string)
        if __context.eval_ctx.autoescape:
            rv = Markup(rv)
        return fill(rv, variables) if variables or "%" in rv else rv

    @pass_context
    def ngettext(
        __context: Context, __singular: str, __plural: str, __num: int, **variables: Any
    ) -> str:
        variables.setdefault("num", __num)
        rv = catalog_ngettext(__singular, __plural, __num)
        if __context.eval_ctx.autoescape:
            rv = Markup(rv)
        return fill(rv, variables)

    # ``_`` too: Jinja2's own ``_`` is an alias that looks ``gettext`` up and calls it
    return {"gettext": gettext, "ngettext": ngettext, "_": gettext}
