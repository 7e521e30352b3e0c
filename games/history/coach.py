"""The coach after each hand: the worker reviews every person's move of a finished hand
(``games.engine.coach``) and stores one ``MoveReview`` per move.

When a hand ends, the transaction that records its end sets a ``COACH`` deadline keyed
by the hand (:func:`review_later`).  The worker's handler reads the finished hand
without any lock (it never changes again), analyses it outside any transaction (the
slow part), then writes the reviews in a short transaction that only locks the
deadline row; a unique (hand, ply) makes a second write of the same move a no-op.
So that a hand with several people never holds the worker for long, one pass
analyses moves for at most :data:`SLICE` seconds and sets the deadline again for the
rest.  Bots' moves and the clock's are not reviewed: only ``Move.Actor.PERSON``.

Reviews are background work: a process gives them at most ``settings.COACH_SHARE``
of one core over time (after a slice of ``s`` seconds the coach rests
``s * (1 / share - 1)``; a review due meanwhile is put off until then), so a busy
server ending many hands a second keeps its moves fast and reviews arrive later.  And
while the process is busier than ``settings.COACH_BUSY`` (its CPU since the coach last
looked, the coach's own slices left out), the coach waits :data:`BUSY_REST` seconds
and looks again: a saturated server gives the players every cycle.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from deadlines.models import Deadline
from deadlines.services import handles, put_off_due, set_deadline, still_due
from games.engine import thinking as engine_thinking
from games.engine.coach import Review, seed_for
from games.kinds import COACH
from games.models import Hand, MoveReview, Seat
from games.models import Move as StoredMove
from games.thinking import think

#: Seconds of analysis one worker pass may spend on a hand before it lets the other
#: deadlines (bots' moves, clocks) go first; the rest waits for the next pass.
SLICE = 0.5

#: Hands waiting for a review beyond which a finished hand is not queued at all (a
#: saturated server: the backlog would only grow, and crowd the worker's claims).
BACKLOG = 100

#: Seconds a review waits when the process is busy, before the coach looks again.
BUSY_REST = 5.0

#: The process's CPU seconds, every thread's (tests give the coach a clock of their own).
process_cpu = time.process_time

#: Until when this process's coach rests (see the module's docstring).
_resting_until: datetime | None = None
#: (when, process_cpu()) as the coach last looked or finished a slice; whether it was busy.
_cpu_mark: tuple[datetime, float] | None = None
_was_busy = False
#: The end of the rest the waiting hands were last put off to.
_put_off_until: datetime | None = None


def _rest_after(now: datetime, spent: float) -> None:
    global _resting_until, _cpu_mark
    share = settings.COACH_SHARE
    if share < 1:
        _resting_until = now + timedelta(seconds=spent * (1 / share - 1))
    _cpu_mark = (now + timedelta(seconds=spent), process_cpu())  # its own slice not counted


def _busy(now: datetime) -> bool:
    """Whether the process used more than ``COACH_BUSY`` of a core since the coach last
    looked (over a second at least; a shorter look keeps the last answer)."""
    global _cpu_mark, _was_busy
    cpu = process_cpu()
    if _cpu_mark is not None:
        since, cpu_then = _cpu_mark
        window = (now - since).total_seconds()
        if window < 1:
            return _was_busy
        _was_busy = (cpu - cpu_then) / window > settings.COACH_BUSY
    _cpu_mark = (now, cpu)
    return _was_busy


def review_later(hand: Hand, seats: list[Seat], now: datetime) -> None:
    """Ask the worker to review ``hand`` (call in the transaction that ends it), if a
    person sits at the table: bots' hands are not reviewed."""
    if settings.COACH_SHARE <= 0 or not any(
        not seat.is_bot and seat.user_id is not None for seat in seats
    ):
        return  # the coach is off, or nobody but bots played
    if Deadline.objects.filter(kind=COACH).order_by()[BACKLOG - 1 : BACKLOG].exists():
        return  # the coach is far behind: this hand goes without a review
    set_deadline(COACH, now, key=_key(hand))


def _key(hand: Hand) -> str:
    return f"coach:{hand.pk}"


def still_reviewing(hands: list[Hand]) -> set[int]:
    """The ids of those hands whose review is not finished (their deadline is there).
    A hand from before the coach has none: nothing is in progress for it."""
    keys = Deadline.objects.filter(kind=COACH, key__in=[_key(h) for h in hands])
    return {int(key.partition(":")[2]) for key in keys.values_list("key", flat=True)}


def pending_plies(hand: Hand, moves: list[StoredMove]) -> list[int]:
    """The person's moves of ``hand`` not reviewed yet."""
    done = set(MoveReview.objects.filter(hand=hand).values_list("ply", flat=True))
    return [m.ply for m in moves if m.actor == StoredMove.Actor.PERSON and m.ply not in done]


def analyse(
    hand: Hand, moves: list[StoredMove], plies: list[int], *, budget: float
) -> list[Review]:
    """Reviews of ``plies``, in order, until ``budget`` seconds are spent (at least one);
    off the serving process when this one serves sockets (``games.thinking``)."""
    return think(
        engine_thinking.review,
        hand.table.rules.to_text(),
        hand.initial_position,
        [m.text for m in moves],
        plies,
        seed=seed_for(hand.table.code, hand.number),
        iterations=settings.COACH_ITERATIONS,
        budget=budget,
    )


@handles(COACH)
def review_hand_moves(claimed: Deadline, now: datetime) -> bool:
    """The worker's step for a finished hand: review some of its moves, store them."""
    global _resting_until, _put_off_until
    until = _resting_until if _resting_until is not None and now < _resting_until else None
    if until is None and _busy(now):
        until = _resting_until = now + timedelta(seconds=BUSY_REST)
    if until is not None:
        with transaction.atomic():
            if still_due(claimed) is not None:  # put off, not dropped
                set_deadline(COACH, until, key=claimed.key)
        if _put_off_until != until:  # the other hands waiting rest too: once a rest, in
            put_off_due(COACH, until, now=now)  # one statement, not each claimed in turn
            _put_off_until = until
        return False
    started = time.perf_counter()
    hand_id = int(claimed.key.partition(":")[2])
    hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
    moves = list(hand.moves.order_by("ply")) if hand is not None and hand.over else []
    todo = pending_plies(hand, moves) if hand is not None and moves else []
    reviews = analyse(hand, moves, todo, budget=SLICE) if hand is not None and todo else []
    _rest_after(now, time.perf_counter() - started)
    with transaction.atomic():
        deadline = still_due(claimed)  # the row is the subject: a finished hand never moves
        if deadline is None:
            return False
        MoveReview.objects.bulk_create(
            [_row(hand_id, review) for review in reviews], ignore_conflicts=True
        )
        if len(reviews) < len(todo):
            set_deadline(COACH, timezone.now(), key=claimed.key)
        else:
            deadline.delete()
    return bool(reviews)


def _row(hand_id: int, review: Review) -> MoveReview:
    return MoveReview(
        hand_id=hand_id,
        ply=review.ply,
        seat=review.seat,
        loss=review.loss,
        mark=review.mark,
        preferred=str(review.preferred) if review.preferred is not None else "",
        reason=review.reason,
        params=review.params,
    )
