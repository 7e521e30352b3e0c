"""What the table's live templates call on the site, beyond the drawing
(``games.view.templating.install``): the seats' boxes and the log's lines from
shared fragments, and countdowns from the server's clock."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from games.live.fragments import keyed, render_in, shared
from games.view.drawing import seat_box_html, whole_seconds
from games.view.parts import LogLine, SeatInfo, TableView
from games.view.regions import SAID


def ms_until(moment: datetime | None) -> int:
    """Milliseconds from now until ``moment`` (0 if past): what a countdown starts from."""
    if moment is None:
        return 0
    return max(0, int((moment - timezone.now()).total_seconds() * 1000))


def seconds_until(moment: datetime | None) -> int:
    """Whole seconds left until ``moment``, rounded up: what a countdown shows first."""
    return whole_seconds(ms_until(moment))


@pass_context
def seat_box(context: Context, seat: SeatInfo, tv: TableView) -> Markup:
    """A seat's box at the table.  Its parts are shared fragments, each rendered once per
    process for what it shows: the label (alike on every screen that names the seat
    alike), the turn mark (by who plays, with the turn's countdown), the host's stand-in
    button (which sends the version).  Only the box around them is this screen's: its
    place at the table, "you", "partner"; built here, since a box rendered whole for
    every screen was a render per screen for each seat that changed."""
    parts = [shared(context, template, **values) for template, values in seat.fragments]
    if seat.is_turn:
        who = "you" if seat.is_you else "bot" if seat.is_bot else "person"
        clock_ms = ms_until(tv.turn_ends_at) if tv.turn_ends_at else None
        parts.append(shared(context, "games/_turn_mark.html", who=who, clock_ms=clock_ms))
    if (
        tv.is_host
        and tv.table.mode == "friends"
        and not (seat.is_you or seat.is_bot or seat.is_away or seat.is_free)
    ):
        parts.append(shared(context, "games/_stand_in.html", seat=seat.number, version=tv.version))
    return seat_box_html(seat, parts)


LOG_LINE = "games/_log_line.html"


@pass_context
def log_lines(context: Context, lines: tuple[LogLine, ...]) -> SafeString:
    """The log's lines, each rendered once per process (a new move adds one)."""
    return SafeString("".join(shared(context, LOG_LINE, line=line) for line in lines))


@pass_context
def said(context: Context, template: str, tv: TableView) -> SafeString:
    """``{{ said("games/_say_move.html", tv) }}``: a part of what the screen reader is
    told (``games.view.regions.SAID``), looked up by the values that decide it, rendered
    the first time in the template's language; rendered each time when they do not."""
    language = context.get("language") or get_language()
    key = SAID[template](tv)
    if key is None:
        return SafeString(render_in(language, template, {"tv": tv}))
    return keyed(template, key, {"tv": tv}, language)
