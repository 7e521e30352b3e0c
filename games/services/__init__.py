"""Writes: every change to a table goes through one of these functions, and each of
them through the table's one door (``games.store.changing``: the lock at the
command's version, the next version, the viewers told after the commit).

**The lock order**, everywhere (services, the deadline worker, matchmaking,
the ledger): a player's own row (``accounts.services.lock_player``: their queue
joins and stake sits), then a matchmaking pool's or a stake setting's row, then
the table, its seats, invitations, tickets, the league's week row, then wallets
and other ledger accounts (in primary-key order), then players' rows (XP), then
their ratings (``ratings.Rating``, in user-id order).  A
service that needs a row of a later kind locks the earlier kinds first, even
when it only found the table through that row (``invitation_decline`` reads
the invitation's table id without a lock, locks the table, then the
invitation).  Two transactions taking the same rows in the same order never
deadlock on PostgreSQL.  A deadline row is locked after its subject
(``deadlines.services.still_due``), and nothing slow — a bot thinking — runs
while any of these locks is held.
"""

from .deals import client_seed_add
from .online import online_table_create
from .play import (
    computer_game_end,
    forced_moves_choose,
    game_leave,
    hand_next,
    move_submit,
    seat_back,
    seat_hand_to_bot,
    table_end,
    text_mode_choose,
)
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
    "computer_game_end",
    "forced_moves_choose",
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
    "text_mode_choose",
]
