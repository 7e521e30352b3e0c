"""The table page's regions: the one list of them, and those that are one shared
fragment of a few of the view's values.

A region is an element of the table page, swapped by its id when a frame carries it
(htmx's out-of-band swap); its live template (``templates/regions/``) draws it, for the
page and for a frame alike.  The site's frames (``games.live.frames``) and the offline
table's (``games.offline.app``) send only the regions whose HTML changed
(``changed``).

A shared region (hand, board, scores) is drawn from a few of the view's values, the
same for every viewer who sees those values: a frame looks it up by them instead of
rendering its wrapper template for each viewer (``games.live.fragments``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from games.view import drawing

#: Every region of the table page, in the page's order: its element's id -> the live
#: template that draws it (``games/_live.html`` includes them all).
REGIONS: dict[str, str] = {
    "flash": "games/_flash.html",
    "table-head": "games/_head.html",
    "lobby": "games/_lobby.html",
    "seats": "games/_seats.html",
    "board": "games/_board.html",
    "status": "games/_status.html",
    "hand": "games/_hand.html",
    "text": "games/_text.html",
    "deal": "games/_deal.html",
    "scores": "games/_scores.html",
    "log": "games/_log.html",
    "options": "games/_options.html",
}
FLASH, SEATS, LOG = REGIONS["flash"], REGIONS["seats"], REGIONS["log"]
#: The regions a view draws (the flash region is a message, not the view).
VIEW_REGIONS = tuple(template for template in REGIONS.values() if template != FLASH)


def changed(now: Mapping[str, str], shown: Mapping[str, str]) -> dict[str, str]:
    """The regions of ``now`` whose HTML differs from what the screen ``shown``."""
    return {region: html for region, html in now.items() if shown.get(region) != html}


Values = dict[str, Hashable]


def _hand(tv: Any) -> Values:
    # the version only when there are buttons: an unchanged hand is the same fragment
    return {
        "playing": tv.playing,
        "watching": tv.watching,
        "hand_over": tv.hand_over,
        "your_turn": tv.your_turn,
        "hand": tv.hand,
        "ends": tv.move_ends,
        "draw_move": tv.draw_move,
        "pass_move": tv.pass_move,
        "version": tv.move_version,
    }


def _board(tv: Any) -> Values:
    # the same board for every viewer (the ends' targets are shown only while choosing)
    player, last = tv.player, tv.last_move
    return {
        "playing": tv.playing,
        "ends": player.ends if player else None,
        "boneyard": player.boneyard_count if player else None,
        "draws": tv.rules.draws,
        "hand_number": tv.hand_number,
        "line": player.line if player else None,
        "last_kind": last.kind if last else None,
        "last_end": last.end if last else None,
    }


def _deal(tv: Any) -> Values:
    # the hand's commitment, and the next one's for a seated player's browser to seed:
    # the same all hand long, so a frame carries this region once a hand
    return {
        "commitment": tv.deal.commitment if tv.playing else "",
        "next_commitment": tv.deal.next_commitment if tv.you is not None else "",
    }


def _scores(tv: Any) -> Values:
    return {
        "playing": tv.playing,
        "scores": tv.scores,
        "target": tv.rules.target,
        "summaries": tv.hand_summaries,
    }


#: region template -> the shared fragment it is, and the values that fragment shows
#: (from a view of the table: ``TableView``, the site's or the offline table's)
SHARED: dict[str, tuple[str, Callable[[Any], Values]]] = {
    "games/_hand.html": ("games/_hand_body.html", _hand),
    "games/_board.html": ("games/_board_body.html", _board),
    "games/_deal.html": ("games/_deal_body.html", _deal),
    "games/_scores.html": ("games/_score_body.html", _scores),
}
#: The shared fragments drawn in Python (their templates are one call of the same, for
#: the page): called straight, with the fragment's values, when one is not kept yet.
DRAWN_FRAGMENTS: dict[str, Callable[..., str]] = {
    "games/_hand_body.html": drawing.hand_html,
    "games/_board_body.html": drawing.board_html,
}


def drawn_fragment(template: str, values: Values) -> str | None:
    """A shared fragment's HTML for ``values`` when it is drawn in Python
    (``DRAWN_FRAGMENTS``); None when its template must be rendered."""
    draw = DRAWN_FRAGMENTS.get(template)
    return draw(**values) if draw is not None else None


#: The head's title bar (``games.view.drawing.head_html`` draws the head around it), and
#: the values it shows.
HEAD_BODY = "games/_head_body.html"


def head_body(tv: Any) -> Values:
    return {"mode": tv.mode_label, "rules": tv.rules, "stake": tv.table.stake, "pot": tv.pot}


#: The tab's title (the head's ``data-title``), and the few values that decide it.
HEAD_TITLE = "games/_head_title.html"


def head_title(tv: Any) -> Hashable:
    return (tv.your_turn, tv.table.stake, tv.pot, tv.mode_label)


#: A log line's words after its seat's name, kept by ``LogLine.words``.
LOG_LINE = "games/_log_line.html"


def _lobby(tv: Any) -> Hashable | None:
    # while a game is played (or over), the lobby is an empty hidden section
    return "hidden" if not tv.waiting and tv.table.status != "cancelled" else None


def _text(tv: Any) -> Hashable | None:
    # the table as text is drawn only for a player who chose it, during play
    return "hidden" if not (tv.text_mode and tv.playing) else None


def _options(tv: Any) -> Hashable | None:
    return (tv.plays_forced_moves, tv.text_mode, tv.match_over)


def _waiting(tv: Any) -> Hashable:
    # whose turn it is, the same for every viewer waiting on that player: a Who's words
    # are its names and the viewer's place in them
    who = tv.turn_name
    return ("waiting", who.names, who.you)


def _status(tv: Any) -> Hashable | None:
    # during a hand, without a countdown: whose turn it is, or what the viewer's turn
    # offers; the same for every viewer waiting on one player, turn after turn
    if not tv.playing:
        return "hidden"
    if tv.match_over or tv.result or tv.you_are_away:
        return None
    if not tv.your_turn:
        return _waiting(tv)
    if tv.forced_at or tv.turn_ends_at:
        return None  # counted down from the moment it is drawn
    return ("turn", bool(tv.player.ends), bool(tv.draw_move), bool(tv.pass_move))


#: region template -> the few view values that decide its whole HTML when they do (None:
#: they do not, render it): a frame looks such a region up, rendered once per language
#: and values, instead of rendering it for every viewer at every version
KEYED: dict[str, Callable[[Any], Hashable | None]] = {
    "games/_lobby.html": _lobby,
    "games/_text.html": _text,
    "games/_options.html": _options,
    "games/_status.html": _status,
}


def _say_move(tv: Any) -> Hashable | None:
    # the log's top line says it all, but for its seat's name (drawn around it): the
    # same words whoever made the move
    return ("move", tv.log[0].words if tv.log else None)


def _say_turn(tv: Any) -> Hashable | None:
    if tv.result:
        return None  # the hand's end: once a hand
    if tv.your_turn:
        return ("yours", bool(tv.draw_move), bool(tv.pass_move))
    return _waiting(tv)


def _say_ends(tv: Any) -> Hashable | None:
    return ("ends", tv.player.ends if tv.player and not tv.result else None)


#: The parts of what the screen reader is told after a frame (``games.live.markup.say_in``) ->
#: the few view values that decide each (None: they do not, render it).  Looked up like
#: ``KEYED``: the four players of a table are told the same turn and ends, and most
#: of them the same move, version after version.
SAID: dict[str, Callable[[Any], Hashable | None]] = {
    "games/_say_move.html": _say_move,
    "games/_say_turn.html": _say_turn,
    "games/_say_ends.html": _say_ends,
}
