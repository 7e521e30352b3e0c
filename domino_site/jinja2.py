"""The Jinja2 environment of the table's live regions (``templates/live/``).

A table's regions are rendered for every viewer at every version, so they use the
faster of Django's two template engines (its translations looked up once per render:
``overrides.jinja2``);
the rest of the site is Django templates.
Translations are Django's own (``{% trans %}`` and ``_()`` call its gettext in the
language active for the viewer), as are the helpers below.
"""

from __future__ import annotations

import functools
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from jinja2 import Environment, Undefined

from games import markup, regions
from games.describe import describe_rules
from games.forms import TableForm
from games.fragments import shared
from games.templating import LiveEnvironment


def url(name: str, *args: object) -> str:
    """``reverse``, remembered: a frame names the same few addresses of its table every
    time (the seats' "leave" button on every frame of a friends' game), and reversing
    one took a sixth of a frame's time."""
    return _reversed(get_script_prefix(), name, args)


@functools.lru_cache(maxsize=8192)
def _reversed(prefix: str, name: str, args: tuple[object, ...]) -> str:
    return reverse(name, args=args)  # under ``prefix``: the key tells a site's mounts apart


def environment(**options: Any) -> Environment:
    # A missing value renders as "", as in a Django template, in debug too (Django
    # would pick DebugUndefined, which prints the expression).
    options["undefined"] = Undefined
    env = LiveEnvironment(extensions=["jinja2.ext.i18n"], **options)
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
        settings_fields=TableForm.fields_of,
        describe_rules=describe_rules,
    )
    env.filters.update(
        backs=markup.backs,
        ms_until=markup.ms_until,
        seconds_until=markup.seconds_until,
        whole_seconds=markup.whole_seconds,
        capfirst=capfirst,
    )
    return env
