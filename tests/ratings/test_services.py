"""Rating a finished match: exactly the people who played move, once, with the
rating before and after per seat; leavers lose; simulated players never move."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.db import transaction

from accounts.models import User
from games.engine import PRESETS, Rules
from games.models import Seat, Table
from games.records import load_match
from games.services import move_submit, online_table_create, stake_table_sit
from games.services.online import Filler
from games.signals import match_finished
from ratings.models import Rating, RatingChange, RatingReset
from ratings.policy import DUEL, FREE, PAIRS, START
from ratings.selectors import history, ratings_of
from ratings.services import rate_table, rating_reset
from tests.fixtures import play_to_the_end, race, seat_user
from tests.stakes import DUEL as BLOCCO_DUEL
from tests.stakes import PAIRS as BLOCCO_PAIRS

pytestmark = pytest.mark.django_db

BLOCCO_THREE: Rules = replace(PRESETS["blocco"], players=3, hand_size=5)


@pytest.fixture
def people(make_user: Callable[..., User]) -> Callable[[int], list[User]]:
    made = iter(range(1000))

    def make(n: int) -> list[User]:
        return [make_user(f"player{next(made)}") for _ in range(n)]

    return make


def changes(table: Table) -> dict[int, RatingChange]:
    return {c.seat: c for c in RatingChange.objects.filter(table=table)}


def rating(user: User, fmt: str) -> Rating | None:
    return Rating.objects.filter(user=user, format=fmt).first()


def test_an_online_duel_rates_both_people_once_with_before_and_after(
    people: Callable[[int], list[User]],
) -> None:
    anna, bruno = people(2)
    table = online_table_create(rules=BLOCCO_DUEL, people=[anna, bruno])
    play_to_the_end(table)
    table.refresh_from_db()
    by_seat = changes(table)
    assert sorted(by_seat) == [0, 1]
    for seat, change in by_seat.items():
        row = rating(seat_user(table, seat), DUEL)
        assert row is not None and row.matches == 1
        assert (change.mu_before, change.sigma_before) == (START.mu, START.sigma)
        assert (change.mu_after, change.sigma_after, change.shown_after) == (
            row.mu,
            row.sigma,
            row.shown,
        )
    if table.winners == "0,1" or not table.winners:  # a drawn hand moves nobody's points
        assert {c.outcome for c in by_seat.values()} == {"draw"}
    else:
        assert {c.outcome for c in by_seat.values()} == {"win", "loss"}
        assert sum(c.delta for c in by_seat.values()) == 0
    with transaction.atomic():  # the match ends "again": nothing changes
        match_finished.send(sender=Table, table=table)
    assert rate_table(table_id=table.pk) == []
    assert RatingChange.objects.count() == 2
    assert [rating(u, DUEL).matches for u in (anna, bruno)] == [1, 1]  # type: ignore[union-attr]


def test_games_with_friends_and_against_the_computer_are_not_rated(
    friends_table: Table, people: Callable[[int], list[User]]
) -> None:
    play_to_the_end(friends_table)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_simulated_player_plays_with_a_fixed_rating_and_only_the_person_moves(
    people: Callable[[int], list[User]],
) -> None:
    (anna,) = people(1)
    table = online_table_create(rules=BLOCCO_DUEL, people=[anna], fillers=[Filler("Marta", "hard")])
    play_to_the_end(table)
    assert list(changes(table)) == [0]
    assert Rating.objects.get().user == anna


def test_a_player_away_until_the_end_is_rated_as_having_lost(
    people: Callable[[int], list[User]],
) -> None:
    anna, bruno = people(2)
    table = online_table_create(rules=BLOCCO_DUEL, people=[anna, bruno])
    Seat.objects.filter(table=table, user=anna).update(away=True)  # as after two timeouts
    play_to_the_end(table)
    mine = RatingChange.objects.get(table=table, user=anna)
    theirs = RatingChange.objects.get(table=table, user=bruno)
    assert (mine.outcome, mine.left) == ("loss", True)
    assert mine.delta < 0 < theirs.delta  # whatever the computer did with anna's tiles


def test_an_operator_reset_is_recorded_and_shows_in_the_history(
    people: Callable[[int], list[User]],
) -> None:
    anna, bruno, admin = people(3)
    table = online_table_create(rules=BLOCCO_DUEL, people=[anna, bruno])
    play_to_the_end(table)
    before = rating(anna, DUEL)
    assert before is not None
    reset = rating_reset(user=anna, format=DUEL, by=admin, reason="shared account")
    assert (reset.by, reset.shown_before, reset.reason) == (admin, before.shown, "shared account")
    assert RatingReset.objects.count() == 1
    mine = next(r for r in ratings_of(user=anna) if r.format == DUEL)
    assert (mine.text, mine.matches) == ("1500?", 1)  # the record stays
    assert [p.reset for p in history(user=anna, format=DUEL)] == [False, False, True]
    with pytest.raises(ValueError):
        rating_reset(user=anna, format=DUEL, by=admin, reason="  ")


def _last_move(table: Table, rng: random.Random) -> tuple[User, str, int]:
    """Play people's random moves until one move would end the match: that move."""
    for _ in range(200):
        table.refresh_from_db()
        match = load_match(table)
        current = match.round
        user = seat_user(table, current.turn)
        for move in current.legal_moves():
            current.push(move)
            ends = current.result is not None
            current.pop()
            if ends:
                return user, str(move), table.version
        move = rng.choice(current.legal_moves())
        move_submit(table_id=table.pk, user=user, move=str(move), version=table.version)
    raise AssertionError("no last move found")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_pairs_three_way_and_stake_matches_ending_at_once_each_move_their_people_once(
    people: Callable[[int], list[User]], rich: Callable[[str], User]
) -> None:
    pairs = online_table_create(rules=BLOCCO_PAIRS, people=people(4))
    three = online_table_create(rules=BLOCCO_THREE, people=people(3))
    both, other, bystander = rich("both"), rich("other"), rich("bystander")
    stake = stake_table_sit(user=both, rules=BLOCCO_DUEL, stake=100)
    stake_table_sit(user=other, rules=BLOCCO_DUEL, stake=100)
    duel = online_table_create(rules=BLOCCO_DUEL, people=[both, *people(1)])
    for fmt in (DUEL, FREE, PAIRS):
        Rating.objects.create(user=bystander, format=fmt, mu=27.0, sigma=4.0)
    tables = [pairs, three, stake, duel]
    rng = random.Random(7)
    last = [_last_move(t, rng) for t in tables]

    def end(i: int) -> Any:  # each match's last move, sent twice at the same instant
        user, move, version = last[i % len(tables)]
        return move_submit(
            table_id=tables[i % len(tables)].pk, user=user, move=move, version=version
        )

    outcomes = race(2 * len(tables), end)
    assert sum(o is None for o in outcomes) == len(tables)  # the twin is refused (stale)
    for table, n in zip(tables, (4, 3, 2, 2), strict=True):
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
        seated = set(table.seats.values_list("user_id", flat=True))
        moved = set(RatingChange.objects.filter(table=table).values_list("user_id", flat=True))
        assert moved == seated and len(moved) == n
    # ``both`` ended two duels at once: one after the other, neither lost
    first, second = RatingChange.objects.filter(user=both).order_by("id")
    assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)
    assert rating(both, DUEL).matches == 2  # type: ignore[union-attr]
    assert not RatingChange.objects.filter(user=bystander).exists()
    assert set(Rating.objects.filter(user=bystander).values_list("mu", "sigma")) == {(27.0, 4.0)}
    again = race(len(tables), lambda i: rate_table(table_id=tables[i].pk))
    assert again == [[]] * len(tables)
    assert RatingChange.objects.count() == 11
