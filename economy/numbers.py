"""Every number of the coin economy, in one place, and shown on the rewards page.

These are product decisions (RULES.md §7 leaves them open); tests pin each one,
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
