"""Reads.  ``table_view`` is the one place a viewer's view of a table is built.

It starts from the engine's ``PlayerView`` for the viewer's seat (or a
spectator's, who holds no tiles), so nothing it returns can hold another
hand's tiles or the boneyard's while a hand is being played.

The view is built by ``games.view.build`` (no Django), which the offline game's
table calls too; this module says what the database's state holds.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts import header
from accounts.models import User
from accounts.names import Who
from games.describe import mode_order, table_mode
from games.engine import Match
from games.engine.deals import commitment
from games.kinds import FORCED_MOVE, NEXT_HAND, STAKE_FILL, TURN_CLOCK
from games.live.presence import present_users
from games.models import Invitation, Seat, Table
from games.states import TableState, table_state
from games.view.build import Clocks, SeatFacts, build_view
from games.view.parts import DealProof, TableView
from games.view.presets import PRESET_INFO


def seat_name(seat: Seat) -> str:
    if seat.bot_name:
        return seat.bot_name
    if seat.is_bot:
        return _("Computer (%(level)s)") % {"level": seat.get_bot_level_display()}
    if seat.user is None:
        return _("free seat")
    return seat.user.display_name


def table_view(
    *,
    table: Table | int,
    user: User | AnonymousUser | None,
    with_presence: bool = False,
    at_least: int | None = None,
) -> TableView:
    """Everything ``user`` may see of ``table``, and nothing more, read at one version.

    The table's state at a version is read once and shared by every viewer in
    the process (``games.states``); with ``at_least`` a remembered state that
    new needs no query at all.  ``with_presence``: mark the seats whose player
    has no live socket (one cache read)."""
    table_id = table if isinstance(table, int) else table.pk
    viewer = user if user is not None and user.is_authenticated else None
    return view_of(table_state(table_id, at_least=at_least), viewer, with_presence)


def view_of(state: TableState, user: User | None, with_presence: bool = False) -> TableView:
    """One viewer's view of a table's state: their own hand only (no query but, with
    ``with_presence``, one cache read of who has a live socket)."""
    table, users = state.table, _seat_users(state)
    mine = state.seats[users.index(user.pk)] if user is not None and user.pk in users else None
    present = None
    if with_presence:
        people = [user_id for user_id in users if user_id is not None]
        present = present_users(table_id=table.pk, user_ids=people)
    match = state.match()
    deadlines = state.deadlines
    language = get_language()
    return build_view(
        table=table,
        rules=state.rules,
        version=table.version,
        match=match,
        seats=_seat_facts(state, present, language),
        you=mine.number if mine else None,
        is_host=user is not None and table.host_id == user.pk,
        mode_label=_mode_label(state, language),
        actors=state.actors,
        invitations=state.invitations,
        clocks=Clocks(
            next_hand_at=deadlines.get(NEXT_HAND),
            turn_ends_at=deadlines.get(TURN_CLOCK),
            fill_ends_at=deadlines.get(STAKE_FILL),
            forced_at=deadlines.get(FORCED_MOVE),
        ),
        payouts=state.payouts.get(user.pk, ()) if user is not None else (),
        seat_notes=state.seat_notes,
        deal=_deal_proof(state, match),
        plays_forced_moves=mine.user.plays_forced_moves if mine and mine.user else None,
        text_mode=bool(mine and mine.user and mine.user.text_mode),
        language=language,
    )


def _seat_facts(
    state: TableState, present: set[int] | None, language: str
) -> tuple[SeatFacts, ...]:
    """The seats as every viewer sees them at this version: built once per language and
    presence, then shared by every viewer of the version."""
    key = ("seats", language, frozenset(present) if present is not None else None)
    facts = state.memo.get(key)
    if facts is None:
        facts = state.memo[key] = tuple(_facts(s, state.table, present) for s in state.seats)
    return facts


def _seat_users(state: TableState) -> tuple[int | None, ...]:
    """Who sits in each seat (a user's id), once per version: a model's foreign key is
    read through a descriptor, every viewer of every version read them all."""
    users = state.memo.get("users")
    if users is None:
        users = state.memo["users"] = tuple(seat.user_id for seat in state.seats)
    return users


def _mode_label(state: TableState, language: str) -> str:
    """How the table is played (``table_mode``), in ``language``: once per version."""
    key = ("mode", language)
    label = state.memo.get(key)
    if label is None:
        label = state.memo[key] = table_mode(state.table)
    return label


def _facts(seat: Seat, table: Table, present: set[int] | None) -> SeatFacts:
    return SeatFacts(
        number=seat.number,
        name=seat_name(seat),
        is_bot=seat.is_bot,
        bot_level=seat.bot_level,
        is_free=seat.is_free,
        user_id=seat.user_id,
        is_host=seat.user_id == table.host_id,
        is_filler=seat.is_filler,
        is_away=seat.away,
        is_ready=seat.ready,
        has_left=seat.has_left,
        is_online=present is None or seat.user_id is None or seat.user_id in present,
        left_at=(seat.left_hand, seat.left_ply)
        if seat.left_hand is not None and seat.left_ply is not None
        else None,
    )


@functools.lru_cache(maxsize=4096)
def _commitment(code: str, hand: int, seed: str) -> str:
    return commitment(code, hand, seed)


def _deal_proof(state: TableState, match: Match | None) -> DealProof:
    """The hand's commitment; its seeds only once it is over (docs/rules.md §5: then every
    hand is shown anyway); the next hand's commitment while one is to come.  The same for
    every viewer: made once per version."""
    proof = state.memo.get("deal")
    if proof is None:
        proof = state.memo["deal"] = _prove_deal(state, match)
    return proof


def _prove_deal(state: TableState, match: Match | None) -> DealProof:
    table = state.table
    match_over = match is not None and match.over
    to_come = table.status in (Table.Status.WAITING, Table.Status.PLAYING) and not match_over
    upcoming = _commitment(table.code, len(state.hands) + 1, table.deal_seed) if to_come else ""
    current = state.hands[-1] if state.hands else None
    if current is None or match is None:
        return DealProof(0, "", "", (), upcoming)
    number = current.number + 1
    if not current.verifiable:
        return DealProof(number, "", "", (), upcoming)
    shown = _commitment(table.code, number, current.seed)
    if not match.round.over:
        return DealProof(number, shown, "", (), upcoming)
    return DealProof(number, shown, current.seed, current.client_seed_values, upcoming)


def table_by_code(code: str) -> Table | None:
    """The table a page's address names."""
    found = list(Table.objects.filter(code=code)[:1])  # unique: no ordering, as first() adds
    return found[0] if found else None


def table_version_by_code(code: str) -> tuple[int, int] | None:
    """The id and version of the table a page's address names (no row to build)."""
    found = list(Table.objects.filter(code=code).values_list("pk", "version")[:1])
    return found[0] if found else None


def _pending_invitations(user_id: int) -> QuerySet[Invitation]:
    return Invitation.objects.filter(
        to_user_id=user_id, status=Invitation.Status.PENDING, table__status=Table.Status.WAITING
    )


def invitations_for(*, user: User) -> QuerySet[Invitation]:
    """Pending invitations to tables still waiting for players."""
    return (
        _pending_invitations(user.pk).select_related("table", "from_user").order_by("-created_at")
    )


def pending_invitation_count(*, user: User) -> int:
    """How many ``invitations_for`` lists."""
    return _pending_invitations(user.pk).count()


def invitation_badge(*, user: User) -> int:
    """The count every page's header shows, kept with the header's figures
    (``accounts.header``); guests are never invited (registered players only)."""
    return 0 if user.is_guest else header.figure(user, "invitations")


def _games_in_progress(user_id: int) -> QuerySet[Table]:
    return (
        Table.objects.filter(
            seats__user_id=user_id, status__in=[Table.Status.WAITING, Table.Status.PLAYING]
        )
        .order_by("-created_at")
        .distinct()
    )


@dataclass(frozen=True)
class GameCard:
    """A game of the player's to go back to, as the home page lists it."""

    code: str
    mode: str
    preset: str
    waiting: bool
    opponents: Who
    partner: Who
    score: str  # "yours – theirs", your side first
    your_turn: bool


#: How many games in progress the home page lists, newest first.
MY_GAMES = 6


def my_games(*, user: User) -> list[GameCard]:
    """The player's games waiting or being played, each as they would see it."""
    cards = []
    for table in _games_in_progress(user.pk)[:MY_GAMES]:
        # as new as the list just read: a state remembered at that version needs no query
        tv = table_view(table=table.pk, user=user, at_least=table.version)
        others = [s for s in tv.seats if not s.is_you and not s.is_free]
        yours = next((sc.points for sc in tv.scores if sc.is_yours), 0)
        theirs = [str(sc.points) for sc in tv.scores if not sc.is_yours]
        cards.append(
            GameCard(
                code=table.code,
                mode=table_mode(table),
                preset=str(PRESET_INFO[table.preset].title),
                waiting=tv.waiting,
                opponents=Who(s.name for s in others if not s.is_partner),
                partner=Who(s.name for s in others if s.is_partner),
                score=" – ".join([str(yours), *theirs]) if tv.playing else "",
                your_turn=tv.your_turn,
            )
        )
    return cards


@dataclass(frozen=True)
class RecordLine:
    mode: str
    preset: str
    played: int
    won: int


def player_record(*, user: User) -> list[RecordLine]:
    """Games played and won, per mode (``games.describe``: a stake table's stake, online
    with simulated players apart) and preset (finished games only)."""
    seats = Seat.objects.filter(user=user, table__status=Table.Status.FINISHED).select_related(
        "table"
    )
    played: Counter[tuple[tuple[int, int], str, str]] = Counter()
    won: Counter[tuple[tuple[int, int], str, str]] = Counter()
    for seat in seats:
        table = seat.table
        order = mode_order(table.mode, stake=table.stake, fillers=table.fillers)
        key = (order, table_mode(table), table.preset)
        played[key] += 1
        won[key] += seat.number in table.winner_seats
    return [
        RecordLine(mode, preset, played[order, mode, preset], won[order, mode, preset])
        for order, mode, preset in sorted(played)
    ]
