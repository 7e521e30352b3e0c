"""Deleting a player's account.

The ``User`` row stays, anonymous: other players' games, replays, proofs and league
tables refer to it (``on_delete=PROTECT``), and must stay as they were played, with
the anonymous label ``deleted-<id>`` where the name was.  What identifies the
player goes: the name, the e-mail address, the password and every session.  Their
coins go to the house (``Account.Source.FORFEITED``) by one balanced transfer, keyed
``forfeit:<user id>``; what the ledger, the results and the league recorded stays.

Before that, nothing may be left waiting on the player: an open stake seat is
refunded (``stake_table_leave``), a friends' table they wait at is left (or, if they
host it, cancelled), their place in the online queue is given up, and their own
games against the computer are closed.  A player seated at a running table with
other people, or whose stake is in play at a running table, is refused: the game
needs them (or their stake) until it ends.

Lock order (``games.services.common``): the player's own lock first, then each
table and its seats (the services called take them), then the wallet, then the
player's row.
"""

from __future__ import annotations

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import DELETED_PREFIX, User
from accounts.services import lock_player
from economy.models import Account, Reason, StakeInPlay
from economy.services.ledger import house, post_transfer
from games import services as games
from games import states
from games.models import Seat, Table
from games.store import locked_table
from games.view.errors import GameError
from matchmaking.services import queue_leave


class AccountInUse(GameError):
    """The player is needed at a running table: deletion waits until it ends."""

    def __init__(self, message: str, table: Table) -> None:
        super().__init__(message)
        self.table = table


def deleted_label(user: User) -> str:
    """The anonymous name an account takes: ``deleted-<id>`` (reserved for sign-ups)."""
    return f"{DELETED_PREFIX}{user.pk}"


def running_table(user: User) -> AccountInUse | None:
    """Why the account cannot be deleted now, if it cannot: a running table where
    the player sits with other people, or where their stake is in play."""
    staked = (
        StakeInPlay.objects.filter(user=user, table__status=Table.Status.PLAYING)
        .select_related("table")
        .first()
    )
    if staked is not None:
        return AccountInUse(
            _(
                "Your stake is in play at a running table: you can delete your account "
                "once its match has ended."
            ),
            staked.table,
        )
    seat = (
        Seat.objects.filter(user=user, table__status=Table.Status.PLAYING)
        .exclude(table__mode=Table.Mode.COMPUTER)
        .select_related("table")
        .first()
    )
    if seat is not None:
        return AccountInUse(
            _(
                "You are playing at a table with other people: finish the game or leave "
                "it, then delete your account."
            ),
            seat.table,
        )
    return None


def _leave_waiting_tables(user: User) -> None:
    """Stand up from every table that has not started (a stake comes back)."""
    waiting = Seat.objects.filter(user=user, table__status=Table.Status.WAITING)
    for table_id in waiting.values_list("table_id", flat=True):
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING:
            continue
        if table.stake:
            games.stake_table_leave(table_id=table.pk, user=user, version=table.version)
        elif table.host_id == user.pk:
            games.table_cancel(table_id=table.pk, by=user, version=table.version)
        else:
            games.table_leave(table_id=table.pk, user=user, version=table.version)


def _close_computer_games(user: User) -> None:
    """The player's own running games against the computer end, nobody winning."""
    playing = Seat.objects.filter(
        user=user, table__status=Table.Status.PLAYING, table__mode=Table.Mode.COMPUTER
    )
    for table_id in playing.values_list("table_id", flat=True):
        games.computer_game_end(table_id=table_id, user=user)


def _forfeit_coins(user: User) -> None:
    wallet = (
        Account.objects.select_for_update()
        .filter(kind=Account.Kind.WALLET, user=user)
        .order_by("pk")
        .first()
    )
    if wallet is None or wallet.balance == 0:
        return
    post_transfer(
        key=f"forfeit:{user.pk}",
        reason=Reason.FORFEIT,
        legs=[(wallet, -wallet.balance), (house(Account.Source.FORFEITED), wallet.balance)],
        memo="account deleted",
    )


def _left_seats_renamed(user: User, label: str) -> None:
    """Seats the player left in games with friends carry their name for the computer
    that took over (``Seat.bot_name``, no link to the account): renamed.  Usernames
    are unique, so the seats left under this name are theirs (a guest's generated
    name is no one's and not unique: left as it is)."""
    if user.is_guest:
        return
    length = Seat._meta.get_field("bot_name").max_length
    Seat.objects.filter(left_hand__isnull=False, bot_name=user.display_name[:length]).update(
        bot_name=label[:length]
    )


@transaction.atomic
def account_delete(*, user: User) -> User:
    """Delete ``user``'s account as the module says (the caller checked the password).
    Raises ``AccountInUse`` while a running table needs the player."""
    lock_player(user)
    if User.objects.filter(pk=user.pk, deleted_at__isnull=False).exists():
        return User.objects.get(pk=user.pk)  # deleted meanwhile (a second click)
    refused = running_table(user)
    if refused is not None:
        raise refused
    _leave_waiting_tables(user)
    queue_leave(user=user)
    _close_computer_games(user)
    _forfeit_coins(user)
    player = User.objects.select_for_update().get(pk=user.pk)
    label = deleted_label(player)
    _left_seats_renamed(player, label)  # before the name goes
    player.username = label
    player.email = player.first_name = player.last_name = ""
    player.password = make_password(None)  # unusable: every session's auth hash is void
    player.is_active = player.is_staff = player.is_superuser = False
    player.is_guest, player.guest_tag = False, None
    player.deleted_at = timezone.now()
    player.save()
    player.groups.clear()
    player.user_permissions.clear()
    tables = set(Seat.objects.filter(user=player).values_list("table_id", flat=True))
    transaction.on_commit(lambda: _forget(tables))
    return player


def _forget(tables: set[int]) -> None:
    """This process's states of the player's tables hold the old name: read again."""
    for table_id in tables:
        states.forget(table_id)


def coins_held(user: User) -> int:
    """The coins the player would forfeit now."""
    wallet = Account.objects.filter(kind=Account.Kind.WALLET, user=user).first()
    return wallet.balance if wallet is not None else 0
