"""The one redacting selector: each viewer gets their own view and nothing more, read
at one version (its label matches its content however the table moves meanwhile:
no torn reads); the home page's games."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections
from django.test import Client

from accounts.models import User
from games import services
from games.engine import Play, Round, Tile
from games.models import Table
from games.records import load_match
from games.selectors import invitations_for, my_games, table_view
from games.view.parts import log_lines
from tests.fixtures import DUELLO, PAIRS, play_a_legal_move, seat_user, version_of

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


def test_a_draw_played_for_the_player_says_so_on_the_line_that_counts_the_draws() -> None:
    """Two draws in a row, the second played for the player (their only move): the one
    line that counts them says it was played automatically, as a single draw's would."""
    position = "hands=6|6,6|1/2|2,3|0 boneyard=4|4,5|1,6|2 line=- turn=0 dealer=1 opener=6|6"
    hand = Round.replay(DUELLO, position, ["6|6L", "draw", "draw"])
    lines = log_lines(hand.view(0), {0: "anna", 1: "bruno"}, ("person", "person", "forced"))
    assert [(line.kind, line.draws, line.actor) for line in lines] == [
        ("draw", 2, "forced"),
        ("play", 0, "person"),
    ]


def test_invitations_and_games_in_progress_are_listed(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_invite(table_id=table.pk, version=version_of(table), by=anna, username="bruno")
    assert [i.table for i in invitations_for(user=bruno)] == [table]
    assert [card.code for card in my_games(user=anna)] == [table.code]
    services.table_cancel(table_id=table.pk, version=version_of(table), by=anna)
    assert not invitations_for(user=bruno).exists() and not my_games(user=anna)


def _moves_in_hand(table: Table) -> int:
    return len(load_match(Table.objects.get(pk=table.pk)).round.moves)


@pytest.mark.django_db
def test_torn_reads_a_view_of_a_table_read_before_a_move_is_labelled_with_what_it_shows(
    friends_table: Table,
) -> None:
    stale = Table.objects.get(pk=friends_table.pk)  # as a consumer holds it
    viewer = seat_user(friends_table, 0)
    play_a_legal_move(friends_table)  # another process commits meanwhile
    view = table_view(table=stale, user=viewer)
    friends_table.refresh_from_db()
    assert view.version == friends_table.version
    assert view.player is not None and len(view.player.log) == _moves_in_hand(friends_table)


@pytest.mark.django_db
def test_torn_reads_the_table_page_carries_the_version_of_its_content(
    friends_table: Table, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import views

    before = _moves_in_hand(friends_table), friends_table.version

    def move_then_view(**kwargs: object) -> object:
        play_a_legal_move(friends_table)  # committed after the page found the table
        return table_view(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(views, "table_view", move_then_view)
    client.force_login(seat_user(friends_table, 0))
    page = client.get(f"/t/{friends_table.code}/").content.decode()
    friends_table.refresh_from_db()
    after = _moves_in_hand(friends_table), friends_table.version
    assert before != after
    found = re.search(r'data-version="(\d+)"', page)
    assert found is not None
    shown = page.count('<li class="ev-'), int(found[1])
    # the table as the page found it (the socket's first frame brings the move),
    # or as it is after the move: never one's log under the other's version
    assert shown in (before, after)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
@pytest.mark.django_db(transaction=True)
def test_torn_reads_views_built_while_another_connection_plays_are_never_torn(
    friends_table: Table,
) -> None:
    viewer: User = seat_user(friends_table, 0)
    first = Table.objects.get(pk=friends_table.pk).version
    stop = threading.Event()

    def play() -> None:
        rng = random.Random(7)
        try:
            for _ in range(40):
                if load_match(Table.objects.get(pk=friends_table.pk)).round.over:
                    break
                play_a_legal_move(friends_table, rng)
        finally:
            stop.set()
            connections.close_all()

    writer = threading.Thread(target=play)
    writer.start()
    labels = []
    while not stop.is_set():
        view = table_view(table=friends_table.pk, user=viewer)
        assert view.player is not None
        # One version per move in this hand: label and content move together.
        assert view.version - first == len(view.player.log), view.version
        labels.append(view.version)
    writer.join(timeout=60)
    assert len(set(labels)) > 1  # the reads really overlapped the writes


def test_my_games_show_the_opponents_the_score_and_whose_turn_it_is(
    friends_table: Table,
) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    to_move = seat_user(friends_table, load_match(friends_table).round.turn)
    card = my_games(user=anna)[0]
    assert card.opponents == bruno.display_name and card.score == "0 – 0"
    assert card.your_turn == (to_move == anna)
    assert my_games(user=bruno)[0].your_turn == (to_move == bruno)
