"""The Jinja2 environment of the table's live regions (``templates/live/``).

A table's regions are rendered for every viewer at every version, so they use the
faster of Django's two template engines; the rest of the site is Django templates.
Translations are Django's own (``{% trans %}`` and ``_()`` call its gettext in the
language active for the viewer), as are the helpers below.
"""

from __future__ import annotations

import types
from collections.abc import Callable, MutableMapping
from typing import Any

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from jinja2 import Environment, Undefined
from jinja2.runtime import Context
from jinja2.utils import _PassArg

from games import markup, regions
from games.fragments import shared


def url(name: str, *args: object) -> str:
    return reverse(name, args=args)


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


class _Environment(Environment):
    """Each template's globals as one plain dict: Jinja chains them to the
    environment's (``ChainMap``), and copying that chain into every render's
    context was most of a small template's time.  Every global is set before the
    first template loads."""

    context_class = _Context

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


def environment(**options: Any) -> Environment:
    # A missing value renders as "", as in a Django template, in debug too (Django
    # would pick DebugUndefined, which prints the expression).
    options["undefined"] = Undefined
    env = _Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        url=url,
        shared=shared,
        region=regions.region,
        ws_vals=markup.ws_vals,
        hand_tile=markup.hand_tile,
        placed_tile=markup.placed_tile,
        small_tile=markup.small_tile,
        tile_sprite=markup.tile_sprite,
        seat_box=markup.seat_box,
        log_lines=markup.log_lines,
        preset_title=markup.preset_title,
    )
    env.filters.update(
        backs=markup.backs,
        ms_until=markup.ms_until,
        seconds_until=markup.seconds_until,
        whole_seconds=markup.whole_seconds,
        percent_of=markup.percent_of,
        capfirst=capfirst,
    )
    return env
