"""The region templates' translations (games.view.templating.install_words) render exactly
what stock Jinja2's new-style ones render, but for the players' names they fill."""

from __future__ import annotations

from typing import Any

import jinja2
import pytest
from django.template import engines
from django.utils import translation
from jinja2 import pass_context

from accounts.names import Who, fill

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
def test_the_region_templates_render_what_stock_jinja2_renders(source: str, language: str) -> None:
    ours = engines["jinja2"].env  # type: ignore[attr-defined]
    stock = jinja2.Environment(extensions=["jinja2.ext.i18n"], autoescape=ours.autoescape)
    stock.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext, translation.ngettext, newstyle=True
    )
    values = {"xs": [1, 2], "flag": "on", "who": who, "plain": plain}
    values |= {"caller": Caller(), "env_name": env_name}
    with translation.override(language):
        assert ours.from_string(source).render(values) == stock.from_string(source).render(values)


def test_players_names_are_written_as_the_language_writes_them() -> None:
    """Stock Jinja2 would write "Tocca a alice"; Italian writes "Tocca ad alice"."""
    ours = engines["jinja2"].env  # type: ignore[attr-defined]
    template = ours.from_string("{% trans name=who %}{{ name }} to play.{% endtrans %}")
    with translation.override("it"):
        assert template.render(who=Who(["alice"])) == "Tocca ad alice."


def test_a_sentence_kept_for_one_language_or_viewer_is_not_said_to_another() -> None:
    """A region's sentences are kept per its context's language and values: the same
    sentence said in Italian and in English, of a player and to that player, each
    comes out as a reader of that language must read it."""
    ours = engines["jinja2"].env  # type: ignore[attr-defined]
    template = ours.from_string("{% trans name=who %}{{ name }} to play.{% endtrans %}")
    said = {}
    for language in ("it", "en", "it"):
        with translation.override(language):
            for who in (Who(["alice"]), Who([translation.gettext("You")], you=0)):
                out = template.render(who=who, language=language)
                assert out == fill(translation.gettext("%(name)s to play."), {"name": who})
                said[language, who.you] = out
    assert said["it", -1] == "Tocca ad alice."
    assert len(set(said.values())) == 4


def test_a_region_says_its_own_language_even_when_another_is_active() -> None:
    """The kept sentence is made in the language the region is rendered in (its
    context's), not whichever happened to be active at the first miss."""
    ours = engines["jinja2"].env  # type: ignore[attr-defined]
    template = ours.from_string("{{ _('Sit here') }}")
    with translation.override("en"):
        italian = template.render(language="it")
    with translation.override("it"):
        assert template.render() == italian  # not kept: no language named, the active one
    with translation.override("en"):
        assert template.render() != italian
