"""Jinja2 made leaner for the table's live regions, rendered for every viewer at every
version.  Written against Jinja2 3.1.6: ``Context.call`` follows its source, and
``jinja2.utils._PassArg`` is private (tests/overrides/test_written_against.py fails
when either changes).  Measured: without these, the server's CPU at 200 moves a
second rose 15% (docs/performance.md).
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from jinja2.utils import _PassArg
from markupsafe import Markup


def _how_to_call(obj: Callable[..., Any]) -> tuple[Callable[..., Any], _PassArg | None]:
    """What Jinja2's ``Context.call`` decides for ``obj``: what to call, and what
    to pass it first (the context, for ``shared`` and the translations)."""
    if hasattr(obj, "__call__") and _PassArg.from_obj(obj.__call__) is not None:  # noqa: B004
        obj = obj.__call__
    return obj, _PassArg.from_obj(obj)


# Enum members, looked up once (each lookup through the enum class costs a call)
_PASS_CONTEXT, _PASS_EVAL_CONTEXT = _PassArg.context, _PassArg.eval_context
_PASS_ENVIRONMENT = _PassArg.environment
KEEP_CALLS = 1000
#: ``_how_to_call`` for plain functions, which live as long as the process (the
#: templates' globals, the translations); a template's macros are new each render.
_calls: dict[Callable[..., Any], tuple[Callable[..., Any], _PassArg | None]] = {}


class _Context(Context):
    """Jinja2's context, deciding how to call a plain function once rather than at
    every call, where Jinja2's asks twice (two attribute lookups that fail, each
    raising inside): a frame makes a few dozen calls."""

    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if type(__obj) is types.FunctionType:
            how = _calls.get(__obj)
            if how is None:
                if len(_calls) > KEEP_CALLS:  # never expected: a function made per render
                    _calls.clear()
                how = _calls[__obj] = _how_to_call(__obj)
        else:
            how = _how_to_call(__obj)
        target, pass_arg = how
        context: Context = __self
        if pass_arg is _PASS_CONTEXT:  # as Jinja2's own, from here on
            if kwargs.get("_loop_vars"):
                context = context.derived(kwargs["_loop_vars"])
            if kwargs.get("_block_vars"):
                context = context.derived(kwargs["_block_vars"])
            args = (context, *args)
        elif pass_arg is _PASS_EVAL_CONTEXT:
            args = (__self.eval_ctx, *args)
        elif pass_arg is _PASS_ENVIRONMENT:
            args = (__self.environment, *args)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return target(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


class LeanEnvironment(Environment):
    """Each template's globals as one plain dict: Jinja chains them to the
    environment's (``ChainMap``), and copying that chain into every render's
    context was most of a small template's time.  Every global is set before the
    first template loads."""

    context_class = _Context

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


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
