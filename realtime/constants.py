"""Numbers of the live connections, in one place: limits on websockets and their heartbeat."""

from __future__ import annotations

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
#: (realtime/slots.py: its place under the cap above, a waiting screen) and its player's
#: presence at a table…
WS_HEARTBEAT_SECONDS = 15.0
#: …and a slot not refreshed for this long is free again: a socket whose process died,
#: or whose clean-up failed, holds a player's place for under a minute, not for ever.
WS_SLOT_TTL = 45
#: The close code of a socket whose server is stopping (RFC 6455's "Service Restart",
#: domino_site/serve.py): htmx's websocket extension reconnects on it, and the table's
#: page says the server is restarting.
SERVICE_RESTART = 1012
