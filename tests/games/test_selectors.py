"""The one redacting selector: each viewer gets their own view and nothing more."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from accounts.models import User
from games import services
from games.engine import Play, Tile
from games.models import Table
from games.records import load_match
from games.selectors import games_in_progress, invitations_for, table_view
from tests.fixtures import DUELLO, PAIRS, play_a_legal_move, version_of

pytestmark = pytest.mark.django_db


def _tiles(obj: object, seen: set[int] | None = None) -> set[Tile]:
    """Every Tile reachable from a view (dataclasses, tuples, dicts)."""
    seen = seen if seen is not None else set()
    if id(obj) in seen or isinstance(obj, str | int | float | bool | type(None) | Table):
        return set()
    seen.add(id(obj))
    if isinstance(obj, Tile):
        return {obj}
    if isinstance(obj, Play):
        return {obj.tile}
    found: set[Tile] = set()
    if isinstance(obj, tuple | list | set):
        for x in obj:
            found |= _tiles(x, seen)
    elif hasattr(obj, "__dataclass_fields__"):
        for name in obj.__dataclass_fields__:
            found |= _tiles(getattr(obj, name), seen)
    return found


def test_a_seat_sees_its_own_hand_and_a_spectator_sees_none(
    friends_table: Table, make_user: Callable[..., User]
) -> None:
    rng = random.Random(3)
    for _ in range(5):
        play_a_legal_move(friends_table, rng)
    r = load_match(friends_table).round
    on_line = {p.tile for p in r.line}
    for seat in (0, 1):
        user = friends_table.seats.get(number=seat).user
        tv = table_view(table=friends_table, user=user)
        assert {h.tile for h in tv.hand} == set(r.hands[seat])
        assert _tiles(tv) <= set(r.hands[seat]) | on_line
    spectator = table_view(table=friends_table, user=make_user("carla"))
    assert spectator.hand == () and spectator.you is None
    assert _tiles(spectator) <= on_line


def test_every_hand_is_shown_once_the_hand_is_over(friends_table: Table) -> None:
    rng = random.Random(5)
    while not load_match(friends_table).round.over:
        play_a_legal_move(friends_table, rng)
    tv = table_view(table=friends_table, user=friends_table.host)
    assert tv.result is not None and len(tv.revealed) == 2
    assert sum(len(h.tiles) for h in tv.revealed) == sum(
        len(h) for h in load_match(friends_table).round.hands
    )


def test_seats_are_placed_around_the_viewer_with_the_partner_opposite(anna: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=PAIRS)
    tv = table_view(table=table, user=anna)
    assert [(s.number, s.position) for s in tv.seats] == [
        (0, "bottom"),
        (1, "left"),
        (2, "top"),
        (3, "right"),
    ]
    assert [s.is_partner for s in tv.seats] == [False, False, True, False]
    assert tv.seats[0].name == "You"
    assert tv.scores[0].names.startswith("You")


def test_the_hand_marks_playable_tiles_and_their_ends(friends_table: Table) -> None:
    match = load_match(friends_table)
    turn = match.round.turn
    user = friends_table.seats.get(number=turn).user
    tv = table_view(table=friends_table, user=user)
    playable = [h for h in tv.hand if h.playable]
    assert tv.your_turn and len(playable) >= 1
    assert {m for h in playable for _, m in h.moves} == {str(m) for m in match.round.legal_moves()}


def test_consecutive_draws_show_as_one_line_with_a_count(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    hand = table.hands.get()
    hand.initial_position = (
        "hands=6|6,6|1/2|2,3|0 boneyard=4|4,5|1,6|2 line=- turn=0 dealer=1 opener=6|6"
    )
    hand.save()
    table.refresh_from_db()
    for move in ("6|6L", "draw", "draw", "draw"):
        user = anna if move.startswith("6") else bruno
        services.move_submit(table_id=table.pk, user=user, move=move, version=table.version)
        table.refresh_from_db()
    lines = table_view(table=table, user=anna).log
    assert [(line.kind, line.draws) for line in lines] == [("draw", 3), ("play", 0)]
    assert lines[0].ends == (6, 6)


def test_invitations_and_games_in_progress_are_listed(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_invite(table_id=table.pk, version=version_of(table), by=anna, username="bruno")
    assert [i.table for i in invitations_for(user=bruno)] == [table]
    assert list(games_in_progress(user=anna)) == [table]
    services.table_cancel(table_id=table.pk, version=version_of(table), by=anna)
    assert not invitations_for(user=bruno).exists() and not games_in_progress(user=anna).exists()
