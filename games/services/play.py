"""Games in progress: moves by people, bots and the turn clock; the next hand.

Every change happens under the table's row lock, checked by the engine, and is
stored in the same transaction; viewers hear of it only after the commit.
What happens next at a table — a bot's move, a turn's time running out, the
next hand — is one deadline row (``deadlines.services``), replaced at every change
and applied by the worker.  A bot (or the clock playing for someone) decides
from the view at version v *before* the lock is taken, then applies its move
only if the table is still at v; otherwise it decides again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from deadlines import rows as deadline_rows
from deadlines.models import Deadline
from deadlines.services import handles, set_deadline, still_due
from games import rows, signals, states
from games.constants import (
    ABANDONED_AFTER_HOURS,
    AWAY_AFTER_TIMEOUTS,
    BOT_DELAY,
    BOT_FORCED_DELAY,
    HAND_START_GRACE,
    NEXT_HAND_DELAY,
    STAND_IN_BOT_LEVEL,
)
from games.engine import IllegalMoveError, Match, Move, parse_move
from games.engine import thinking as engine_thinking
from games.forced import forced_delay, only_move
from games.history.coach import review_later
from games.kinds import BOT_MOVE, FORCED_MOVE, NEXT_HAND, TURN_CLOCK
from games.models import Hand, Seat, SeatResult, Table
from games.models import Move as StoredMove
from games.records import load_match
from games.store import Writing, changing, check_version, private_copy
from games.thinking import think
from games.view.errors import GameError, illegal_move_message

from .deals import deal_hand

#: The deadline kinds that drive play; a table has at most one of them at a time.
PLAY_KINDS = (BOT_MOVE, TURN_CLOCK, FORCED_MOVE, NEXT_HAND)
Actor = StoredMove.Actor


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.order_by("number"))


def _next_action(
    table: Table, match: Match, seats: list[Seat], now: datetime, dealt: datetime | None
) -> tuple[str, datetime] | None:
    """What the worker must do next at this table, and when (None: wait for a person).
    ``dealt``: when the hand being played was dealt (None: now)."""
    if match.over:
        return None
    current = match.round
    if current.over:
        return NEXT_HAND, now + timedelta(seconds=NEXT_HAND_DELAY)
    seat = seats[current.turn]
    forced = only_move(current) is not None
    if seat.is_bot or seat.away:
        low, high = BOT_FORCED_DELAY if forced else BOT_DELAY
        thinking = random.uniform(low, high) * settings.BOT_DELAY_SCALE
        return BOT_MOVE, now + timedelta(seconds=thinking)
    if forced and _plays_forced_moves(seat):
        since_deal = (now - dealt).total_seconds() if dealt is not None else 0.0
        return FORCED_MOVE, now + timedelta(seconds=forced_delay(since_deal))
    if table.turn_seconds:
        return TURN_CLOCK, _clock_runs_out(
            table.turn_seconds, opening=not current.moves, now=now, dealt=dealt
        )
    return None


def _plays_forced_moves(seat: Seat) -> bool:
    """Whether this person has their only possible moves played for them (read now: they
    may have changed it since the table's state was read)."""
    return seat.user_id is not None and rows.plays_forced_moves(seat.user_id)


def _clock_runs_out(
    turn_seconds: int, *, opening: bool, now: datetime, dealt: datetime | None
) -> datetime:
    """When the clock plays for a person whose turn starts ``now`` (a forced move they
    chose to play themselves gets the whole turn too).

    Never before they could have seen the hand: its first move gets the whole turn and
    a grace (the opening was played for players whose page had not even shown the table
    yet), and no move is played by the clock within ``HAND_START_GRACE`` of the deal."""
    grace = timedelta(seconds=HAND_START_GRACE)
    dealt = dealt or now
    if opening:
        return max(now, dealt) + timedelta(seconds=turn_seconds) + grace
    return max(now + timedelta(seconds=turn_seconds), dealt + grace)


def _dealt_at(table: Table, match: Match) -> datetime | None:
    """When the hand being played was dealt (its row's time)."""
    return (
        Hand.objects.filter(table=table, number=len(match.rounds) - 1)
        .values_list("created_at", flat=True)
        .first()
    )


def schedule(
    table: Table,
    match: Match,
    seats: list[Seat],
    now: datetime | None = None,
    *,
    known: Mapping[str, datetime] | None = None,
    dealt: datetime | None = None,
) -> tuple[str, datetime] | None:
    """Replace the table's play deadline with what comes next (call under the table's
    lock); returns it (None: none).

    ``known``: the table's deadlines at the version the caller locked, from the state
    this process holds; then a delete with nothing to delete is not sent (a person's
    move at a table without a clock).  It can be trusted because a play deadline is
    only ever added in a transaction that also moves the table to a new version.
    ``dealt``: when the hand being played was dealt (else read, for a turn clock)."""
    if dealt is None and not match.over and not match.round.over:
        dealt = _dealt_at(table, match)  # a clock, a forced move: never right after the deal
    action = _next_action(table, match, seats, now or timezone.now(), dealt)
    kind = action[0] if action is not None else None
    if known is None or any(k in known for k in PLAY_KINDS if k != kind):
        deadline_rows.delete_for_table(table.pk, PLAY_KINDS, but=kind)
    if action is not None:
        set_deadline(action[0], action[1], table=table, version=table.version)
    return action


def _next_version(
    writing: Writing,
    match: Match,
    seats: list[Seat],
    hand: Hand,
    now: datetime | None = None,
    *,
    fields: tuple[str, ...] = (),
) -> tuple[str, datetime] | None:
    """Save the table at its next version with the play deadline that now comes next
    (``hand``: the one being played); returns that deadline.  Until the match is over
    a move changes nothing else of the table's row (``fields``: what else did)."""
    ends = ("status", "winners", "finished_at") if match.over else ()
    writing.next_version(fields=(*ends, *fields))
    known = writing.deadlines()
    return schedule(writing.table, match, seats, now, known=known, dealt=hand.created_at)


def _store_results(table: Table, match: Match, seats: list[Seat]) -> None:
    """One result row per seat, in the transaction that ends the match; then the payers."""
    rules, ranks, scores = table.rules, match.ranks(), match.scores
    SeatResult.objects.bulk_create(
        SeatResult(
            table=table,
            seat=seat.number,
            user_id=seat.user_id,
            side=rules.side_of(seat.number),
            rank=ranks[seat.number],
            points=scores[rules.side_of(seat.number)],
            is_bot=seat.is_bot or seat.away,
            is_filler=seat.is_filler,
        )
        for seat in seats
    )
    signals.match_finished.send(sender=Table, table=table)


def _record(
    writing: Writing, match: Match, move: Move, *, seats: list[Seat], seat: int, actor: str
) -> None:
    """Apply ``move`` for ``seat`` and store it with its consequences, at the next version."""
    table, current = writing.table, match.round
    try:
        current.play(move)
    except IllegalMoveError as error:
        raise GameError(illegal_move_message(error)) from error
    hand = writing.current_hand(match)
    played = current.moves  # as the engine logged it: an opening is always on the left
    rows.insert(
        StoredMove(hand=hand, ply=len(played) - 1, seat=seat, text=str(played[-1]), actor=actor)
    )
    now = timezone.now()
    if current.result is not None:
        hand.reason = current.result.reason
        hand.winners = ",".join(map(str, current.result.winners))
        hand.points = current.result.points
        hand.finished_at = now
        hand.save()
        review_later(hand, seats, now)  # the coach reviews it on the worker, not here
    if match.over:
        table.status = Table.Status.FINISHED
        table.winners = ",".join(map(str, match.winners))
        table.finished_at = now
        _store_results(table, match, seats)
    action = _next_version(writing, match, seats, hand, now)
    writing.moved(
        seats=seats, hand=hand, match=match, actor=actor, replaced=PLAY_KINDS, deadline=action
    )


def _playing(table: Table) -> None:
    if table.status != Table.Status.PLAYING:
        raise GameError(_("The game is not in progress."))


def _your_seat(table: Table, seats: list[Seat], user: User) -> Seat:
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise GameError(_("You are watching this table, not playing."))
    return seat


def _present(seat: Seat) -> None:
    """A person acted: the clock's count starts again and an away seat is theirs again."""
    if seat.away or seat.timeouts:
        seat.away, seat.timeouts = False, 0
        seat.save(update_fields=["away", "timeouts"])


@transaction.atomic
def move_submit(*, table_id: int, user: User, move: str, version: int) -> None:
    """A person's move, as text (``6|4L``, ``draw``, ``pass``), for the version they saw."""
    with changing(table_id, version, move=True) as writing:  # it records a move or raises
        table, seats = writing.table, writing.seats()
        seat = _your_seat(table, seats, user)
        _playing(table)
        match = writing.match()
        if match.round.over:
            raise GameError(_("This hand is over."))
        if match.round.turn != seat.number:
            raise GameError(_("It is not your turn."))
        try:
            parsed = parse_move(move)
        except ValueError:
            raise GameError(_("That is not a move.")) from None
        _present(seat)
        _record(writing, match, parsed, seats=seats, seat=seat.number, actor=Actor.PERSON)


@transaction.atomic
def seat_back(*, table_id: int, user: User) -> None:
    """ "I'm back": an away player takes their seat back from the bot.  At any version:
    it decides nothing on the position (the stand-in may have moved since the button
    was drawn, and a refusal would only make them click again), and twice is once."""
    with changing(table_id) as writing:
        table = writing.table
        seats = _seats(table)
        seat = _your_seat(table, seats, user)
        _playing(table)
        if not seat.away:
            writing.unchanged()
            return
        _present(seat)
        writing.next_version()  # what comes next is due at that version
        schedule(table, load_match(table), seats)


def forced_moves_choose(*, user: User, on: bool, table_id: int | None = None) -> None:
    """The player's choice: their only possible moves played for them after a pause,
    or not.  Chosen at a table, what is due there follows it at once (their forced
    move now, or not)."""
    _player_choice(user, "plays_forced_moves", on, table_id)


def text_mode_choose(*, user: User, on: bool, table_id: int | None = None) -> None:
    """The player's choice: the table also shown as text, with a box for typed commands."""
    _player_choice(user, "text_mode", on, table_id)


@transaction.atomic
def _player_choice(user: User, field: str, on: bool, table_id: int | None) -> None:
    """One of the player's own settings.  Chosen at a table (at any version: it decides
    nothing on the position), the table moves to its next version, so that the page
    shows the choice and what is due follows it."""
    if table_id is None:
        User.objects.filter(pk=user.pk).update(**{field: on})
        setattr(user, field, on)
        return
    with changing(table_id) as writing:  # the table, then the player's row: the lock order
        table = writing.table
        seats = _seats(table)
        _your_seat(table, seats, user)
        User.objects.filter(pk=user.pk).update(**{field: on})
        setattr(user, field, on)
        if table.status != Table.Status.PLAYING:
            writing.unchanged()
            return
        writing.next_version()  # what comes next is due at that version
        schedule(table, load_match(table), seats)


def _check_friends_host(table: Table, user: User) -> None:
    if table.mode != Table.Mode.FRIENDS or table.host_id != user.pk:
        raise GameError(_("Only the host of a table with friends can do that."))


@transaction.atomic
def seat_hand_to_bot(*, table_id: int, by: User, seat_number: int, version: int) -> None:
    """The host hands an absent friend's seat to the computer; the friend takes
    it back with "I'm back" or any move, as after timeouts."""
    with changing(table_id) as writing:
        table = writing.table
        _check_friends_host(table, by)
        check_version(table, version)
        _playing(table)
        seats = _seats(table)
        seat = next((s for s in seats if s.number == seat_number), None)
        if seat is None or seat.user_id is None or seat.user_id == by.pk:
            raise GameError(_("Choose the seat of another player."))
        if seat.away:
            writing.unchanged()
            return
        seat.away = True
        seat.save(update_fields=["away"])
        writing.next_version()  # what comes next is due at that version
        schedule(table, load_match(table), seats)


@transaction.atomic
def table_end(*, table_id: int, by: User, version: int) -> None:
    """The host ends a game with friends before its end: nobody wins it."""
    with changing(table_id) as writing:
        _check_friends_host(writing.table, by)
        check_version(writing.table, version)
        _playing(writing.table)
        writing.close(Table.Status.ABANDONED, timezone.now())


@transaction.atomic
def game_leave(*, table_id: int, user: User) -> None:
    """A seated friend leaves a running game with friends for good: the computer plays
    their seat from now on, under their name, and the log says so.  They cannot act
    for it again (it is no longer theirs) and are not paid for it; they may watch.
    The host who leaves hands hosting to the first person still seated; the last
    person to leave ends the game, nobody winning it.  No version: leaving means the
    same at any version (a dialog's confirmation would often be a version late)."""
    with changing(table_id) as writing:
        _leave(writing, user)


def _leave(writing: Writing, user: User) -> None:
    table = writing.table
    if table.mode != Table.Mode.FRIENDS:
        raise GameError(_("Only a game with friends can be left this way."))
    seats = _seats(table)
    seat = _your_seat(table, seats, user)
    _playing(table)
    match = writing.match()
    seat.bot_name = user.display_name[: Seat._meta.get_field("bot_name").max_length]
    seat.user, seat.bot_level = None, table.bot_level or STAND_IN_BOT_LEVEL
    seat.away, seat.timeouts, seat.ready = False, 0, False
    seat.left_hand, seat.left_ply = len(match.rounds) - 1, len(match.round.moves)
    seat.save()
    people = [s.user_id for s in seats if s.user_id is not None]
    if not people:  # nobody left to play with
        writing.close(Table.Status.ABANDONED, timezone.now())
        return
    if table.host_id == user.pk:
        table.host_id = people[0]
        table.save(update_fields=["host"])
    if match.round.over and not any(_waits_for(s) for s in seats):
        _deal_next(writing, match, seats)  # everyone else was ready: no need to wait
        return
    writing.next_version()  # what comes next is due at that version
    if not match.round.over:  # a hand over keeps its countdown to the next one
        schedule(table, match, seats)


@transaction.atomic
def computer_game_end(*, table_id: int, user: User) -> None:
    """The player's game against the computer ends, nobody winning it (their account is
    going away); nothing changes if it is not theirs or is over already."""
    with changing(table_id) as writing:
        table = writing.table
        if (
            table.mode != Table.Mode.COMPUTER
            or table.status != Table.Status.PLAYING
            or not table.seats.filter(user=user).exists()
        ):
            writing.unchanged()
            return
        writing.close(Table.Status.ABANDONED, timezone.now())


def abandoned_computer_tables_close(*, now: datetime, limit: int = 200) -> int:
    """Close games against the computer nobody has played for a while; returns how many."""
    cutoff = now - timedelta(hours=ABANDONED_AFTER_HOURS)
    stale = (
        Table.objects.filter(mode=Table.Mode.COMPUTER, status=Table.Status.PLAYING)
        .alias(last=Coalesce(Max("hands__moves__created_at"), "started_at"))
        .filter(last__lt=cutoff)
        .values_list("pk", flat=True)[:limit]
    )
    closed = 0
    for table_id in list(stale):
        with transaction.atomic(), changing(table_id) as writing:
            if writing.table.status != Table.Status.PLAYING:
                writing.unchanged()
                continue
            writing.close(Table.Status.ABANDONED, now)
            closed += 1
    return closed


def _deal_next(writing: Writing, match: Match, seats: list[Seat]) -> None:
    table = writing.table
    dealer, opener = match.next_deal()
    current, hand = deal_hand(
        table, match.rules, number=len(match.rounds), dealer=dealer, opener=opener
    )
    match.rounds.append(current)
    if any(s.ready for s in seats):
        Seat.objects.filter(table=table).update(ready=False)
        for seat in seats:
            seat.ready = False
    action = _next_version(writing, match, seats, hand, fields=("deal_seed",))
    writing.dealt(seats=seats, hand=hand, match=match, replaced=PLAY_KINDS, deadline=action)


def _waits_for(seat: Seat) -> bool:
    """The next hand waits for this seat's "next hand" (people only; a bot is always ready)."""
    return seat.user_id is not None and not seat.away and not seat.ready


@transaction.atomic
def hand_next(*, table_id: int, user: User, version: int) -> None:
    """A seated player is ready for the next hand; it is dealt once every person
    at the table is (or when the countdown ends), so nobody's result is wiped
    off their screen while they read it."""
    with changing(table_id, version) as writing:
        table, seats = writing.table, writing.seats()
        seat = _your_seat(table, seats, user)
        _playing(table)
        match = writing.match()
        if not match.round.over:
            raise GameError(_("This hand is still being played."))
        _present(seat)
        if not seat.ready:
            seat.ready = True
            rows.update(seat, ["ready"])
        if any(_waits_for(s) for s in seats):
            writing.next_version(fields=())  # the others see who is ready
            writing.seats_changed(seats)
            return
        _deal_next(writing, match, seats)


def stand_in_choice(match: Match, seat: Seat) -> Move:
    """What is played for ``seat``: by its bot, or for a person by the stand-in bot.

    The bot is given that seat's view and nothing else (the hand and the match scores
    before it); it thinks off the serving process when this one serves sockets."""
    level = seat.bot_level or STAND_IN_BOT_LEVEL
    asked = engine_thinking.to_choose(match, seat.number, level)
    return parse_move(think(engine_thinking.choose, *asked))


@dataclass
class _Plan:
    """What the worker will do at a table, decided at ``version`` without a lock."""

    version: int
    match: Match | None = None
    seats: list[Seat] | None = None
    move: Move | None = None
    seat: int = 0
    actor: str = ""

    @property
    def nothing(self) -> bool:
        return self.match is None


def _plan(table_id: int) -> _Plan:
    # From the state this process holds at the table's version (one read of the version;
    # the whole table only when another process moved it): private copies to play on.
    state = states.table_state(table_id)
    table = state.table
    plan = _Plan(version=table.version)
    if table.status != Table.Status.PLAYING:
        return plan
    seats = [private_copy(seat) for seat in state.seats]
    held = state.match_to_play()
    match = held if held is not None else load_match(table)
    current = match.round
    if match.over:
        return plan
    if current.over:
        return _Plan(version=table.version, match=match, seats=seats)
    seat = seats[current.turn]
    only = only_move(current)
    if seat.is_bot:
        actor = Actor.BOT
    elif seat.away:
        actor = Actor.AWAY
    elif only is not None and (table.turn_seconds or _plays_forced_moves(seat)):
        return _Plan(table.version, match, seats, only, seat.number, Actor.FORCED)
    elif table.turn_seconds:
        actor = Actor.CLOCK
    else:
        return plan  # a person's turn with no clock: nothing for the worker
    move = stand_in_choice(match, seat)  # the slow part, outside any lock
    return _Plan(table.version, match, seats, move, seat.number, actor)


@handles(*PLAY_KINDS)
def advance_table(claimed: Deadline, now: datetime) -> bool:
    """The worker's step at a table: a bot's move, the clock's, or the next hand."""
    assert claimed.table_id is not None
    for _attempt in range(3):
        plan = _plan(claimed.table_id)
        # the plan read the table at its version: locked without reading it again
        with transaction.atomic(), changing(claimed.table_id, decided_at=plan.version) as writing:
            table = writing.table
            deadline = still_due(claimed)
            if deadline is None:
                writing.unchanged()
                return False  # applied or replaced meanwhile
            if table.version != plan.version:
                writing.unchanged()
                continue  # the table moved on while the bot thought: decide again
            if plan.nothing:
                deadline.delete()
                writing.unchanged()
                return False
            assert plan.match is not None and plan.seats is not None
            if plan.move is None:
                _deal_next(writing, plan.match, plan.seats)
                return True
            if plan.actor == Actor.CLOCK:
                seat = plan.seats[plan.seat]
                seat.timeouts += 1
                seat.away = seat.timeouts >= AWAY_AFTER_TIMEOUTS
                seat.save(update_fields=["away", "timeouts"])
            _record(
                writing, plan.match, plan.move, seats=plan.seats, seat=plan.seat, actor=plan.actor
            )
            return True
    return False
