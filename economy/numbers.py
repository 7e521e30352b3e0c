"""Every number of the coin economy, in one place, and shown on the rewards page.

These are product decisions (docs/rules.md §7 leaves them open); tests pin each one,
so a change here is a change players will see.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

# Coins given once, when a guest claims an account or a player signs up.
SIGNUP_GRANT = 1000

# Coins for the daily bonus, once per calendar day in Italy.
DAILY_BONUS = 100
DAY_ZONE = ZoneInfo("Europe/Rome")

# Online rewards by final rank (rank 1 first), by seating.  "pairs" pays each
# partner the amount of their side's rank.
ONLINE_COINS: dict[str, tuple[int, ...]] = {
    "2": (60, 20),
    "3": (80, 40, 20),
    "4": (100, 60, 40, 20),
    "pairs": (80, 30),
}
ONLINE_XP: dict[str, tuple[int, ...]] = {
    "2": (30, 10),
    "3": (40, 20, 10),
    "4": (50, 30, 20, 10),
    "pairs": (40, 15),
}

# With friends only the winning side is paid, at this fraction of the online rate
# (rounded down); against the computer nothing is paid.
FRIENDS_RATE_NUMERATOR = 1
FRIENDS_RATE_DENOMINATOR = 2

# What each table mode pays: "online" every seat by rank, "friends" the winners
# at the friends' rate, anything else (the computer, stake tables, whose players
# win the pot) no house reward.
REWARDED_MODES = {"online": "every_rank", "friends": "winners_half"}

# The shop: a multiplier in percent on rewards and XP while the item is active.
# Neither ever multiplies a pot.  With both active, the larger one applies.
GOLD_BOOSTER_PRICE = 300
GOLD_BOOSTER_DURATION = timedelta(hours=24)
GOLD_BOOSTER_PERCENT = 150

VIP_PASS_PRICE = 1500
VIP_PASS_DURATION = timedelta(days=7)
VIP_PASS_PERCENT = 200

# Stakes a stake table may have, in coins.  The pot goes whole to the winning
# side; partners split it, an odd coin going to the lower seat number.
STAKES = (100, 250, 500, 1000)

# --- The weekly league (league app; docs/rules.md §7), shown on the league page. ---
# Weeks run Monday 00:00 to Sunday 24:00, Italian time.
LEAGUE_ZONE = ZoneInfo("Europe/Rome")

# League points by final rank (rank 1 first), by seating, for online matches
# only ("pairs": each partner gets their side's rank).  Against the computer and
# with friends: nothing.  People only, never bots or simulated players.
LEAGUE_POINTS: dict[str, tuple[int, ...]] = {
    "2": (20, 5),
    "3": (30, 15, 5),
    "4": (40, 25, 15, 5),
    "pairs": (30, 10),
}
# A room that had simulated players counts this percent (rounded down).
LEAGUE_SIMULATED_PERCENT = 50

# Divisions, lowest first: everybody starts in the first.  At the week's end
# the top LEAGUE_PROMOTED of each division go up (not from the highest) and
# the bottom LEAGUE_RELEGATED go down (not from the lowest), and a player of a
# higher division who played no league match that week goes down one.
LEAGUE_PROMOTED = 3
LEAGUE_RELEGATED = 3
# To go up or win a prize a player needs at least this many points in the week.
LEAGUE_MIN_POINTS = 40

# Coins for the top places of each division (rank 1 first), by division.
LEAGUE_PRIZES: tuple[tuple[int, ...], ...] = (
    (200, 100, 50),  # Bronze
    (400, 200, 100),  # Silver
    (800, 400, 200),  # Gold
    (1500, 800, 400),  # Diamond
)
