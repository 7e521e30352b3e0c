"""The rules of dominoes as a plain Python package: no Django in here.

The public names an outside harness relies on are re-exported here.
"""

from . import native

#: The compiled modules run (``make setup``), else their sources: decided before
#: anything below imports them.
COMPILED = native.use_current()

from .bots import make_bot
from .match import Match
from .moves import DRAW, PASS, Draw, Event, IllegalMoveError, Move, Pass, Play, parse_move
from .round import Round, find_opening
from .rules import PRESET_OPTIONS, PRESETS, Rules, offered_tables
from .scoring import RoundResult
from .tiles import ALL_TILES, Placed, Tile
from .view import PlayerView

__all__ = [
    "ALL_TILES",
    "DRAW",
    "PASS",
    "PRESETS",
    "PRESET_OPTIONS",
    "Draw",
    "Event",
    "IllegalMoveError",
    "Match",
    "Move",
    "Pass",
    "Placed",
    "Play",
    "PlayerView",
    "Round",
    "RoundResult",
    "Rules",
    "Tile",
    "find_opening",
    "make_bot",
    "offered_tables",
    "parse_move",
]
