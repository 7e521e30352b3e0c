"""The Jinja2 environment of the table's live templates (``templates/regions/``), and the
one table of what those templates call, for the site (``domino_site/jinja2.py``) and
the offline table (``games/offline/render.py``) alike.  No Django."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, MutableMapping
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from games.view import drawing
from games.view.presets import PRESET_INFO, describe_rules


class RegionsEnvironment(Environment):
    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain dict: the environment's, overlaid with the
        template's own.  Jinja2's ``ChainMap`` of the two is copied into every render's
        context key by key, each key first missed in the template's empty map: 6% of a
        server at 200 moves/s.  Jinja2 asks for no globals to change once a template is
        loaded (set them all first)."""
        return {**self.globals, **(d or {})}


def preset_title(preset: str) -> str:
    """A preset's name, as the rules pages title it."""
    return str(PRESET_INFO[preset].title)


def capfirst(text: object) -> str:
    """``text`` with its first letter in capitals (Django's filter of that name)."""
    words = str(text)
    return words[:1].upper() + words[1:]


def install(
    env: Environment,
    *,
    url: Callable[..., str],
    shared: Callable[..., Any],
    region: Callable[..., Any],
    head: Callable[..., Any],
    seats: Callable[..., Any],
    say: Callable[..., Any],
    log_lines: Callable[..., Any],
    settings_fields: Callable[[Any], Any],
    ms_until: Callable[[datetime | None], int],
) -> None:
    """Give ``env`` every global and filter the live templates call: the drawing's, and
    those the site and the offline table answer each their own way (addresses, shared
    fragments, the head and the seats, what the screen reader is told, the stake form's
    fields, clocks)."""
    env.globals.update(
        url=url,
        shared=shared,
        region=region,
        head=head,
        seats=seats,
        say=say,
        log_lines=log_lines,
        settings_fields=settings_fields,
        ws_vals=drawing.ws_vals,
        hand_body=drawing.hand_html,
        board_body=drawing.board_html,
        small_tile=drawing.small_tile,
        tile_said=drawing.said,
        tile_sprite=drawing.tile_sprite,
        preset_title=preset_title,
        describe_rules=describe_rules,
    )
    env.filters.update(
        ms_until=ms_until,
        seconds_until=lambda moment: drawing.whole_seconds(ms_until(moment)),
        backs=drawing.backs,
        whole_seconds=drawing.whole_seconds,
        capfirst=capfirst,
        tile_said=drawing.said,
        tile_of_line=lambda placed: drawing.tile_name(placed.left, placed.right),
    )


def install_words(
    env: Environment,
    *,
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    fill: Callable[[str, Mapping[str, Any]], str],
    speaking: Callable[[str], AbstractContextManager[Any]] | None = None,
) -> None:
    """The translations ``{% trans %}`` and ``_()`` call, as Jinja2's "new style" ones
    (``install_gettext_callables(..., newstyle=True)``) but filled by ``fill``: the site
    writes players' names with the language's rules (``accounts.names.fill``).
    ``gettext`` and ``ngettext`` translate into the language active when they are called
    (Django's own; the offline shim's in the browser); a message is formatted only when
    there is something to format, as Jinja2's own.

    ``speaking(language)``: a context in which they translate into ``language``.  With
    it, a sentence said in a render whose context names its ``language`` (every region
    does) is kept per language and values, made once in that language: a frame says
    the same few dozen sentences version after version, and each translation costs
    several look-ups of the active language."""
    said: dict[Hashable, str] = {}

    def kept(
        context: Context, message: str, variables: dict[str, Any], make: Callable[[], str]
    ) -> str:
        language = context.get("language")
        if speaking is None or not isinstance(language, str):
            return make()
        autoescape = context.eval_ctx.autoescape
        key = (
            (language, autoescape, message)
            if not variables
            else _sentence_key(language, autoescape, message, variables)
        )
        if key is None:
            return make()
        found = said.get(key)
        if found is None:
            if len(said) > KEEP_SENTENCES:
                said.clear()
            with speaking(language):
                found = said[key] = make()
        return found

    @pass_context
    def words(__context: Context, __string: str, **variables: Any) -> str:
        def make() -> str:
            rv = gettext(__string)
            if __context.eval_ctx.autoescape:
                rv = Markup(rv)
            return fill(rv, variables) if variables or "%" in rv else rv

        return kept(__context, __string, variables, make)

    @pass_context
    def nwords(
        __context: Context, __singular: str, __plural: str, __num: int, **variables: Any
    ) -> str:
        variables.setdefault("num", __num)

        def make() -> str:
            rv = ngettext(__singular, __plural, __num)
            if __context.eval_ctx.autoescape:
                rv = Markup(rv)
            return fill(rv, variables)

        return kept(__context, f"{__singular}\0{__plural}", variables, make)

    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(gettext=words, ngettext=nwords, _=words)


_PLAIN = frozenset({str, int, float, bool, type(None)})

#: Sentences kept per process (the oldest go all at once): a few MB.
KEEP_SENTENCES = 50_000


def _sentence_key(
    language: str, autoescape: bool, message: str, variables: dict[str, Any]
) -> Hashable | None:
    """What a sentence depends on, or None when that is not plain (a value that cannot
    be a key).  A value's type and its own attributes count: a
    ``Who`` is text that also knows which of the names is the viewer's."""
    parts: list[Any] = [language, autoescape, message]
    for name, value in variables.items():
        kind = type(value)
        if kind in _PLAIN:
            parts += (name, value)
        elif isinstance(value, str | int):  # Markup, a Who: text of a kind, and what it knows
            parts += (name, kind, value, *getattr(value, "__dict__", {}).items())
        else:
            return None
    try:
        key = tuple(parts)
        hash(key)
    except TypeError:
        return None
    return key
