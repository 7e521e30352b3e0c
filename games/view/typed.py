"""Typed commands read: the table played by words, as chess sites offer blind players.

``play 6 4 left``, ``draw``, ``pass``, ``next``, ``back`` become the move or the command
a button would send; ``ends``, ``hand``, ``count``, ``line`` and ``help`` a sentence of
the table as text (``games/_text_lines.html``, the sentences the text region shows).
English and Italian words are both understood, whatever the page's language.  One
reader for the site (``games.live.typing``, through its services) and the offline game
(``games.offline``): Django-free, bar the translations the offline shim answers.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from jinja2 import Environment

from games.view.drawing import said, tile_name
from games.view.errors import GameError
from games.view.parts import TableView

PLAY = {"play", "p", "gioca", "g"}
DRAW = {"draw", "pesca"}
PASS = {"pass", "passo", "passa"}
NEXT = {"next", "avanti", "prossima"}
BACK = {"back", "torno"}
LEFT = {"left", "l", "sinistra", "s", "sx"}
RIGHT = {"right", "r", "destra", "d", "dx"}
#: The words that answer with a sentence, and the sentence's macro.
TELL = {
    "ends": "ends",
    "estremità": "ends",
    "estremita": "ends",
    "hand": "hand",
    "tiles": "hand",
    "mano": "hand",
    "tessere": "hand",
    "count": "count",
    "conta": "count",
    "line": "line",
    "board": "line",
    "linea": "line",
    "help": "help",
    "aiuto": "help",
    "?": "help",
}


class Typed(NamedTuple):
    """What a typed command asks for."""

    kind: str  # "tell": a sentence; "move": a move; "next": the next hand; "back": I'm back
    value: str = ""  # the sentence's macro (tell), the move's text (move)


def _words(text: str) -> list[str]:
    """Lower-case words; a tile written 6|4, 6-4, 6–4 or 64 becomes two numbers."""
    text = re.sub(r"(?<=\d)[|\-–/:](?=\d)", " ", text.lower())
    text = re.sub(r"\b([0-6])([0-6])\b", r"\1 \2", text)
    return re.findall(r"[\w?]+", text)


def read_typed(tv: TableView, text: str) -> Typed:
    """What ``text``, typed by the player whose view is ``tv``, asks for; ``GameError``
    (saying why) for what is not a command or a move that cannot be made."""
    words = _words(text)
    if not words:
        raise GameError(_("Type a command, or help."))
    first, rest = words[0], words[1:]
    if first in TELL and not rest:
        return Typed("tell", TELL[first])
    if first in DRAW | PASS and not rest:
        return Typed("move", "draw" if first in DRAW else "pass")
    if first in PLAY or (first.isdecimal() and len(words) >= 2):
        return Typed("move", _play(tv, rest if first in PLAY else words))
    if first in NEXT and not rest:
        return Typed("next")
    if first in BACK and not rest:
        return Typed("back")
    raise GameError(_("“%(text)s” is not a command: type help for the list.") % {"text": text[:40]})


def sentence(env: Environment, name: str, tv: Any) -> str:
    """The table as text's sentence ``name`` (a macro of ``games/_text_lines.html``),
    rendered by ``env`` (the site's or the offline table's) for ``tv``."""
    lines = env.get_template("games/_text_lines.html").module
    macro = getattr(lines, name)
    return str(macro() if name == "help" else macro(tv)).strip()


def _play(tv: TableView, words: list[str]) -> str:
    """The move text for ``play a b [end]``, from the player's own legal moves."""
    numbers = [int(w) for w in words if w.isdecimal()]
    ends = [w for w in words if w in LEFT | RIGHT]
    rest = [w for w in words if not w.isdecimal() and w not in LEFT | RIGHT]
    if len(numbers) != 2 or not all(0 <= n <= 6 for n in numbers) or len(ends) > 1 or rest:
        raise GameError(_("Say the tile and the end, as in: play 6 4 left."))
    key = sorted(numbers)
    tile = next((h for h in tv.hand if sorted((h.tile.high, h.tile.low)) == key), None)
    if tile is None:
        raise GameError(_("You do not hold %(tile)s.") % {"tile": tile_name(key[1], key[0])})
    if not tv.your_turn:
        raise GameError(_("It is not your turn."))
    if not tile.moves:
        raise GameError(_("%(tile)s does not fit here.") % {"tile": said(tile.tile)})
    if not ends:
        if len(tile.moves) > 1:
            raise GameError(
                _("%(tile)s fits both ends: say left or right.") % {"tile": said(tile.tile)}
            )
        return tile.moves[0][1]
    end = "left" if ends[0] in LEFT else "right"
    move = dict(tile.moves).get(end)
    if move is None:
        where = _("on the left") if tile.moves[0][0] == "left" else _("on the right")
        raise GameError(
            _("%(tile)s fits only %(where)s.") % {"tile": said(tile.tile), "where": where}
        )
    return move
