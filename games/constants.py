"""Product numbers for games in progress, in one place (shown to players where relevant)."""

from __future__ import annotations

#: A bot thinks for a random while in this range (seconds) before a choice…
BOT_DELAY = (0.8, 1.6)
#: …and less before a forced move (a draw, a pass, the only tile that fits).
BOT_FORCED_DELAY = (0.4, 0.8)
#: The next hand is dealt this long after a hand ends, unless a player asks sooner.
NEXT_HAND_DELAY = 20.0
#: The level of the bots a host adds when none is chosen.
DEFAULT_BOT_LEVEL = "medium"
#: Online tables: seconds a person has for each move (a setting of the table).
ONLINE_TURN_SECONDS = 20
#: A person's only possible move (one tile that fits, a draw, a pass) is played for them
#: after this pause, shown on their screen, unless they turned it off (any table, clock or
#: not; never within ``HAND_START_GRACE`` of the deal).
FORCED_PAUSE_SECONDS = 1.0
#: A hand's first move: the clock gives the whole turn plus this much (the player's page
#: may still be showing the table), however forced the opening; and the clock never
#: plays for anyone this soon after a hand is dealt.
HAND_START_GRACE = 3.0
#: After this many turns in a row played by the clock, the seat is away: a bot plays it.
AWAY_AFTER_TIMEOUTS = 2
#: The level of the bot that plays for a person whose time ran out, or who is away.
STAND_IN_BOT_LEVEL = "medium"
#: The turn clocks a host may give a friends' table (seconds; None: no clock).
TURN_CLOCK_CHOICES = (None, 20, 30, 60)
#: A game against the computer nobody has moved in for this long is closed as abandoned.
ABANDONED_AFTER_HOURS = 6
