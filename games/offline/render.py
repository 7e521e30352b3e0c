"""The table drawn by the site's own live templates (``templates/live/``), in the
browser: the Jinja2 environment of ``domino_site/jinja2.py`` with the offline
table's answers to what needs the server (addresses, shared fragments, clocks)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, FileSystemLoader, ModuleLoader, Undefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from accounts.names import fill
from games import drawing
from games.offline import stand_in
from games.presets import PRESET_INFO, describe_rules
from games.templating import LiveEnvironment
from games.viewparts import REGIONS, LogLine, SeatInfo
from overrides.jinja2 import gettext_callables

#: The page's regions, by id, and the live template that draws each (``_live.html``'s).
REGION_TEMPLATES = {
    "table-head": "games/_head.html",
    "lobby": "games/_lobby.html",
    "seats": "games/_seats.html",
    "board": "games/_board.html",
    "status": "games/_status.html",
    "hand": "games/_hand.html",
    "scores": "games/_scores.html",
    "log": "games/_log.html",
}


class Renderer:
    """The live templates from ``templates``, with the site's addresses ``urls``
    (name -> address, ``{}`` standing for an argument) in the active language."""

    def __init__(self, templates: Path, urls: Mapping[str, str]) -> None:
        self.urls = dict(urls)
        self._kept: dict[Hashable, Markup] = {}
        # compiled to Python at set-up (tools/build_offline.py), else read and compiled here
        compiled = templates.with_name(templates.name + "_compiled")
        loader: BaseLoader = (
            ModuleLoader(str(compiled)) if compiled.is_dir() else FileSystemLoader(str(templates))
        )
        env = LiveEnvironment(
            loader=loader,
            extensions=["jinja2.ext.i18n"],
            autoescape=True,
            undefined=Undefined,
            auto_reload=False,
        )
        env.install_gettext_callables(  # type: ignore[attr-defined]
            stand_in.gettext, stand_in.ngettext, newstyle=True
        )
        env.globals.update(
            url=self.url,
            shared=self.shared,
            region=self.region,
            ws_vals=drawing.ws_vals,
            hand_tile=drawing.hand_tile,
            placed_tile=drawing.placed_tile,
            small_tile=drawing.small_tile,
            tile_sprite=drawing.tile_sprite,
            seat_box=self.seat_box,
            log_lines=self.log_lines,
            preset_title=lambda preset: str(PRESET_INFO[preset].title),
            settings_fields=lambda rules: (),  # the stake tables' form: none offline
            describe_rules=describe_rules,
        )
        env.filters.update(
            backs=drawing.backs,
            ms_until=lambda moment: 0,  # no clocks offline
            seconds_until=lambda moment: 0,
            whole_seconds=drawing.whole_seconds,
            capfirst=lambda text: str(text)[:1].upper() + str(text)[1:],
        )
        self.env = env

    def url(self, name: str, *args: object) -> str:
        address = self.urls.get(name, "")
        for arg in args:
            address = address.replace("{}", str(arg), 1)
        return address

    def words(self) -> dict[str, Callable[..., str]]:
        return gettext_callables(stand_in.catalog(), fill=fill)

    def render(self, template: str, context: dict[str, Any]) -> str:
        language = stand_in.get_language()
        return self.env.get_template(template).render(
            {**context, "language": language, **self.words()}
        )

    def regions(self, tv: Any, names: tuple[str, ...] | None = None) -> dict[str, str]:
        """The page's regions for ``tv``, by id (all of them, or those ``names``)."""
        chosen = names or tuple(REGION_TEMPLATES)
        context = {"tv": tv, "language": stand_in.get_language(), **self.words()}
        return {
            name: self.env.get_template(REGION_TEMPLATES[name]).render(context) for name in chosen
        }

    def flash(self, message: str, kind: str = "error") -> str:
        return self.render("games/_flash.html", {"message": message, "kind": kind})

    # -- what the templates call ---------------------------------------------

    def _shared(self, template: str, values: dict[str, Hashable]) -> Markup:
        # As games.fragments: a fragment is rendered once for the values it shows.
        key = (template, stand_in.get_language(), *values.items())
        html = self._kept.get(key)
        if html is None:
            if len(self._kept) > 5000:
                self._kept.clear()
            html = self._kept[key] = Markup(self.render(template, values))
        return html

    @pass_context
    def shared(self, context: Context, template: str, **values: Hashable) -> Markup:
        return self._shared(template, values)

    @pass_context
    def region(self, context: Context, region: str, tv: Any) -> Markup:
        template, values = REGIONS[region]
        return self._shared(template, values(tv))

    @pass_context
    def seat_box(self, context: Context, seat: SeatInfo, tv: Any) -> Markup:
        # As games.markup.seat_box, at a table with no clock and no host's buttons.
        parts: list[str] = [self._shared("games/_seat_label.html", {"seat": seat.label})]
        if seat.is_turn:
            who = "you" if seat.is_you else "bot" if seat.is_bot else "person"
            parts.append(self._shared("games/_turn_mark.html", {"who": who, "clock_ms": None}))
        return drawing.seat_box_html(seat, parts)

    @pass_context
    def log_lines(self, context: Context, lines: tuple[LogLine, ...]) -> Markup:
        return Markup("".join(self._shared("games/_log_line.html", {"line": ln}) for ln in lines))
