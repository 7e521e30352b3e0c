"""Typed commands: the table played by words, as chess sites offer blind players.

``play 6 4 left``, ``draw``, ``pass``, ``next``, ``back`` go through the same services
as the table's buttons (a refused one changes nothing and says why); ``ends``,
``hand``, ``count``, ``line`` and ``help`` answer with a sentence of the table as text
(``games/_text_lines.html``, the sentences the text region shows).  English and
Italian words are both understood, whatever the page's language.
"""

from __future__ import annotations

import re
from typing import Any

from django.template import engines
from django.utils.translation import gettext as _

from accounts.models import User
from games import services
from games.selectors import table_view
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


def _words(text: str) -> list[str]:
    """Lower-case words; a tile written 6|4, 6-4, 6–4 or 64 becomes two numbers."""
    text = re.sub(r"(?<=\d)[|\-–/:](?=\d)", " ", text.lower())
    text = re.sub(r"\b([0-6])([0-6])\b", r"\1 \2", text)
    return re.findall(r"[\w?]+", text)


def _sentence(name: str, tv: TableView) -> str:
    lines = engines["jinja2"].env.get_template("games/_text_lines.html").module  # type: ignore[attr-defined]
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


def run_typed(*, table_id: int, user: User, text: str, version: int) -> str | None:
    """Run one typed command for ``user``; a sentence to tell them, if it is a question.
    A command that cannot be done raises ``GameError`` and changes nothing."""
    words = _words(text)
    if not words:
        raise GameError(_("Type a command, or help."))
    first, rest = words[0], words[1:]
    tv: Any = table_view(table=table_id, user=user)
    if first in TELL and not rest:
        return _sentence(TELL[first], tv)
    if first in DRAW | PASS and not rest:
        move = "draw" if first in DRAW else "pass"
        services.move_submit(table_id=table_id, user=user, move=move, version=version)
        return None
    if first in PLAY or (first.isdecimal() and len(words) >= 2):
        move = _play(tv, rest if first in PLAY else words)
        services.move_submit(table_id=table_id, user=user, move=move, version=version)
        return None
    if first in NEXT and not rest:
        services.hand_next(table_id=table_id, user=user, version=version)
        return None
    if first in BACK and not rest:
        services.seat_back(table_id=table_id, user=user)
        return None
    raise GameError(_("“%(text)s” is not a command: type help for the list.") % {"text": text[:40]})
