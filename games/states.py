"""A table at one version, read once per version and shared by every viewer.

A change wakes every viewer of a table; without this each of them would load the
table, its seats, every hand and move, replay the match and read its deadlines
for itself.  Here the first viewer to ask for version v reads it (incrementally:
only the hands from the current one on, the current hand continued from the
previous state) and every other viewer in this process reuses it.  A state
holds every hand's tiles: only ``games.selectors`` reads it, to build each
viewer's redacted view.

A state is read at one version: the table's version is read before and after
the other reads, and every change to a table bumps it in the same transaction,
so equal versions mean nothing changed in between (PostgreSQL and SQLite alike).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from games import rows
from games.engine import Match, Round, Rules, parse_move
from games.hooks.payouts import Payout, payouts_of
from games.hooks.seat_notes import SeatNote, notes_of
from games.models import Hand, Invitation, Move, Seat, Table
from monitoring import metrics

#: Tables whose latest state a process keeps (the least recently used go first).
KEEP = 4096
#: Reads that find the table changed under them before one is whole; then a locked read.
OPTIMISTIC_READS = 3


@dataclass(frozen=True)
class TableState:
    table: Table
    seats: tuple[Seat, ...]
    hands: tuple[Hand, ...]  # their moves are in ``rounds``
    rounds: tuple[Round, ...]  # replayed; never changed once shared
    actors: tuple[str, ...]  # who made each move of the current hand (Move.Actor)
    invitations: tuple[str, ...]  # names with a pending invitation, while waiting
    deadlines: dict[str, datetime]
    # once the table is over: what it paid each player, by user id (games.hooks.payouts)
    payouts: dict[int, tuple[Payout, ...]] = field(default_factory=dict)
    seat_notes: tuple[SeatNote, ...] = ()  # once finished: every seat's (games.hooks.seat_notes)
    # what the selector builds of this version for every viewer alike, built once
    # (``games.selectors``: the seats as everyone sees them, per language and presence;
    # who sits where; the table's mode in words, per language; the deal's proof)
    memo: dict[Hashable, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def version(self) -> int:
        return self.table.version

    @functools.cached_property
    def rules(self) -> Rules:
        """The table's rules, built once per state (``Table.rules`` builds them anew)."""
        return self.table.rules

    def match(self) -> Match | None:
        """The match (a new object each time: the shared rounds are only read)."""
        return Match(self.rules, rounds=self.rounds) if self.rounds else None

    def match_to_play(self) -> Match | None:
        """The match to play on: the finished hands shared, the current one a private copy."""
        if not self.rounds:
            return None
        *done, current = self.rounds
        return Match(self.rules, rounds=[*done, current.copy()])


_latest: OrderedDict[int, TableState] = OrderedDict()
_held = metrics.TABLES_IN_MEMORY  # how many, kept up to date
_lock = threading.Lock()


def remember(state: TableState) -> TableState:
    with _lock:
        current = _latest.get(state.table.pk)
        if current is None or current.version <= state.version:
            _latest[state.table.pk] = state
        _latest.move_to_end(state.table.pk)
        while len(_latest) > KEEP:
            _latest.popitem(last=False)
        _held.set(len(_latest))
    return state


def forget(table_id: int | None = None) -> None:
    """Drop what this process remembers (of one table, or of all: for tests)."""
    with _lock:
        if table_id is None:
            _latest.clear()
        else:
            _latest.pop(table_id, None)
        _held.set(len(_latest))


def known(table_id: int, version: int) -> bool:
    """Whether this process holds the table at ``version`` or later (no query)."""
    with _lock:
        state = _latest.get(table_id)
    return state is not None and state.version >= version


def table_state(table_id: int, *, at_least: int | None = None) -> TableState:
    """The table's latest state; with ``at_least``, a remembered state that new
    is returned without asking the database (a viewer told "version v")."""
    with _lock:
        known = _latest.get(table_id)
    if known is not None and at_least is not None and known.version >= at_least:
        return known
    for _attempt in range(OPTIMISTIC_READS):
        if known is not None and rows.version_of(table_id) == known.version:
            return known  # one plain read of the version (the worker's plan, a page)
        table = Table.objects.select_related("rematch").get(pk=table_id)
        if known is not None and known.version == table.version:
            return known
        state = _read(table, known)
        if Table.objects.filter(pk=table_id, version=table.version).exists():
            return remember(state)
    with transaction.atomic():  # a busy table: read it under its row lock
        table = (
            Table.objects.select_for_update(of=("self",)).select_related("rematch").get(pk=table_id)
        )
        return remember(_read(table, known))


def held(table_id: int, version: int) -> TableState | None:
    """The state this process remembers of the table at exactly ``version``, if any (no query)."""
    with _lock:
        state = _latest.get(table_id)
    return state if state is not None and state.version == version else None


def _read(table: Table, known: TableState | None) -> TableState:
    seats = tuple(table.seats.select_related("user").order_by("number"))
    # Hands before the previous state's current one are over: they never change.
    keep = len(known.hands) - 1 if known is not None and known.hands else 0
    fresh = list(table.hands.filter(number__gte=keep).order_by("number"))
    hands = (known.hands[:keep] if known else ()) + tuple(fresh)
    earlier = known.rounds[keep] if known and keep < len(known.rounds) else None
    seen = len(earlier.moves) if earlier is not None else 0
    # Only the moves this process has not seen yet, as plain values: one indexed
    # (hand, ply) range per hand, usually the current hand alone.
    new_moves = {
        hand.pk: list(
            Move.objects.filter(hand_id=hand.pk, ply__gte=seen if n == 0 else 0)
            .order_by("ply")
            .values_list("text", "actor")
        )
        for n, hand in enumerate(fresh)
    }
    rounds = list(known.rounds[:keep]) if known else []
    rules = table.rules
    actors: tuple[str, ...] = ()
    for hand in fresh:
        moves = new_moves[hand.pk]
        if hand.number == keep and earlier is not None:
            current = earlier.copy()  # continue the hand from where this process saw it
            actors = known.actors if known else ()
        else:
            current, actors = Round.from_position(rules, hand.initial_position), ()
        for text, _actor in moves:
            current.play(parse_move(text))
        actors += tuple(actor for _text, actor in moves)
        rounds.append(current)
    invitations = (
        tuple(
            i.to_user.display_name
            for i in table.invitations.filter(status=Invitation.Status.PENDING).select_related(
                "to_user"
            )
        )
        if table.status == Table.Status.WAITING
        else ()
    )
    deadlines = (
        {d.kind: d.due_at for d in table.deadlines.all()}
        if table.status in (Table.Status.PLAYING, Table.Status.WAITING)
        else {}
    )
    payouts = payouts_of(table)  # nothing to read while the table is not over
    return TableState(
        table, seats, hands, tuple(rounds), actors, invitations, deadlines, payouts, notes_of(table)
    )
