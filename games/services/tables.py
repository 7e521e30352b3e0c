"""Tables before play: creating, seating, inviting, starting."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import header
from accounts.models import User
from accounts.names import say
from accounts.selectors import player_by_username
from games.constants import DEFAULT_BOT_LEVEL, TURN_CLOCK_CHOICES
from games.engine import Match, Rules
from games.live import announce
from games.models import BotLevel, Invitation, Seat, Table
from games.store import Writing, changing
from games.view.bot_names import bot_name
from games.view.errors import GameError

from .deals import deal_hand
from .play import schedule


def _check_host(table: Table, user: User) -> None:
    _check_no_stake(table)
    if table.host_id != user.pk:
        raise GameError(_("Only the host can do that."))


def _check_no_stake(table: Table) -> None:
    """A stake table has no host and no free sitting: the stake moves with the seat."""
    if table.stake:
        raise GameError(
            _("At a stake table you sit and leave from the stake tables, where the stake is paid.")
        )


def _check_waiting(table: Table) -> None:
    if table.status != Table.Status.WAITING:
        raise GameError(_("The game has already started."))


def _check_bot_level(level: str) -> None:
    if level not in BotLevel.values:
        raise GameError(_("Unknown computer level."))


@transaction.atomic
def table_create(
    *,
    host: User,
    mode: str,
    rules: Rules,
    bot_level: str = DEFAULT_BOT_LEVEL,
    turn_seconds: int | None = None,
) -> Table:
    """A new table with the host in seat 0.  Against the computer the other
    seats are bots and the game starts at once.  Friends may play with a turn
    clock; online tables come from matchmaking (``online_table_create``)."""
    if mode not in (Table.Mode.COMPUTER, Table.Mode.FRIENDS):
        raise GameError(_("Unknown game mode."))
    clock_allowed = mode == Table.Mode.FRIENDS and turn_seconds in TURN_CLOCK_CHOICES
    if turn_seconds is not None and not clock_allowed:
        raise GameError(_("Choose one of the turn clocks offered."))
    _check_bot_level(bot_level)
    table = Table.objects.create(
        mode=mode,
        host=host,
        **Table.rules_fields(rules),
        bot_level=bot_level,
        turn_seconds=turn_seconds,
    )
    now = timezone.now()
    names: list[str] = []
    for number in range(rules.players):
        level = bot_level if number and mode == Table.Mode.COMPUTER else ""
        names.append(bot_name(level, taken=names))
        Seat.objects.create(
            table=table,
            number=number,
            user=host if number == 0 else None,
            bot_level=level,
            bot_name=names[-1],
            joined_at=now if number == 0 or mode == Table.Mode.COMPUTER else None,
        )
    if mode == Table.Mode.COMPUTER:
        with changing(table.pk) as writing:
            start(writing)
        return writing.table
    return table


@transaction.atomic
def table_join(
    *, table_id: int, user: User, version: int, seat_number: int | None = None
) -> Seat | None:
    """Take a free seat (the first one unless asked); None when the table is full,
    to watch instead.  Sitting again where you already sit changes nothing."""
    with changing(table_id, version) as writing:
        if not writing.table.seats.filter(user=user).exists():
            _check_no_stake(writing.table)
        return _take_seat(writing, user, seat_number)


def _take_seat(writing: Writing, user: User, seat_number: int | None = None) -> Seat | None:
    """``table_join`` on a table already locked (None: full, or sitting there already
    and nothing changed)."""
    table = writing.table
    seats = list(table.seats.all())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None:
        writing.unchanged()
        return mine
    _check_waiting(table)
    free = [s for s in seats if s.is_free]
    if seat_number is not None:
        free = [s for s in free if s.number == seat_number]
        if not free:
            raise GameError(_("That seat is taken."))
    if not free:
        writing.unchanged()
        return None
    seat = free[0]
    seat.user = user
    seat.joined_at = timezone.now()
    seat.save()
    if table.invitations.filter(to_user=user, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.ACCEPTED
    ):
        header.changed([user.pk])
    return seat


@transaction.atomic
def table_leave(*, table_id: int, user: User, version: int) -> None:
    """Leave a seat before the game starts (the host cancels the table instead)."""
    with changing(table_id, version) as writing:
        table = writing.table
        _check_no_stake(table)
        _check_waiting(table)
        if table.host_id == user.pk:
            raise GameError(_("The host cannot leave: cancel the table instead."))
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise GameError(_("You are not sitting at this table."))
        seat.user = None
        seat.joined_at = None
        seat.save()


@transaction.atomic
def table_swap_seats(*, table_id: int, by: User, a: int, b: int, version: int) -> None:
    """The host arranges the seats (who partners whom in 4-player games)."""
    with changing(table_id, version) as writing:
        _swap(writing.table, by, a, b)


def _swap(table: Table, by: User, a: int, b: int) -> None:
    _check_host(table, by)
    _check_waiting(table)
    seats = {s.number: s for s in table.seats.all()}
    if a not in seats or b not in seats or a == b:
        raise GameError(_("Choose two different seats."))
    first, second = seats[a], seats[b]
    moved = (first.user_id, first.bot_level, first.bot_name, first.joined_at)
    first.user_id, first.bot_level, first.bot_name, first.joined_at = (
        second.user_id,
        second.bot_level,
        second.bot_name,
        second.joined_at,
    )
    second.user_id, second.bot_level, second.bot_name, second.joined_at = moved
    # Two unique seats swap users: park one first so the constraint never sees a duplicate.
    parked_user = first.user_id
    first.user_id = None
    first.save()
    second.save()
    first.user_id = parked_user
    first.save()


@transaction.atomic
def table_set_bot(*, table_id: int, by: User, seat_number: int, level: str, version: int) -> None:
    """The host puts a bot on a free seat, changes its level, or ('' level) removes it."""
    with changing(table_id, version) as writing:
        _set_bot(writing.table, by, seat_number, level)


def _set_bot(table: Table, by: User, seat_number: int, level: str) -> None:
    _check_host(table, by)
    _check_waiting(table)
    if level:
        _check_bot_level(level)
    seats = list(table.seats.all())
    seat = next((s for s in seats if s.number == seat_number), None)
    if seat is None or seat.user_id is not None:
        raise GameError(_("That seat is taken."))
    if level != seat.bot_level:  # a new level is a new player, with a name of its own
        seat.bot_name = bot_name(level, taken=[s.bot_name for s in seats if s is not seat])
    seat.bot_level = level
    seat.joined_at = timezone.now() if level else None
    seat.save()


@transaction.atomic
def table_fill_with_bots(*, table_id: int, by: User, level: str, version: int) -> None:
    """The host fills every empty seat with bots of one level."""
    with changing(table_id, version) as writing:
        _fill(writing.table, by, level)


def _fill(table: Table, by: User, level: str) -> None:
    _check_host(table, by)
    _check_waiting(table)
    _check_bot_level(level)
    seats = list(table.seats.all())
    free = [s for s in seats if s.user_id is None and not s.bot_level]
    if not free:
        raise GameError(_("There is no empty seat."))
    names = [s.bot_name for s in seats if s.bot_name]
    for seat in free:
        names.append(bot_name(level, taken=names))
        seat.bot_level, seat.bot_name, seat.joined_at = level, names[-1], timezone.now()
        seat.save(update_fields=["bot_level", "bot_name", "joined_at"])


@transaction.atomic
def table_start(*, table_id: int, by: User, version: int) -> None:
    """The host starts the game once every seat has a player or a bot."""
    with changing(table_id, version) as writing:
        table = writing.table
        _check_host(table, by)
        _check_waiting(table)
        if any(s.is_free for s in table.seats.all()):
            raise GameError(_("Every seat needs a player or a bot before the game starts."))
        start(writing)


def start(writing: Writing) -> None:
    """Deal the first hand (inside the table's door)."""
    table = writing.table
    rules = table.rules
    first, hand = deal_hand(
        table, rules, number=0, dealer=secrets.randbelow(table.players), opener=None
    )
    match = Match(rules, rounds=[first])
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    _invitations_closed(table)
    writing.next_version()  # what comes next is due at that version
    schedule(table, match, list(table.seats.order_by("number")), dealt=hand.created_at)


@transaction.atomic
def table_rematch(*, table_id: int, by: User) -> Table:
    """Once a game is over, a player asks for the next one with the same settings.

    The first to ask opens it; with friends, everyone who asks sits again in the
    seat they had (bots keep theirs), and it starts by itself once all the
    players are back — or the host fills the empty seats with bots."""
    with changing(table_id) as writing:
        return _rematch(writing, by)


def _rematch(writing: Writing, by: User) -> Table:
    table = writing.table
    if table.status != Table.Status.FINISHED:
        raise GameError(_("The game is not over yet."))
    old_seats = list(table.seats.order_by("number"))
    mine = next((s for s in old_seats if s.user_id == by.pk), None)
    if table.rematch is not None:
        writing.unchanged()  # the rematch is, not this table
        if table.mode == Table.Mode.FRIENDS and mine is not None:
            _rejoin(table.rematch.pk, by, mine.number, old_seats)
        return table.rematch
    if mine is None:
        raise GameError(_("Only players at the table can ask for a rematch."))
    if table.mode == Table.Mode.ONLINE:
        raise GameError(_("For another online game, join the queue again."))
    rematch = table_create(
        host=by,
        mode=table.mode,
        rules=table.rules,
        bot_level=table.bot_level,
        turn_seconds=table.turn_seconds,
    )
    if table.mode == Table.Mode.FRIENDS:
        with changing(rematch.pk) as opened:
            _same_company(rematch, old_seats, host_seat=mine.number)
            _start_if_all_back(opened, old_seats)
    table.rematch = rematch
    return rematch


def _same_company(rematch: Table, old_seats: list[Seat], *, host_seat: int) -> None:
    """The host back in their old seat, the bots in theirs (level and name); the seat of
    a friend who left the game is free again (it was the computer under their name)."""
    seats = {s.number: s for s in rematch.seats.all()}
    now = timezone.now()
    if host_seat != 0:
        seats[host_seat].user, seats[host_seat].joined_at = seats[0].user, now
        seats[0].user, seats[0].joined_at = None, None
        seats[0].save()
        seats[host_seat].save()
    for old in old_seats:
        if old.is_bot and not old.has_left:
            seat = seats[old.number]
            seat.bot_level, seat.bot_name, seat.joined_at = old.bot_level, old.bot_name, now
            seat.save()


def _rejoin(rematch_id: int, user: User, number: int, old_seats: list[Seat]) -> None:
    """Sit ``user`` in their old seat at the rematch; start it when all are back.
    (Lock order: the old table, then the rematch, always in that order.)"""
    with changing(rematch_id) as writing:
        rematch = writing.table
        if rematch.status != Table.Status.WAITING:
            writing.unchanged()
            return
        seats = {s.number: s for s in rematch.seats.all()}
        mine = any(s.user_id == user.pk for s in seats.values())
        if seats[number].is_free:
            _take_seat(writing, user, number)
        elif not mine:
            _take_seat(writing, user)  # someone took their seat: any free one
        else:
            writing.unchanged()
            return
        _start_if_all_back(writing, old_seats)


def _start_if_all_back(writing: Writing, old_seats: list[Seat]) -> None:
    seats = list(writing.table.seats.all())
    players = {s.user_id for s in old_seats if s.user_id is not None}
    seated = {s.user_id for s in seats if s.user_id is not None}
    if players <= seated and not any(s.is_free for s in seats):
        start(writing)


@transaction.atomic
def table_cancel(*, table_id: int, by: User, version: int) -> None:
    """The host closes a table nobody has started playing."""
    with changing(table_id, version) as writing:
        table = writing.table
        _check_host(table, by)
        _check_waiting(table)
        writing.close(Table.Status.CANCELLED, timezone.now())
        _invitations_closed(table)


def _invitations_closed(table: Table) -> None:
    """The table no longer waits: its pending invitations leave their invitees' badges."""
    if table.mode == Table.Mode.FRIENDS:  # the only tables that take invitations
        pending = table.invitations.filter(status=Invitation.Status.PENDING)
        header.changed(pending.values_list("to_user_id", flat=True))


@transaction.atomic
def table_invite(*, table_id: int, by: User, username: str, version: int) -> Invitation:
    """Invite a registered player by username; they are told at once."""
    with changing(table_id, version) as writing:
        return _invite(writing.table, by, username)


def _invite(table: Table, by: User, username: str) -> Invitation:
    if not table.seats.filter(user=by).exists():
        raise GameError(_("Only players at the table can invite."))
    _check_waiting(table)
    if table.mode != Table.Mode.FRIENDS:
        raise GameError(_("Only tables with friends take invitations."))
    invitee = player_by_username(username=username, registered_only=True)
    if invitee is None:
        raise GameError(
            _(
                "No player is called “%(name)s”. Guests have no username: "
                "send them the table's link."
            )
            % {"name": username.strip()}
        )
    if invitee.pk == by.pk:
        raise GameError(_("You are already at this table."))
    if table.seats.filter(user=invitee).exists():
        raise GameError(say(_("%(name)s is already at this table."), name=invitee.display_name))
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(table=table, from_user=by, to_user=invitee)
    except IntegrityError:
        raise GameError(
            say(_("%(name)s has already been invited."), name=invitee.display_name)
        ) from None
    announce.user_invited(user_id=invitee.pk)
    header.changed([invitee.pk])
    return invitation


def _invitation_table_id(invitation_id: int, user: User) -> int:
    """The invitation's table, read without a lock: the table is locked first."""
    table_id = (
        Invitation.objects.filter(pk=invitation_id, to_user=user)
        .values_list("table_id", flat=True)
        .first()
    )
    if table_id is None:
        raise GameError(_("This invitation is not for you."))
    return table_id


def _locked_invitation(invitation_id: int, user: User, table: Table) -> Invitation:
    """The invitation, locked after its table (the global lock order), and re-checked."""
    invitation = (
        Invitation.objects.select_for_update()
        .filter(pk=invitation_id, to_user=user, table=table)
        .first()
    )
    if invitation is None:
        raise GameError(_("This invitation is not for you."))
    return invitation


@transaction.atomic
def invitation_accept(*, invitation_id: int, user: User) -> Seat | None:
    """The invitee takes a seat (None when the table is full: they watch).
    Only a pending invitation can be accepted; accepting twice changes nothing."""
    with changing(_invitation_table_id(invitation_id, user)) as writing:
        invitation = _locked_invitation(invitation_id, user, writing.table)
        if invitation.status == Invitation.Status.DECLINED:
            raise GameError(_("You declined this invitation."))
        if invitation.status == Invitation.Status.ACCEPTED:
            seat = writing.table.seats.filter(user=user).first()
            if seat is None:
                raise GameError(_("You have already answered this invitation."))
            writing.unchanged()
            return seat
        return _take_seat(writing, user)


@transaction.atomic
def invitation_decline(*, invitation_id: int, user: User) -> None:
    """The invitee says no; the host sees it."""
    with changing(_invitation_table_id(invitation_id, user)) as writing:
        invitation = _locked_invitation(invitation_id, user, writing.table)
        if invitation.status != Invitation.Status.PENDING:
            writing.unchanged()
            return
        invitation.status = Invitation.Status.DECLINED
        invitation.save()
        header.changed([user.pk])
