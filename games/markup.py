"""What the table's live templates call (``domino_site/jinja2.py``): tiles drawn as
inline SVG, crisp at any size (``games.drawing``); shared fragments; countdowns."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.safestring import SafeString
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from games.drawing import (  # the tiles and small parts, shared with the offline table
    backs,
    hand_tile,
    placed_tile,
    seat_box_html,
    small_tile,
    tile_sprite,
    tile_svg,
    whole_seconds,
    ws_vals,
)
from games.fragments import shared, shared_html
from games.presets import PRESET_INFO
from games.viewparts import LogLine, SeatInfo, TableView


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
    parts = [shared(context, "games/_seat_label.html", seat=seat.label)]
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


def new_log_lines(lines: tuple[LogLine, ...]) -> SafeString:
    """A frame's new log lines (current language), for the screen to put on top of
    the lines it shows: htmx's out-of-band ``afterbegin`` into the log's list."""
    html = "".join(shared_html(LOG_LINE, line=line) for line in lines)
    return SafeString(f'<ol hx-swap-oob="afterbegin:#log-events">{html}</ol>')


def preset_title(preset: str) -> str:
    """A preset's name, as the rules pages title it."""
    return str(PRESET_INFO[preset].title)


__all__ = [
    "backs",
    "hand_tile",
    "log_lines",
    "ms_until",
    "new_log_lines",
    "placed_tile",
    "preset_title",
    "seat_box",
    "seconds_until",
    "small_tile",
    "tile_sprite",
    "tile_svg",
    "whole_seconds",
    "ws_vals",
]
