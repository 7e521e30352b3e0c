"""Writes on coins and XP.  ``post_transfer`` is the only way coins move."""

from .escrow import (
    pot_pay,
    pot_shares,
    stake_in_play,
    stake_refund,
    stake_sit,
    stakes_refund_all,
)
from .grants import adjust, bonus_day, daily_bonus, daily_key, grant_signup
from .ledger import escrow_of, house, post_transfer, wallet_of
from .rewards import base_reward, match_rewards, pay_match_rewards, seating_of
from .shop import PRODUCTS, active_percent, shop_buy

__all__ = [
    "PRODUCTS",
    "active_percent",
    "adjust",
    "base_reward",
    "bonus_day",
    "daily_bonus",
    "daily_key",
    "escrow_of",
    "grant_signup",
    "house",
    "match_rewards",
    "pay_match_rewards",
    "post_transfer",
    "pot_pay",
    "pot_shares",
    "seating_of",
    "shop_buy",
    "stake_in_play",
    "stake_refund",
    "stake_sit",
    "stakes_refund_all",
    "wallet_of",
]
