"""The Jinja2 environment of the table's live regions (``templates/regions/``).

A table's regions are rendered for every viewer at every version, so they use the
faster of Django's two template engines; the rest of the site is Django templates.
Translations are Django's own (``{% trans %}`` and ``_()`` call its gettext in the
language active for the viewer).  What the templates call is one table for the site
and the offline table (``games.view.templating.install``): here, the site's answers.
"""

from __future__ import annotations

import functools
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext
from jinja2 import Environment, Undefined

from accounts import names
from games.forms import TableForm
from games.live import fragments, markup
from games.view import templating
from games.view.templating import RegionsEnvironment


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
    env = RegionsEnvironment(extensions=["jinja2.ext.i18n"], **options)
    templating.install_words(
        env, gettext=gettext, ngettext=ngettext, fill=names.fill, speaking=translation.override
    )
    templating.install(
        env,
        url=url,
        shared=fragments.shared,
        region=fragments.region,
        head=markup.head,
        seats=markup.seats,
        say=markup.say,
        log_lines=markup.log_lines,
        settings_fields=TableForm.fields_of,
        ms_until=markup.ms_until,
    )
    return env
