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
#: Online tables: seconds a person has for each move (a setting of the table).
ONLINE_TURN_SECONDS = 20
#: With a turn clock, a forced move (the only one possible) is played after this long.
FORCED_MOVE_SECONDS = 2.0
#: After this many turns in a row played by the clock, the seat is away: a bot plays it.
AWAY_AFTER_TIMEOUTS = 2
#: The level of the bot that plays for a person whose time ran out, or who is away.
STAND_IN_BOT_LEVEL = "medium"
#: The turn clocks a host may give a friends' table (seconds; None: no clock).
TURN_CLOCK_CHOICES = (None, 20, 30, 60)
#: Websocket commands per connection: a token bucket of this many at once…
WS_COMMAND_BURST = 10
#: …refilled at this many per second; a command beyond it gets "slow down".
WS_COMMANDS_PER_SECOND = 5.0
#: After this many commands in a row refused for speed, the socket is closed (code 4429).
WS_FLOOD_CLOSE_AFTER = 20
#: The longest command frame read (characters); a longer one is refused unread.
WS_MAX_FRAME_CHARS = 2048
#: Open websockets per signed-in session (per address for visitors without one).
WS_CONNECTIONS_PER_SESSION = 12
WS_CONNECTIONS_PER_ADDRESS = 60
#: Every open websocket beats this often (seconds): it refreshes the slots it holds
#: (games/slots.py: its place under the cap above, a waiting screen) and its player's
#: presence at a table…
WS_HEARTBEAT_SECONDS = 15.0
#: …and a slot not refreshed for this long is free again: a socket whose process died,
#: or whose clean-up failed, holds a player's place for under a minute, not for ever.
WS_SLOT_TTL = 45
#: A game against the computer nobody has moved in for this long is closed as abandoned.
ABANDONED_AFTER_HOURS = 6
