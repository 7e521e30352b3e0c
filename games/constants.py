"""Product numbers for games in progress, in one place (shown to players where relevant)."""

from __future__ import annotations

#: A bot thinks for a random while in this range (seconds) before a choice…
BOT_DELAY = (0.8, 1.6)
#: …and less before a forced move (a draw, a pass, the only tile that fits).
BOT_FORCED_DELAY = (0.4, 0.8)
#: The next hand is dealt this long after a hand ends, unless a player asks sooner.
NEXT_HAND_DELAY = 20.0
#: How often each daphne process's game clock looks for due tables.
CLOCK_TICK = 0.2
#: The level of the bots a host adds when none is chosen.
DEFAULT_BOT_LEVEL = "medium"
