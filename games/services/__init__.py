"""Writes: every change to a table goes through one of these functions."""

from .deals import client_seed_add
from .online import online_table_create
from .play import game_leave, hand_next, move_submit, seat_back, seat_hand_to_bot, table_end
from .stakes import AlreadySeated, open_stake_tables, stake_table_leave, stake_table_sit
from .tables import (
    invitation_accept,
    invitation_decline,
    table_cancel,
    table_create,
    table_fill_with_bots,
    table_invite,
    table_join,
    table_leave,
    table_rematch,
    table_set_bot,
    table_start,
    table_swap_seats,
)

__all__ = [
    "AlreadySeated",
    "client_seed_add",
    "game_leave",
    "hand_next",
    "invitation_accept",
    "invitation_decline",
    "move_submit",
    "online_table_create",
    "open_stake_tables",
    "seat_back",
    "seat_hand_to_bot",
    "stake_table_leave",
    "stake_table_sit",
    "table_cancel",
    "table_create",
    "table_end",
    "table_fill_with_bots",
    "table_invite",
    "table_join",
    "table_leave",
    "table_rematch",
    "table_set_bot",
    "table_start",
    "table_swap_seats",
]
