"""The live regions' Jinja2 environment renders exactly what stock Jinja2 renders: its
translations (overrides/jinja2.py) change nothing a player reads."""

from __future__ import annotations

from typing import Any

import jinja2
import pytest
from django.template import engines
from django.utils.translation import trans_real
from jinja2 import pass_context
from jinja2.ext import _make_new_gettext, _make_new_ngettext

from overrides.jinja2 import gettext_callables as _words

TEMPLATES = [
    '{{ _("Your turn") }}',
    '{{ _("Sit here") }}|{{ _("100%% fair") }}|{{ _("<b>not markup</b>") }}',
    "{% trans n=3 %}Hand {{ n }}{% endtrans %}",
    "{% trans n=1 %}{{ n }} tile{% pluralize n %}{{ n }} tiles{% endtrans %}",
    "{% trans n=5 %}{{ n }} tile{% pluralize n %}{{ n }} tiles{% endtrans %}",
    '{% trans name="<i>Anna</i>" %}{{ name }} to play.{% endtrans %}',
    "{% for x in xs %}{{ who(x) }}{% endfor %}",
    "{% for x in xs %}{% set y = x * 2 %}{{ who(y) }}{% endfor %}",
    "{{ plain(1, b=2) }}|{{ caller(3) }}|{{ env_name() }}",
]


@pass_context
def who(context: Any, value: object) -> str:
    """Sees the context as the template has it where it is called (a loop's variables too)."""
    return f"[{value}:{context.get('x')}:{context.get('y')}:{context.get('flag')}]"


def plain(a: int, b: int) -> str:
    return f"{a}+{b}"


class Caller:
    @pass_context
    def __call__(self, context: Any, n: int) -> str:
        return f"<{n}:{context.get('flag')}>"


@jinja2.pass_environment
def env_name(environment: Any) -> str:
    return str(environment.autoescape)


@pytest.mark.parametrize("language", ["it", "en"])
@pytest.mark.parametrize("source", TEMPLATES)
def test_the_live_engine_renders_what_stock_jinja2_renders(source: str, language: str) -> None:
    catalog = trans_real.translation(language)
    ours = engines["jinja2"].env  # type: ignore[attr-defined]
    stock = jinja2.Environment(extensions=["jinja2.ext.i18n"], autoescape=ours.autoescape)
    stock.install_gettext_callables(  # type: ignore[attr-defined]
        catalog.gettext, catalog.ngettext, newstyle=True
    )
    values = {"xs": [1, 2], "flag": "on", "who": who, "plain": plain}
    values |= {"caller": Caller(), "env_name": env_name}
    expected = stock.from_string(source).render(values)
    assert ours.from_string(source).render({**values, **_words(catalog)}) == expected


def test_the_live_translations_are_jinja2s_own_for_every_message_format() -> None:
    catalog = trans_real.translation("it")
    stock = {"gettext": _make_new_gettext(catalog.gettext)}
    stock["ngettext"] = _make_new_ngettext(catalog.ngettext)
    env = jinja2.Environment(autoescape=True)
    for message in ("Your turn", "50%% off", "<b>", ""):
        template = env.from_string("{{ gettext(m) }}|{{ ngettext(m, m, 2) }}")
        assert template.render(m=message, **_words(catalog)) == template.render(m=message, **stock)
