"""What the table's live templates call (``domino_site/jinja2.py``): tiles drawn as
inline SVG, crisp at any size; shared fragments; a button's values; countdowns."""

from __future__ import annotations

import functools
import json
from datetime import datetime
from html import escape as escape_html

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from jinja2 import pass_context
from jinja2.runtime import Context

from games.engine import Placed, Tile
from games.fragments import shared, shared_html
from games.presets import PRESET_INFO
from games.selectors import LogLine, SeatInfo, TableView

# Pip centres in a 100×100 half whose long side runs vertically (a standing tile).
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((50, 50),),
    2: ((28, 28), (72, 72)),
    3: ((28, 28), (50, 50), (72, 72)),
    4: ((28, 28), (72, 28), (28, 72), (72, 72)),
    5: ((28, 28), (72, 28), (50, 50), (28, 72), (72, 72)),
    6: ((28, 24), (72, 24), (28, 50), (72, 50), (28, 76), (72, 76)),
}


def _pips(number: int, across: bool) -> str:
    dots = []
    for x, y in _PIPS[number]:
        px, py = (y, x) if across else (x, y)
        dots.append(f'<circle cx="{px}" cy="{py}" r="9"/>')
    return "".join(dots)


def _pip_id(number: int, across: bool) -> str:
    return f"pips-{'a' if across else 'u'}{number}"


#: A tile's face and the bar between its halves, lying (flat) and standing
#: (upright).  Their colours are CSS variables, which reach a ``<use>`` copy where
#: the page's selectors do not (``.placed.last`` sets them for the tile just played).
_FACE = 'style="fill: var(--tile-face); stroke: var(--tile-edge); stroke-width: 4"'
_BAR = 'style="stroke: var(--tile-bar); stroke-width: 4; stroke-linecap: round"'
_BODIES = {
    "flat": f'<rect x="3" y="3" width="194" height="94" rx="14" {_FACE}/>'
    f'<line x1="100" y1="14" x2="100" y2="86" {_BAR}/>',
    "upright": f'<rect x="3" y="3" width="94" height="194" rx="14" {_FACE}/>'
    f'<line x1="14" y1="100" x2="86" y2="100" {_BAR}/>',
}


@functools.lru_cache(maxsize=1)
def tile_sprite() -> SafeString:
    """The tiles' bodies and the pips of each number, drawn once on the table page: a
    tile refers to them (``<use>``) rather than drawing its own, which made a tile
    600 bytes and the tiles most of a frame's bytes."""
    bodies = "".join(f'<g id="tile-{kind}">{body}</g>' for kind, body in _BODIES.items())
    groups = "".join(
        f'<g id="{_pip_id(n, across)}">{_pips(n, across)}</g>'
        for across in (False, True)
        for n in range(1, 7)
    )
    return mark_safe(
        f'<svg class="tile-sprite" aria-hidden="true"><defs>{bodies}{groups}</defs></svg>'
    )


def _half(number: int, dx: int, dy: int, across: bool) -> str:
    if number == 0:
        return ""
    offset = f' x="{dx}"' if dx else f' y="{dy}"' if dy else ""
    return f'<use href="#{_pip_id(number, across)}"{offset}/>'


@functools.lru_cache(maxsize=512)  # 28 tiles, a few sizes and turns
def tile_svg(first: int, second: int, *, upright: bool, css: str = "") -> SafeString:
    """A tile with ``first`` on the left (or top, when ``upright``): the page's
    ``tile_sprite`` draws its body and its pips."""
    if upright:
        box, pips = "0 0 100 200", _half(first, 0, 0, False) + _half(second, 0, 100, False)
    else:
        box, pips = "0 0 200 100", _half(first, 0, 0, True) + _half(second, 100, 0, True)
    kind = "upright" if upright else "flat"
    return mark_safe(
        f'<svg class="tile {kind} {css}" viewBox="{box}" role="img" aria-label="{first}|{second}">'
        f'<use href="#tile-{kind}"/><g class="pips">{pips}</g></svg>'
    )


def placed_tile(placed: Placed) -> SafeString:
    """A tile of the line: lying along it, or crosswise for a double."""
    return tile_svg(placed.left, placed.right, upright=placed.is_double, css="on-line")


def hand_tile(tile: Tile, css: str = "") -> SafeString:
    """A tile standing in a hand (high half on top)."""
    return tile_svg(tile.high, tile.low, upright=True, css=css)


def small_tile(tile: Tile) -> SafeString:
    """A small flat tile for logs and results."""
    return tile_svg(tile.high, tile.low, upright=False, css="small")


def ws_vals(**values: object) -> SafeString:
    """The JSON a ws-send button sends, escaped for its hx-vals attribute."""
    return SafeString(escape_html(json.dumps(values)))  # as Django's escape, without its wrapper


def backs(count: int | None) -> SafeString:
    """The backs of ``count`` hidden tiles."""
    return SafeString("<i></i>" * (count or 0))


def ms_until(moment: datetime | None) -> int:
    """Milliseconds from now until ``moment`` (0 if past): what a countdown starts from."""
    if moment is None:
        return 0
    return max(0, int((moment - timezone.now()).total_seconds() * 1000))


def seconds_until(moment: datetime | None) -> int:
    """Whole seconds left until ``moment``, rounded up: what a countdown shows first."""
    return whole_seconds(ms_until(moment))


def whole_seconds(ms: int) -> int:
    """Milliseconds as the whole seconds a countdown shows first (rounded up)."""
    return -(-ms // 1000)


@pass_context
def seat_box(context: Context, seat: SeatInfo, tv: TableView) -> SafeString:
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
    classes = "".join(
        (
            f"seat pos-{seat.position}",
            " turn" if seat.is_turn else "",
            " you" if seat.is_you else "",
            " partner" if seat.is_partner else "",
        )
    )
    inside = "\n    ".join(parts)
    return SafeString(f'<div class="{classes}" data-seat="{seat.number}">\n    {inside}\n  </div>')


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


def percent_of(value: int, total: int) -> int:
    """``value`` as a whole percentage of ``total`` (a progress bar's width)."""
    return round(value / total * 100) if total else 0
