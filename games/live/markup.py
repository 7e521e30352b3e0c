"""What the table's live templates call on the site, beyond the drawing
(``games.view.templating.install``): the seats' boxes and the log's lines from
shared fragments, and countdowns from the server's clock."""

from __future__ import annotations

import functools
from datetime import datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from games.live.fragments import keyed, render_in, shared_in
from games.view.drawing import (
    head_html,
    host_controls_html,
    log_line_html,
    said_line,
    seat_box_html,
    seats_html,
    whole_seconds,
)
from games.view.parts import LogLine, SeatInfo, TableView
from games.view.regions import (
    HEAD_BODY,
    HEAD_TITLE,
    LOG_LINE,
    SAID,
    head_body,
    head_title,
)


def ms_until(moment: datetime | None) -> int:
    """Milliseconds from now until ``moment`` (0 if past): what a countdown starts from."""
    if moment is None:
        return 0
    return max(0, int((moment - timezone.now()).total_seconds() * 1000))


def seconds_until(moment: datetime | None) -> int:
    """Whole seconds left until ``moment``, rounded up: what a countdown shows first."""
    return whole_seconds(ms_until(moment))


def _language(context: Context) -> str:
    return context.get("language") or get_language()


def _seat_box(language: str, seat: SeatInfo, tv: TableView) -> Markup:
    """A seat's box at the table.  Its parts are shared fragments, each rendered once per
    process for what it shows: the label (alike on every screen that names the seat
    alike), the turn mark (by who plays, with the turn's countdown), the host's stand-in
    button (which sends the version).  Only the box around them is this screen's: its
    place at the table, "you", "partner"; built here, since a box rendered whole for
    every screen was a render per screen for each seat that changed."""
    parts = [shared_in(language, template, **values) for template, values in seat.fragments]
    if seat.is_turn:
        who = "you" if seat.is_you else "bot" if seat.is_bot else "person"
        clock_ms = ms_until(tv.turn_ends_at) if tv.turn_ends_at else None
        parts.append(shared_in(language, "games/_turn_mark.html", who=who, clock_ms=clock_ms))
    if (
        tv.is_host
        and tv.table.mode == "friends"
        and not (seat.is_you or seat.is_bot or seat.is_away or seat.is_free)
    ):
        parts.append(
            shared_in(language, "games/_stand_in.html", seat=seat.number, version=tv.version)
        )
    return seat_box_html(seat, parts)


@functools.lru_cache(maxsize=4096)
def _leave_url(code: str) -> str:
    return reverse("game_leave", args=[code])


def seats_in(language: str, tv: TableView) -> Markup:
    """The seats region (``games/_seats.html``) for ``tv``, in ``language``: drawn in
    Python around shared fragments, no template rendered (a frame's, for every viewer)."""
    boxes = [_seat_box(language, seat, tv) for seat in tv.seats] if tv.playing else []
    controls = ""
    if tv.playing and tv.table.mode == "friends" and not tv.match_over and tv.you is not None:
        leave = _leave_url(tv.table.code)
        controls = host_controls_html(is_host=tv.is_host, version=tv.version, leave_url=leave)
    return seats_html(tv, boxes=boxes, controls=controls)


@pass_context
def seats(context: Context, tv: TableView) -> Markup:
    """``{{ seats(tv) }}``: the seats region (``seats_in``)."""
    return seats_in(_language(context), tv)


def head_in(language: str, tv: TableView) -> Markup:
    """The table's head (``games/_head.html``) for ``tv``, in ``language``: drawn in Python
    around three looked-up fragments (the tab's title, what the screen reader is told,
    the title bar), no template rendered (a frame's, for every viewer)."""
    title = keyed(HEAD_TITLE, head_title(tv), {"tv": tv}, language)
    body = shared_in(language, HEAD_BODY, **head_body(tv))
    return head_html(tv, title=title, say=say_in(language, tv), body=body)


@pass_context
def head(context: Context, tv: TableView) -> Markup:
    """``{{ head(tv) }}``: the table's head (``head_in``)."""
    return head_in(_language(context), tv)


def say_in(language: str, tv: TableView) -> SafeString:
    """What the screen reader is told after a frame, in ``language``: its three parts
    (``games.view.regions.SAID``) on one line, each looked up by the values that decide it."""
    if not tv.playing:
        return SafeString("")
    return SafeString(said_line(tv, *(_said(language, template, tv) for template in SAID)))


@pass_context
def say(context: Context, tv: TableView) -> SafeString:
    """``{{ say(tv) }}``: what the screen reader is told (``say_in``)."""
    return say_in(_language(context), tv)


def log_line_in(language: str, line: LogLine) -> Markup:
    """A line of the log, in ``language``: what it says of the move rendered once per
    process for every seat's name (a new move adds one), the name drawn around it."""
    return log_line_html(line, shared_in(language, LOG_LINE, line=line.words))


@pass_context
def log_lines(context: Context, lines: tuple[LogLine, ...]) -> SafeString:
    """The log's lines (``log_line_in``)."""
    language = _language(context)
    return SafeString("".join(log_line_in(language, line) for line in lines))


def _said(language: str, template: str, tv: TableView) -> SafeString:
    """A part of what the screen reader is told (``games.view.regions.SAID``), looked up
    by the values that decide it, rendered the first time in ``language``; rendered each
    time when they do not."""
    key = SAID[template](tv)
    if key is None:
        return SafeString(render_in(language, template, {"tv": tv}))
    return keyed(template, key, {"tv": tv}, language)
