"""The table drawn by the site's own live templates (``templates/regions/``), in the
browser: the Jinja2 environment of ``domino_site/jinja2.py`` with the offline
table's answers to what needs the server (addresses, shared fragments, clocks)."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, FileSystemLoader, ModuleLoader, Undefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from accounts.names import fill
from games.offline import django_shim
from games.view import drawing, templating
from games.view.parts import LogLine, SeatInfo
from games.view.regions import (
    FLASH,
    HEAD_BODY,
    HEAD_TITLE,
    LOG_LINE,
    REGIONS,
    SAID,
    SHARED,
    drawn_fragment,
    head_body,
)
from games.view.templating import RegionsEnvironment


class Renderer:
    """The live templates from ``templates``, with the site's addresses ``urls``
    (name -> address, ``{}`` standing for an argument) in the active language; its
    countdowns from ``clock`` (the page's: seconds since the epoch)."""

    def __init__(
        self, templates: Path, urls: Mapping[str, str], clock: Callable[[], float] = time.time
    ) -> None:
        self.urls = dict(urls)
        self.clock = clock
        self._kept: dict[Hashable, Markup] = {}
        # compiled to Python at set-up (tools/build_offline.py), else read and compiled here
        compiled = templates.with_name(templates.name + "_compiled")
        loader: BaseLoader = (
            ModuleLoader(str(compiled)) if compiled.is_dir() else FileSystemLoader(str(templates))
        )
        env = RegionsEnvironment(
            loader=loader,
            extensions=["jinja2.ext.i18n"],
            autoescape=True,
            undefined=Undefined,
            auto_reload=False,
        )
        templating.install_words(
            env, gettext=django_shim.gettext, ngettext=django_shim.ngettext, fill=fill
        )
        templating.install(
            env,
            url=self.url,
            shared=self.shared,
            region=self.region,
            head=self.head,
            seats=self.seats,
            say=self.say,
            log_lines=self.log_lines,
            settings_fields=lambda rules: (),  # the stake tables' form: none offline
            ms_until=self.ms_until,  # the player's forced move: the only clock offline
        )
        self.env = env

    def ms_until(self, moment: datetime | None) -> int:
        """Milliseconds from now until ``moment``; 0 once it is past."""
        if moment is None:
            return 0
        return max(0, round((moment.timestamp() - self.clock()) * 1000))

    def url(self, name: str, *args: object) -> str:
        address = self.urls.get(name, "")
        for arg in args:
            address = address.replace("{}", str(arg), 1)
        return address

    def render(self, template: str, context: dict[str, Any]) -> str:
        language = django_shim.get_language()
        return self.env.get_template(template).render({**context, "language": language})

    def regions(self, tv: Any) -> dict[str, str]:
        """The page's regions for ``tv`` (a view's: every one but the flash), by id."""
        context = {"tv": tv, "language": django_shim.get_language()}
        return {
            name: self.env.get_template(template).render(context)
            for name, template in REGIONS.items()
            if template != FLASH
        }

    def page(self, tv: Any) -> tuple[str, dict[str, str]]:
        """The page's live part (``games/_live.html``: every region in the page's layout)
        for ``tv``, and its view's regions by id (``regions``)."""
        shown = self.regions(tv)
        drawn = {REGIONS[name]: Markup(html) for name, html in shown.items()}
        drawn[FLASH] = Markup(self.flash(""))  # the empty toast
        return self.render("games/_live.html", {"regions": drawn}), shown

    def flash(self, message: str, kind: str = "error", done: str | None = None) -> str:
        return self.render(FLASH, {"message": message, "kind": kind, "done": done})

    # -- what the templates call ---------------------------------------------

    def _shared(self, template: str, values: dict[str, Hashable]) -> Markup:
        # As games.live.fragments: a fragment is rendered once for the values it shows.
        key = (template, django_shim.get_language(), *values.items())
        html = self._kept.get(key)
        if html is None:
            if len(self._kept) > 5000:
                self._kept.clear()
            drawn = drawn_fragment(template, values)
            if drawn is None:
                drawn = self.render(template, values)
            html = self._kept[key] = Markup(drawn)
        return html

    @pass_context
    def shared(self, context: Context, template: str, **values: Hashable) -> Markup:
        return self._shared(template, values)

    @pass_context
    def region(self, context: Context, region: str, tv: Any) -> Markup:
        template, values = SHARED[region]
        return self._shared(template, values(tv))

    def _seat_box(self, seat: SeatInfo) -> Markup:
        # As games.live.markup's, at a table with no clock and no host's buttons.
        parts: list[str] = [self._shared(template, values) for template, values in seat.fragments]
        if seat.is_turn:
            who = "you" if seat.is_you else "bot" if seat.is_bot else "person"
            parts.append(self._shared("games/_turn_mark.html", {"who": who, "clock_ms": None}))
        return drawing.seat_box_html(seat, parts)

    @pass_context
    def seats(self, context: Context, tv: Any) -> Markup:
        # As games.live.markup.seats_in; the friends' table's controls never show offline.
        boxes = [self._seat_box(seat) for seat in tv.seats] if tv.playing else []
        return drawing.seats_html(tv, boxes=boxes, controls="")

    @pass_context
    def head(self, context: Context, tv: Any) -> Markup:
        # As games.live.markup.head_in.
        title = Markup(self.render(HEAD_TITLE, {"tv": tv}))
        body = self._shared(HEAD_BODY, head_body(tv))
        return drawing.head_html(tv, title=title, say=self.say(context, tv), body=body)

    @pass_context
    def say(self, context: Context, tv: Any) -> Markup:
        # As games.live.markup.say_in, each part rendered each time: one table, one viewer.
        if not tv.playing:
            return Markup("")
        parts = (self.render(template, {"tv": tv}) for template in SAID)
        return Markup(drawing.said_line(tv, *parts))

    @pass_context
    def log_lines(self, context: Context, lines: tuple[LogLine, ...]) -> Markup:
        # As games.live.markup.log_line_in.
        return Markup(
            "".join(
                drawing.log_line_html(ln, self._shared(LOG_LINE, {"line": ln.words}))
                for ln in lines
            )
        )
