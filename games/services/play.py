"""Games in progress: moves by people and bots, the next hand, the game clock.

Every change happens under the table's row lock, checked by the engine, and is
stored in the same transaction; viewers hear of it only after the commit.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.constants import BOT_DELAY, BOT_FORCED_DELAY, NEXT_HAND_DELAY
from games.engine import IllegalMoveError, Match, Move, parse_move
from games.engine.bots import make_bot
from games.errors import GameError, illegal_move_message
from games.models import Hand, Seat, Table
from games.models import Move as StoredMove
from games.records import load_match

from .common import check_version, locked_table, table_changed

log = logging.getLogger(__name__)
RETRY_AFTER = 30  # seconds before the clock tries a failing table again
_check_version = check_version  # the old name, until its callers move to check_version


def schedule(table: Table, match: Match, now: datetime | None = None) -> None:
    """Set when the game clock must next act on this table (None: waiting on a person)."""
    now = now or timezone.now()
    table.next_action_at = None
    if match.over:
        return
    current = match.round
    if current.over:
        table.next_action_at = now + timedelta(seconds=NEXT_HAND_DELAY)
        return
    seat = table.seats.get(number=current.turn)
    if seat.is_bot:
        forced = len(current.legal_moves()) == 1
        low, high = BOT_FORCED_DELAY if forced else BOT_DELAY
        table.next_action_at = now + timedelta(seconds=random.uniform(low, high))


def _record(table: Table, match: Match, move: Move, *, seat: int, by_bot: bool) -> None:
    """Apply ``move`` for ``seat`` and store it with its consequences, then bump the version."""
    current = match.round
    try:
        current.play(move)
    except IllegalMoveError as error:
        raise GameError(illegal_move_message(error)) from error
    hand = table.hands.get(number=len(match.rounds) - 1)
    played = current.moves  # as the engine logged it: an opening is always on the left
    StoredMove.objects.create(
        hand=hand, ply=len(played) - 1, seat=seat, text=str(played[-1]), by_bot=by_bot
    )
    now = timezone.now()
    if current.result is not None:
        hand.reason = current.result.reason
        hand.winners = ",".join(map(str, current.result.winners))
        hand.points = current.result.points
        hand.finished_at = now
        hand.save()
    if match.over:
        table.status = Table.Status.FINISHED
        table.winners = ",".join(map(str, match.winners))
        table.finished_at = now
    schedule(table, match, now)
    table_changed(table)


def _playing(table: Table) -> Match:
    if table.status != Table.Status.PLAYING:
        raise GameError(_("The game is not in progress."))
    return load_match(table)


@transaction.atomic
def move_submit(*, table_id: int, user: User, move: str, version: int) -> None:
    """A person's move, as text (``6|4L``, ``draw``, ``pass``), for the version they saw."""
    table = locked_table(table_id)
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise GameError(_("You are watching this table, not playing."))
    _check_version(table, version)
    match = _playing(table)
    if match.round.over:
        raise GameError(_("This hand is over."))
    if match.round.turn != seat.number:
        raise GameError(_("It is not your turn."))
    try:
        parsed = parse_move(move)
    except ValueError:
        raise GameError(_("That is not a move.")) from None
    _record(table, match, parsed, seat=seat.number, by_bot=False)


def _deal_next(table: Table, match: Match) -> None:
    current = match.next_round()
    Hand.objects.create(
        table=table, number=len(match.rounds) - 1, initial_position=current.initial_position
    )
    schedule(table, match)
    table_changed(table)


@transaction.atomic
def hand_next(*, table_id: int, user: User, version: int) -> None:
    """A seated player asks for the next hand once the current one is over."""
    table = locked_table(table_id)
    if not table.seats.filter(user=user).exists():
        raise GameError(_("You are watching this table, not playing."))
    _check_version(table, version)
    match = _playing(table)
    if not match.round.over:
        raise GameError(_("This hand is still being played."))
    _deal_next(table, match)


def bot_choice(match: Match, seat: Seat) -> Move:
    """What the bot on ``seat`` plays: it is given that seat's view and nothing else."""
    view = match.round.view(seat.number)
    return make_bot(seat.bot_level).choose(view)


@transaction.atomic
def table_advance(*, table_id: int, now: datetime) -> bool:
    """The clock's step for one due table: a bot's move or the next hand.

    Returns False when there was nothing due (another process got there first).
    """
    table = locked_table(table_id)
    if table.next_action_at is None or table.next_action_at > now:
        return False
    if table.status != Table.Status.PLAYING:
        table.next_action_at = None
        table.save(update_fields=["next_action_at"])
        return False
    match = load_match(table)
    if match.round.over:
        _deal_next(table, match)
        return True
    seat = table.seats.get(number=match.round.turn)
    if not seat.is_bot:
        schedule(table, match, now)
        table.save(update_fields=["next_action_at"])
        return False
    _record(table, match, bot_choice(match, seat), seat=seat.number, by_bot=True)
    return True


def run_due(*, now: datetime | None = None, limit: int = 50) -> int:
    """Advance every table whose deadline has passed; returns how many moved."""
    now = now or timezone.now()
    due = list(
        Table.objects.filter(next_action_at__lte=now, status=Table.Status.PLAYING)
        .order_by("next_action_at")
        .values_list("pk", flat=True)[:limit]
    )
    done = 0
    for table_id in due:
        try:
            done += table_advance(table_id=table_id, now=now)
        except Exception:  # one broken table must not stop the clock for the others
            log.exception("game clock: table %s failed; retrying in %ss", table_id, RETRY_AFTER)
            Table.objects.filter(pk=table_id).update(
                next_action_at=now + timedelta(seconds=RETRY_AFTER)
            )
    return done
