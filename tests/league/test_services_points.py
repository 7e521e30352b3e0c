"""League points: by final rank for online matches, half with simulated players,
nothing against the computer or with friends, people only, written once."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from deadlines.services import run_due
from economy import numbers
from games import services
from games.engine import PRESETS
from games.models import Table
from games.records import load_match
from games.services.online import Filler
from games.signals import match_finished
from league.models import Entry, Member, Tier
from league.services import match_entries
from tests.fixtures import play_a_legal_move

from .conftest import Finished, points_of


@pytest.fixture
def players(make_user: Callable[..., User]) -> list[User]:
    return [make_user(name) for name in ("uno", "due", "tre", "quattro")]


def test_two_players_earn_by_final_rank(finished: Finished, players: list[User]) -> None:
    uno, due = players[:2]
    finished([uno, due], [2, 1])
    assert (points_of(uno), points_of(due)) == ([5], [20])
    assert numbers.LEAGUE_POINTS["2"] == (20, 5)


def test_three_players_earn_by_final_rank(finished: Finished, players: list[User]) -> None:
    finished(players[:3], [3, 1, 2])
    assert [points_of(u) for u in players[:3]] == [[5], [30], [15]]


def test_four_players_each_for_themselves_earn_by_final_rank(
    finished: Finished, players: list[User]
) -> None:
    finished(players, [4, 3, 2, 1])
    assert [points_of(u) for u in players] == [[5], [15], [25], [40]]


def test_partners_share_their_side_s_rank_and_its_points(
    finished: Finished, players: list[User]
) -> None:
    finished(players, [1, 2, 1, 2], teams=True)
    assert [points_of(u) for u in players] == [[30], [10], [30], [10]]


def test_tied_players_share_a_rank_and_its_points(finished: Finished, players: list[User]) -> None:
    finished(players[:3], [1, 1, 3])  # equal scores share a rank: 1, 1, 3
    assert [points_of(u) for u in players[:3]] == [[30], [30], [5]]
    finished(players[:2], [1, 1])  # a drawn duel: both first
    assert [points_of(u)[-1] for u in players[:2]] == [20, 20]


def test_a_room_that_had_simulated_players_earns_half(
    finished: Finished, players: list[User]
) -> None:
    uno, due = players[:2]
    finished([uno, None], [1, 2], fillers=1)
    finished([None, due, None], [1, 2, 3], fillers=2)
    assert points_of(uno) == [10]  # 20 halved
    assert points_of(due) == [7]  # 15 halved, rounded down
    assert Entry.objects.filter(halved=True).count() == 2
    assert numbers.LEAGUE_SIMULATED_PERCENT == 50


def test_against_the_computer_and_with_friends_nobody_earns_league_points(
    finished: Finished, players: list[User]
) -> None:
    uno, due = players[:2]
    finished([uno, None], [1, 2], mode=Table.Mode.COMPUTER)
    finished([uno, due], [1, 2], mode=Table.Mode.FRIENDS)
    assert not Entry.objects.exists()
    assert not Member.objects.exists()


def test_bots_simulated_players_guests_and_away_seats_earn_nothing(
    finished: Finished, players: list[User], make_user: Callable[..., User]
) -> None:
    guest = make_user("ospite", guest=True)
    uno, due = players[:2]
    finished([uno, None, guest, due], [1, 2, 3, 4], fillers=1, away=[3])
    assert list(Entry.objects.values_list("user__username", flat=True)) == ["uno"]
    assert points_of(uno) == [20]  # 40 halved


def test_a_finished_match_heard_twice_counts_once(finished: Finished, players: list[User]) -> None:
    uno, due = players[:2]
    table = finished([uno, due], [1, 2])
    with transaction.atomic():
        match_finished.send(sender=Table, table=table)
    assert match_entries(table=table) == 0
    assert (points_of(uno), points_of(due)) == ([20], [5])


def test_a_player_starts_in_the_lowest_division(finished: Finished, players: list[User]) -> None:
    finished(players[:2], [1, 2])
    assert set(Member.objects.values_list("tier", flat=True)) == {Tier.BRONZE}


def test_a_match_counts_in_the_week_it_ended_in_rome(
    finished: Finished, players: list[User]
) -> None:
    uno, due = players[:2]
    sunday_night = datetime(2026, 11, 29, 22, 59, 59, tzinfo=UTC)  # 23:59:59 in Rome
    finished([uno, due], [1, 2], at=sunday_night)
    finished([uno, due], [1, 2], at=sunday_night + timedelta(seconds=1))
    weeks = list(Entry.objects.filter(user=uno).order_by("pk").values_list("week__key", flat=True))
    assert weeks == ["2026-W48", "2026-W49"]


def test_a_real_online_match_against_a_simulated_player_earns_half_points(
    make_user: Callable[..., User],
) -> None:
    solo = make_user("solo")
    table = services.online_table_create(
        rules=PRESETS["blocco"], people=[solo], fillers=[Filler("ugo", "easy")]
    )
    rng = random.Random(5)
    for _ in range(500):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        match = load_match(table)
        if table.seats.get(number=match.round.turn).is_bot or match.round.over:
            run_due(now=timezone.now() + timedelta(seconds=60))
        else:
            play_a_legal_move(table, rng)
    assert table.status == Table.Status.FINISHED
    rank = load_match(table).ranks()[0]
    entry = Entry.objects.get(user=solo)
    assert (entry.rank, entry.points, entry.halved) == (rank, (20, 5)[rank - 1] // 2, True)


def test_rules_with_pairs_take_the_pairs_column() -> None:
    from league.rules import points_for, seating_of

    assert seating_of(players=4, teams=True) == "pairs"
    assert seating_of(players=4, teams=False) == "4"
    assert points_for(seating="pairs", rank=1, simulated=True) == 15
    assert points_for(seating="2", rank=3, simulated=False) == 0  # no such rank: nothing
