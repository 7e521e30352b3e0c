"""Tiles drawn as inline SVG, and the small pieces of markup the table's live
templates call: plain Python (markupsafe, no Django), so the site's pages and the
offline table (``games/offline/``, run by the browser) draw a table alike."""

from __future__ import annotations

import functools
import json
from collections.abc import Hashable, Sequence
from html import escape as escape_html
from typing import Any, Protocol

from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_noop as noop
from markupsafe import Markup, escape

from games.engine import Placed, Tile
from games.view.snake import Snake, snake

#: The numbers as words, so that a screen reader says a tile ("six–four", not "6|4").
_NUMBERS = (
    noop("zero"),
    noop("one"),
    noop("two"),
    noop("three"),
    noop("four"),
    noop("five"),
    noop("six"),
)


#: Tiles' names by (language, first half, second half): a frame names every tile of
#: the line and the hand, and each name took two or three translations.
_names: dict[tuple[str | None, int, int], str] = {}

#: What the hand and the board say, by language, message and values: a frame says the
#: same few dozen sentences, and each translation looked the active language up again.
_sentences: dict[Hashable, Markup] = {}
#: Sentences kept at most (all dropped at once): there are a few hundred.
KEEP_SENTENCES = 10_000


def _say(language: str, message: str, plural: str = "", **values: int | str) -> Markup:
    """``message`` translated into ``language`` (the active language), ``plural`` its
    plural form chosen by ``values["n"]``, and filled with ``values`` (escaped)."""
    key = (language, message, *values.items())
    found = _sentences.get(key)
    if found is None:
        if len(_sentences) >= KEEP_SENTENCES:
            _sentences.clear()
        text = Markup(ngettext(message, plural, int(values["n"])) if plural else gettext(message))
        found = _sentences[key] = text % values if values else text
    return found


def tile_name(first: int, second: int, language: str | None = None) -> str:
    """A tile as it is said, in the active language (``language``, when the caller knows
    it already), halves in the order shown: "six–four", a double "double six"."""
    key = (language or get_language(), first, second)
    name = _names.get(key)
    if name is None:
        if first == second:
            name = gettext("double %(n)s") % {"n": gettext(_NUMBERS[first])}
        else:
            name = f"{gettext(_NUMBERS[first])}–{gettext(_NUMBERS[second])}"
        _names[key] = name
    return name


def said(tile: Tile) -> str:
    """A tile of a hand as it is said, high half first."""
    return tile_name(tile.high, tile.low)


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
#: (upright).  Their colours are CSS variables (site.css, ``.tile-face`` and
#: ``.tile-bar``), which reach a ``<use>`` copy where the page's selectors do not
#: (``.placed.last`` sets them for the tile just played).  Classes, not style
#: attributes: the pages' Content-Security-Policy allows no inline style.
_FACE = 'class="tile-face"'
_BAR = 'class="tile-bar"'
_BODIES = {
    "flat": f'<rect x="3" y="3" width="194" height="94" rx="14" {_FACE}/>'
    f'<line x1="100" y1="14" x2="100" y2="86" {_BAR}/>',
    "upright": f'<rect x="3" y="3" width="94" height="194" rx="14" {_FACE}/>'
    f'<line x1="14" y1="100" x2="86" y2="100" {_BAR}/>',
}


@functools.lru_cache(maxsize=1)
def tile_sprite() -> Markup:
    """The tiles' bodies and the pips of each number, drawn once on the table page: a
    tile refers to them (``<use>``) rather than drawing its own, which made a tile
    600 bytes and the tiles most of a frame's bytes."""
    bodies = "".join(f'<g id="tile-{kind}">{body}</g>' for kind, body in _BODIES.items())
    groups = "".join(
        f'<g id="{_pip_id(n, across)}">{_pips(n, across)}</g>'
        for across in (False, True)
        for n in range(1, 7)
    )
    defs = f"<defs>{bodies}{groups}</defs>"
    return Markup(f'<svg class="tile-sprite" aria-hidden="true">{defs}</svg>')


def _half(number: int, dx: int, dy: int, across: bool) -> str:
    if number == 0:
        return ""
    offset = f' x="{dx}"' if dx else f' y="{dy}"' if dy else ""
    return f'<use href="#{_pip_id(number, across)}"{offset}/>'


def tile_svg(
    first: int, second: int, *, upright: bool, css: str = "", language: str | None = None
) -> Markup:
    """A tile with ``first`` on the left (or top, when ``upright``): the page's
    ``tile_sprite`` draws its body and its pips; named in the active language."""
    return _tile_svg(first, second, upright, css, tile_name(first, second, language))


@functools.lru_cache(maxsize=2048)  # 28 tiles, a few sizes and turns, two languages
def _tile_svg(first: int, second: int, upright: bool, css: str, name: str) -> Markup:
    if upright:
        box, pips = "0 0 100 200", _half(first, 0, 0, False) + _half(second, 0, 100, False)
    else:
        box, pips = "0 0 200 100", _half(first, 0, 0, True) + _half(second, 100, 0, True)
    kind = "upright" if upright else "flat"
    return Markup(
        f'<svg class="tile {kind} {css}" viewBox="{box}" role="img" aria-label="{name}">'
        f'<use href="#tile-{kind}"/><g class="pips">{pips}</g></svg>'
    )


def placed_tile(placed: Placed, language: str | None = None) -> Markup:
    """A tile of the line: lying along it, or crosswise for a double."""
    return tile_svg(
        placed.left, placed.right, upright=placed.is_double, css="on-line", language=language
    )


def line_html(
    line: Sequence[Placed],
    last_kind: str | None,
    last_end: str | None,
    shown: Snake | None = None,
    language: str | None = None,
) -> Markup:
    """The line's tiles as one snake: each placed for every shape of board (``shown``:
    ``snake(line)``), the tile played last marked, then the open ends' marks."""
    shown, language = shown or snake(line), language or get_language()
    last = -1 if last_kind != "play" else len(line) - 1 if last_end == "right" else 0
    tiles = "".join(
        f'<span class="placed{" double" if placed.is_double else ""}'
        f'{" last" if n == last else ""} {shown.tiles[n]}" data-tile="{placed}">'
        f"{placed_tile(placed, language)}</span>"
        for n, placed in enumerate(line)
    )
    left, right = shown.ends
    return Markup(
        f'{tiles}\n  <span class="open-end {left}" data-end="left" aria-hidden="true">'
        f'{line[0].left}</span><span class="open-end {right}" data-end="right"'
        f' aria-hidden="true">{line[-1].right}</span>'
    )


def board_html(
    *,
    playing: bool,
    ends: tuple[int, int] | None,
    boneyard: int | None,
    draws: bool,
    hand_number: int,
    line: Sequence[Placed] | None,
    last_kind: str | None,
    last_end: str | None,
) -> Markup:
    """The board (``games/_board_body.html``): the open ends, the boneyard, the hand's
    number, and the line as a snake with a target over each open end (shown while the
    player to move has chosen a tile that fits both).  The same for every viewer; drawn
    here: it is drawn anew at every move of every table."""
    language = get_language()
    label = _say(language, "the line of tiles")
    if not playing:
        return Markup(f'<section id="board" class="board hidden" aria-label="{label}">\n</section>')
    said_ends = ""
    if ends:
        if ends[0] == ends[1]:
            said = _say(language, "Both ends: %(n)s", n=ends[0])
        else:
            said = _say(language, "Open ends: %(l)s and %(r)s", l=ends[0], r=ends[1])
        said_ends = f'<span class="ends">{said}</span>'
    pile = (
        _say(language, "Boneyard: %(n)s tile", "Boneyard: %(n)s tiles", n=boneyard or 0)
        if draws
        else _say(language, "%(n)s tile out of play", "%(n)s tiles out of play", n=boneyard)
        if boneyard
        else ""
    )
    numbered = _say(language, "Hand %(n)s", n=hand_number)
    info = (
        f'<div class="board-info">\n{said_ends}\n<span class="boneyard">{pile}</span>\n'
        f'<span class="hand-no">{numbered}</span>\n</div>'
    )
    last = f" last-{last_end or 'open'}" if last_kind == "play" else ""
    if line:
        shown = snake(line)
        targets = ""
        if ends and ends[0] != ends[1]:
            for end, mark in zip(("left", "right"), shown.ends, strict=True):
                named, arrow = _end_words(end, ends, language)
                targets += (
                    f'<button type="button" class="end-target {mark}" data-end="{end}"'
                    f' aria-label="{named}">{arrow}</button>'
                )
        tiles = line_html(line, last_kind, last_end, shown, language)
        drawn = f'<div class="snake {shown.line}">\n{tiles}\n{targets}\n</div>'
    else:
        empty = _say(language, "The line is empty: the first tile opens it.")
        drawn = f'<p class="empty-line">{empty}</p>'
    return Markup(
        f'<section id="board" class="board" aria-label="{label}">\n{info}\n'
        f'<div class="line{last}" data-tiles="{len(line or ())}">\n{drawn}\n</div>\n</section>'
    )


def hand_tile(tile: Tile, css: str = "", language: str | None = None) -> Markup:
    """A tile standing in a hand (high half on top)."""
    return tile_svg(tile.high, tile.low, upright=True, css=css, language=language)


def small_tile(tile: Tile) -> Markup:
    """A small flat tile for logs and results."""
    return tile_svg(tile.high, tile.low, upright=False, css="small")


def ws_vals(**values: object) -> Markup:
    """The JSON a ws-send button sends, escaped for its hx-vals attribute."""
    return Markup(escape_html(json.dumps(values)))


def hand_html(
    *,
    playing: bool,
    watching: bool,
    hand_over: bool,
    your_turn: bool,
    hand: Sequence[Any],
    ends: tuple[int, int] | None,
    draw_move: str | None,
    pass_move: str | None,
    version: int | None,
) -> Markup:
    """The viewer's tiles (``games/_hand_body.html``; ``hand``: ``games.view.parts.HandTile``
    each), a button for each move they allow, and the draw or the pass.  Drawn here: it
    is drawn anew whenever it is the viewer's turn (its buttons send the version)."""
    if not playing or (hand_over and not watching):
        return Markup('<section id="hand" class="hand-area hidden">\n</section>')
    language = get_language()
    if watching:
        watching_note = _say(language, "You are watching: players' tiles stay hidden.")
        inside = f'<p class="muted">{watching_note}</p>'
    else:
        tiles = "".join(_hand_tile_item(t, ends, version, language) for t in hand)
        actions = "\n".join(
            f'<button class="primary" id="{name}" ws-send'
            f" hx-vals='{_move_vals(move, version)}'>{label}</button>"
            for name, move, label in (
                ("draw", draw_move, _say(language, "Draw a tile")),
                ("pass", pass_move, _say(language, "Pass")),
            )
            if move
        )
        inside = (
            f'<h2 class="sr">{_say(language, "Your tiles")}</h2>\n'
            f'<ul class="my-tiles{" my-turn" if your_turn else ""}">{tiles}\n</ul>\n'
            f'<div class="actions">\n{actions}\n</div>'
        )
    return Markup(f'<section id="hand" class="hand-area">\n{inside}\n</section>')


def _hand_tile_item(
    tile: Any, ends: tuple[int, int] | None, version: int | None, language: str
) -> str:
    """One tile of the hand: a button that plays it, a choice of the ends it fits, or
    the tile alone when it fits nowhere."""
    drawn = hand_tile(tile.tile, language=language)
    name = tile_name(tile.tile.high, tile.tile.low, language)
    if tile.single_move:
        label = _say(language, "Play %(t)s", t=name)
        vals = _move_vals(tile.single_move, version)
        inner = (
            f'<button class="tile-button" ws-send hx-vals=\'{vals}\' aria-label="{label}">'
            f"{drawn}</button>"
        )
    elif tile.moves and ends:  # fits both ends (there are ends, then)
        label = _say(language, "Choose an end for %(t)s", t=name)
        choices = "".join(
            _end_button(end, move, ends, version, language) for end, move in tile.moves
        )
        inner = (
            f'<div class="tile-choice"><button type="button" class="tile-select"'
            f' aria-label="{label}">{drawn}</button>\n'
            f'<div class="ends-choice">{choices}</div>\n</div>'
        )
    else:
        inner = f'<span class="tile-still">{drawn}</span>'
    playable = " playable" if tile.moves else ""
    return f'\n<li class="my-tile{playable}" data-tile="{escape(str(tile.tile))}">\n{inner}\n</li>'


def _end_button(
    end: str, move: str, ends: tuple[int, int], version: int | None, language: str
) -> str:
    """A button that plays a tile on one end of the line (the number it shows, an arrow;
    its label says it whole): as narrow as the tile above it."""
    label, shown = _end_words(end, ends, language)
    return (
        f"\n<button class=\"small end-{end}\" ws-send hx-vals='{_move_vals(move, version)}'"
        f' aria-label="{label}">{shown}</button>\n'
    )


def _end_words(end: str, ends: tuple[int, int], language: str) -> tuple[Markup, str]:
    """What playing on ``end`` is called (a label), and what its button shows."""
    if end == "left":
        return _say(language, "Play on the left, on %(n)s", n=ends[0]), f"◀ {ends[0]}"
    return _say(language, "Play on the right, on %(n)s", n=ends[1]), f"{ends[1]} ▶"


def _move_vals(move: str, version: int | None) -> Markup:
    """What a move's button sends."""
    return ws_vals(action="move", move=move, version=version)


def backs(count: int | None) -> Markup:
    """The backs of ``count`` hidden tiles."""
    return Markup("<i></i>" * (count or 0))


def whole_seconds(ms: int) -> int:
    """Milliseconds as the whole seconds a countdown shows first (rounded up)."""
    return -(-ms // 1000)


class BoxedSeat(Protocol):
    """What a seat's box needs to know of the seat (``games.view.parts.SeatInfo``)."""

    @property
    def number(self) -> int: ...
    @property
    def position(self) -> str: ...
    @property
    def is_turn(self) -> bool: ...
    @property
    def is_you(self) -> bool: ...
    @property
    def is_partner(self) -> bool: ...


def seat_box_html(seat: BoxedSeat, parts: Sequence[str]) -> Markup:
    """A seat's box at the table around its ``parts`` (label, turn mark, buttons): its
    place at the table, "you", "partner"."""
    classes = "".join(
        (
            f"seat pos-{seat.position}",
            " turn" if seat.is_turn else "",
            " you" if seat.is_you else "",
            " partner" if seat.is_partner else "",
        )
    )
    inside = "\n    ".join(parts)
    return Markup(f'<div class="{classes}" data-seat="{seat.number}">\n    {inside}\n  </div>')


def head_html(tv: Any, *, title: str, say: str, body: str) -> Markup:
    """The table's head (``games/_head.html``): what table.js reads of the view (its
    version, the tab's title, whose turn, the last move, what the screen reader is told)
    around ``body``.  Drawn here: it is new for every viewer at every version.  ``title``,
    ``say`` and ``body`` are markup already (escaped)."""
    last = tv.last_move
    you = "" if tv.you is None else tv.you
    moved = (escape(last.key), last.kind, last.seat) if last else ("", "", "")
    return Markup(
        f'<section id="table-head" class="table-head" data-version="{tv.version}"\n'
        f'  data-title="{title}"\n'
        f'  data-your-turn="{1 if tv.your_turn else 0}"'
        f' data-hand-over="{1 if tv.hand_over else 0}"\n'
        f'  data-you="{you}" data-last-move="{moved[0]}" data-last-kind="{moved[1]}"'
        f' data-last-seat="{moved[2]}"\n'
        f'  data-say="{say}">\n  {body}\n</section>'
    )


def seats_html(tv: Any, *, boxes: Sequence[str], controls: str) -> Markup:
    """The seats round the table (``games/_seats.html``): each seat's box, and the
    friends' table's controls below them (``controls``, markup already); hidden until
    the game starts.  Drawn here: it is new for every viewer at every version."""
    players = tv.rules.players
    if not tv.playing:
        return Markup(f'<section id="seats" class="seats players-{players} hidden">\n</section>')
    inside = "".join(boxes)
    return Markup(
        f'<section id="seats" class="seats players-{players}">\n  {inside}\n  {controls}\n'
        "</section>"
    )


def host_controls_html(*, is_host: bool, version: int, leave_url: str) -> Markup:
    """Below the seats of a friends' table while its game is on: the host's "end the game"
    (it sends the version), and everybody's "leave the table" (an hx-post with the page's
    CSRF header, as a frame draws it too: the server sends the player home)."""
    language = get_language()
    end = ""
    if is_host:
        sure = _say(language, "End this game for everyone? Nobody wins it.")
        end = (
            f'<button class="link small" id="end-table" ws-send'
            f" hx-vals='{ws_vals(action='end', version=version)}' hx-confirm=\"{sure}\">"
            f"{_say(language, 'End the game')}</button>"
        )
    sure = _say(
        language,
        "Leave this game? The computer plays your seat from now on, and you cannot take it back.",
    )
    return Markup(
        f'<p class="host-controls">{end}\n<button class="link small" id="leave-game"'
        f' hx-post="{escape(leave_url)}" hx-confirm="{sure}">'
        f"{_say(language, 'Leave the table')}</button></p>"
    )


def said_line(tv: Any, move: str, turn: str, ends: str) -> str:
    """What the screen reader is told after a frame (table.js reads it from the head's
    ``data-say``), on one line: its parts (``games.view.regions.SAID``), markup already:
    the last move's words after the name of the seat that made it (the log's top line),
    or the hand's end; whose turn; the open ends."""
    top = tv.log[0] if tv.log else None
    said = f"{escape(top.name)}: {move}" if top is not None and move else ""
    return " ".join((said, turn, ends)).replace("\n", " ").strip()


def log_line_html(line: Any, words: str) -> Markup:
    """A line of the log (``games.view.parts.LogLine``): its seat's name as this viewer
    reads it, then ``words`` (markup: what the line says of the move, the same whoever
    made it, so kept by the move alone)."""
    return Markup(
        f'<li class="ev-{line.kind}"><span class="who">{escape(line.name)}</span>:\n'
        f"  {words}\n</li>"
    )
