"""A screen's frames: what one table page is sent when its table moves, as a function
of the viewer's view and of what that screen shows.  No socket here: the consumer
(``games.live.consumers``) keeps the socket's life and calls these.

A frame carries only the regions (``games.view.regions``) whose HTML differs from what
the screen was last sent, each swapped by its id; the log's new lines rather than the
whole log when the hand's log only grew on top; and the flash region emptied (a new
view clears a note).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.http import HttpRequest
from django.utils.safestring import SafeString

from games.live import fragments
from games.live.markup import head_in, log_line_in, seats_in
from games.view.parts import LogLine, TableView
from games.view.regions import (
    FLASH,
    KEYED,
    LOG,
    REGIONS,
    SEATS,
    SHARED,
    VIEW_REGIONS,
    changed,
)

#: The table page's layout of its regions.
PAGE = "games/_live.html"
#: Regions drawn in Python around looked-up fragments (their templates call the same):
#: new for every viewer at every version, so no template is rendered for them.
DRAWN = {REGIONS["table-head"]: head_in, SEATS: seats_in}
#: The view's regions when the log is sent as its new lines alone.
VIEW_REGIONS_BUT_LOG = tuple(region for region in VIEW_REGIONS if region != LOG)


class LogShown(NamedTuple):
    """The log a screen shows, as much of it as tells what a later view adds.

    A hand's log only grows on top: a move adds a line, or a draw is counted into
    the line on top; a line below changes only with a seat's name.  So the screen's
    log is known by its hand, its length, its top line and the names, not by every
    line: kept from one version to the next, every screen's lines were most of what
    the garbage collector went through under load."""

    hand: int
    lines: int
    top: LogLine | None
    names: tuple[str, ...]

    @classmethod
    def of(cls, tv: TableView) -> LogShown | None:
        if not tv.playing:
            return None
        top = tv.log[0] if tv.log else None
        return cls(tv.hand_number, len(tv.log), top, tuple(s.name for s in tv.seats))


@dataclass(frozen=True)
class Screen:
    """What one screen shows: each region's HTML as it was last sent, and its log;
    before its socket sent anything, the digest of each region the page drew
    (``drawn``): the first frame leaves those alone (a redrawn region would lose what
    the player was typing or pointing at)."""

    regions: Mapping[str, str] = field(default_factory=dict)
    log: LogShown | None = None
    drawn: Mapping[str, str] = field(default_factory=dict)

    def token(self) -> str:
        """Its regions' digests, in the page's order: what the page's first socket says
        it shows (``?shown=``)."""
        return ".".join(_digest(self.regions.get(region, "")) for region in REGIONS.values())

    @classmethod
    def drawn_by_page(cls, token: str) -> Screen:
        """The screen of a page whose first socket said ``token``; an unreadable token,
        an empty screen (the first frame then draws everything)."""
        digests = token.split(".")
        if len(digests) != len(REGIONS) or not all(_DIGEST.fullmatch(d) for d in digests):
            return cls()
        return cls(drawn=dict(zip(REGIONS.values(), digests, strict=True)))


#: a region's digest: 6 bytes of BLAKE2b, in URL-safe base64 (8 characters)
_DIGEST = re.compile(r"[A-Za-z0-9_-]{8}")


def _digest(html: str) -> str:
    raw = hashlib.blake2b(html.encode(), digest_size=6).digest()
    return base64.urlsafe_b64encode(raw).decode()


def page_screen(
    context: Mapping[str, Any], request: HttpRequest | None = None
) -> tuple[str, Screen]:
    """The table page's live part (``games/_live.html``: every region, in the page's
    layout) for ``context``'s view, and the screen it draws.  With the page's
    ``request``, its forms carry the CSRF token."""
    context = dict(context)
    regions = {r: SafeString(fragments.render(r, context, request)) for r in REGIONS.values()}
    return fragments.render(PAGE, {"regions": regions}), Screen(regions)


def view_frame(
    tv: TableView, screen: Screen, *, language: str, context: Mapping[str, Any]
) -> tuple[str, Screen]:
    """The HTML that brings ``screen`` to ``tv`` (in ``language``), and the screen after
    it.  ``context``: what the live templates read besides the view (the page's share
    address, the user).  Render inside ``translation.override(language)``."""
    lines = new_log_lines(tv, screen.log)
    regions = VIEW_REGIONS if lines is None else VIEW_REGIONS_BUT_LOG
    # the regions that are a shared fragment are looked up, so are those whose few
    # deciding values are known (KEYED); those DRAWN drawn; the others rendered
    context = {**context, "tv": tv}
    keys = {region: KEYED[region](tv) for region in regions if region in KEYED}
    templated = [r for r in regions if r not in SHARED and r not in DRAWN and keys.get(r) is None]
    rendered = fragments.render_each(templated, context, language)
    now: dict[str, str] = {FLASH: fragments.shared_in(language, FLASH)}
    for region in regions:
        if region in SHARED:
            now[region] = fragments.region_html(region, tv, language)
        elif region in DRAWN:
            now[region] = DRAWN[region](language, tv)
        elif keys.get(region) is not None:
            now[region] = fragments.keyed(region, keys[region], context, language)
        else:
            now[region] = next(rendered)
    sent = changed(now, screen.regions)
    if screen.drawn:
        sent = {r: html for r, html in sent.items() if screen.drawn.get(r) != _digest(html)}
    shown = {**screen.regions, **now}
    added = ""
    if lines:
        shown.pop(LOG, None)  # the screen's log is no longer the one last sent
        added = _log_lines_on_top(lines, language)
    return "".join(sent.values()) + added, Screen(shown, LogShown.of(tv))


def seats_frame(tv: TableView, screen: Screen, *, language: str) -> tuple[str, Screen]:
    """Someone came or went: the seats region alone, if it changed."""
    html = seats_in(language, tv)
    if screen.regions.get(SEATS) == html:
        return "", screen
    return html, Screen({**screen.regions, SEATS: html}, screen.log)


def flash_frame(
    screen: Screen, *, message: str, kind: str = "error", done: str | None = None
) -> tuple[str, Screen]:
    """A note over the page; ``done``: the command it answers, which succeeded.  The next
    view clears an error (the table has moved on); a note answering a command that
    worked stays its few seconds (table.js hides it) beside the frame that shows what the
    command did: as if the empty toast were shown."""
    html = fragments.render(FLASH, {"message": message, "kind": kind, "done": done})
    shown = html if done is None else fragments.shared_html(FLASH)
    return html, Screen({**screen.regions, FLASH: shown}, screen.log)


def new_log_lines(tv: TableView, shown: LogShown | None) -> tuple[LogLine, ...] | None:
    """The log's lines the screen does not show yet (() if none), for it to put on top of
    the lines it shows, rather than the whole log again: a frame would carry a line per
    move of the hand.  None: the log must be sent whole (another hand, a line that
    changed, such as a draw counted with the one before, or a seat renamed)."""
    now = LogShown.of(tv)
    if shown is None or now is None or (shown.hand, shown.names) != (now.hand, now.names):
        return None
    added = now.lines - shown.lines
    if added < 0 or not shown.lines or tv.log[added] != shown.top:
        return None  # the line that was on top changed: a draw counted in
    return tv.log[:added]


def _log_lines_on_top(lines: tuple[LogLine, ...], language: str) -> SafeString:
    """New log lines for the screen to put on top of the lines it shows: htmx's
    out-of-band ``afterbegin`` into the log's list."""
    html = "".join(log_line_in(language, line) for line in lines)
    return SafeString(f'<ol hx-swap-oob="afterbegin:#log-events">{html}</ol>')
