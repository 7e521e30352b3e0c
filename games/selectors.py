"""Reads.  ``table_view`` is the one place a viewer's view of a table is built.

It starts from the engine's ``PlayerView`` for the viewer's seat (or a
spectator's, who holds no tiles), so nothing it returns can hold another
hand's tiles or the boneyard's while a hand is being played.

A view's parts come from ``games.viewparts`` (no Django: the offline table builds
its view from them too); the view itself is a NamedTuple like them.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts import header
from accounts.models import User
from accounts.names import Who
from games.describe import mode_order, table_mode
from games.engine import PlayerView
from games.engine.deals import commitment
from games.kinds import NEXT_HAND, STAKE_FILL, TURN_CLOCK
from games.models import Hand, Invitation, Seat, Table
from games.presence import present_users
from games.presets import PRESET_INFO
from games.states import TableState, table_state
from games.viewparts import (  # the view's parts, made alike for the offline table
    NOBODY,
    POSITIONS,
    DealProof,
    HandSummary,
    LastMove,
    SeatInfo,
    TableView,
    hand_and_moves,
    hand_summaries,
    last_move,
    log_lines,
    named,
    revealed,
    side_scores,
)
from games.viewparts import (
    SeatLabel as SeatLabel,  # a shared fragment's key, named here too
)


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
    """One viewer's view of a table's state: their own hand only (no query)."""
    table, rules, hands = state.table, state.rules, state.hands
    mine = next((s for s in state.seats if user is not None and s.user_id == user.pk), None)
    you = mine.number if mine else None
    names = {s.number: (_("You") if s.number == you else seat_name(s)) for s in state.seats}
    match = state.match()
    player = match.round.view(you) if match is not None else None
    winners = match.winners if match is not None else ()
    match_over = match is not None and match.over
    last = last_move(player, len(hands)) if player else None
    turn = player.turn if player and not player.over else None
    hand, draw_move, pass_move = hand_and_moves(player)
    deadlines = state.deadlines
    return TableView(
        table=table,
        rules=rules,
        version=table.version,
        you=you,
        is_host=user is not None and table.host_id == user.pk,
        seats=_seat_infos(state, you, names, player, last, with_presence),
        hand_number=len(hands),
        player=player,
        hand=hand,
        draw_move=draw_move,
        pass_move=pass_move,
        your_turn=bool(player and player.legal_moves),
        turn_name=named((turn,), names, you) if turn is not None else NOBODY,
        log=tuple(log_lines(player, names, state.actors, _left_at(state.seats, len(hands) - 1)))
        if player
        else (),
        scores=side_scores(rules, match, names, you),
        result=player.result if player else None,
        hand_winner_names=named(player.result.winners, names, you)
        if player and player.result and player.result.winners
        else NOBODY,
        revealed=revealed(player, names) if player else (),
        hand_summaries=tuple(_summaries(hands, names, you)) if match is not None else (),
        match_over=match_over,
        winner_names=named(winners, names, you) if winners else NOBODY,
        you_won=you is not None and you in winners,
        invitations=state.invitations,
        next_hand_at=deadlines.get(NEXT_HAND)
        if player and player.over and not match_over
        else None,
        turn_ends_at=deadlines.get(TURN_CLOCK),
        fill_ends_at=deadlines.get(STAKE_FILL),
        last_move=last,
        you_are_away=bool(mine and mine.away),
        you_are_ready=bool(mine and mine.ready),
        payouts=state.payouts.get(user.pk, ()) if user is not None else (),
        seat_notes=state.seat_notes,
        mode_label=table_mode(table),
        deal=_deal_proof(state, player, match_over),
    )


@functools.lru_cache(maxsize=4096)
def _commitment(code: str, hand: int, seed: str) -> str:
    return commitment(code, hand, seed)


def _deal_proof(state: TableState, player: PlayerView | None, match_over: bool) -> DealProof:
    """The hand's commitment; its seeds only once it is over (docs/rules.md §5: then every
    hand is shown anyway); the next hand's commitment while one is to come."""
    table = state.table
    to_come = table.status in (Table.Status.WAITING, Table.Status.PLAYING) and not match_over
    upcoming = _commitment(table.code, len(state.hands) + 1, table.deal_seed) if to_come else ""
    current = state.hands[-1] if state.hands else None
    if current is None or player is None:
        return DealProof(0, "", "", (), upcoming)
    number = current.number + 1
    if not current.verifiable:
        return DealProof(number, "", "", (), upcoming)
    shown = _commitment(table.code, number, current.seed)
    if not player.over:
        return DealProof(number, shown, "", (), upcoming)
    return DealProof(number, shown, current.seed, current.client_seed_values, upcoming)


def _seat_infos(
    state: TableState,
    you: int | None,
    names: dict[int, str],
    player: PlayerView | None,
    last: LastMove | None,
    with_presence: bool,
) -> tuple[SeatInfo, ...]:
    """Every seat as this viewer sees it, theirs at the bottom and the others round the
    table in playing order; who is online only ``with_presence`` (one cache read)."""
    table, rules, seats = state.table, state.rules, state.seats
    present = None
    if with_presence:
        people = [s.user_id for s in seats if s.user_id is not None]
        present = present_users(table_id=table.pk, user_ids=people)
    counts = player.hand_counts if player else None
    turn = player.turn if player and not player.over else None
    base = you if you is not None else 0
    positions = POSITIONS[rules.players]
    return tuple(
        SeatInfo(
            number=s.number,
            name=names[s.number],
            is_bot=s.is_bot,
            bot_level=s.bot_level,
            is_free=s.is_free,
            is_you=s.number == you,
            is_partner=you is not None
            and rules.partnerships
            and s.number != you
            and rules.side_of(s.number) == rules.side_of(you),
            is_host=s.user_id == table.host_id,
            tiles=counts[s.number] if counts else None,
            is_turn=s.number == turn,
            position=positions[(s.number - base) % rules.players],
            is_filler=s.is_filler,
            is_away=s.away,
            is_ready=s.ready,
            is_online=present is None or s.user_id is None or s.user_id in present,
            user_id=s.user_id,
            is_dealer=player is not None and player.dealer == s.number,
            last_action=last.kind if last and last.seat == s.number and last.kind != "play" else "",
            has_left=s.has_left,
        )
        for s in sorted(seats, key=lambda s: (s.number - base) % rules.players)
    )


def _summaries(hands: Iterable[Hand], names: dict[int, str], you: int | None) -> list[HandSummary]:
    return hand_summaries(((h.number, h.reason, h.winners, h.points) for h in hands), names, you)


def _left_at(seats: Iterable[Seat], hand: int) -> dict[int, list[int]]:
    """The seats whose player left during ``hand``, by the ply they left before."""
    left: dict[int, list[int]] = {}
    for s in seats:
        if s.left_hand == hand and s.left_ply is not None:
            left.setdefault(s.left_ply, []).append(s.number)
    return left


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


def games_in_progress(*, user: User) -> QuerySet[Table]:
    """Tables where ``user`` sits that are waiting or being played: to rejoin."""
    return _games_in_progress(user.pk)


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
