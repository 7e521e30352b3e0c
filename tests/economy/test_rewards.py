"""Match rewards from the result rows (docs/rules.md §7): coins and XP by mode and rank."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.levels import level_for
from accounts.models import User
from economy import numbers
from economy.audit import audit_ledger
from economy.models import Item, Reason, Transfer, XpAward
from economy.selectors import balance_of
from economy.services import (
    pay_match_rewards,
    pot_pay,
    shop_buy,
    stake_sit,
)
from games.models import SeatResult, Table
from tests.fixtures import race

from .conftest import top_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user: Callable[..., User]) -> list[User]:
    return [make_user(name) for name in ("pia", "quirino", "rita", "sara")]


def finish(table: Table, rows: list[tuple[User | None, int, int]], **flags: bool) -> None:
    """Result rows: (user, side, rank) per seat, in seat order."""
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now()
    table.save()
    for seat, (user, side, rank) in enumerate(rows):
        SeatResult.objects.create(
            table=table,
            seat=seat,
            user=user,
            side=side,
            rank=rank,
            points=100 if rank == 1 else 40,
            is_bot=flags.get("is_bot", False) if user is not None else True,
            is_filler=flags.get("is_filler", False),
        )


def earned(users: list[User], before: list[int]) -> list[int]:
    return [balance_of(user=u) - b for u, b in zip(users, before, strict=True)]


def test_online_pays_every_seat_by_rank_first_to_last(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    for n, seating in ((2, "2"), (3, "3"), (4, "4")):
        table = make_table(mode="online", players=n)
        before = [balance_of(user=u) for u in players[:n]]
        finish(table, [(u, i, i + 1) for i, u in enumerate(players[:n])])
        pay_match_rewards(table_id=table.pk)
        assert earned(players[:n], before) == list(numbers.ONLINE_COINS[seating])
        xp = [XpAward.objects.get(key=f"xp:{table.pk}:{u.pk}").amount for u in players[:n]]
        assert xp == list(numbers.ONLINE_XP[seating])


def test_the_online_reward_numbers() -> None:
    assert numbers.ONLINE_COINS == {
        "2": (60, 20),
        "3": (80, 40, 20),
        "4": (100, 60, 40, 20),
        "pairs": (80, 30),
    }
    assert numbers.ONLINE_XP == {
        "2": (30, 10),
        "3": (40, 20, 10),
        "4": (50, 30, 20, 10),
        "pairs": (40, 15),
    }


def test_online_pairs_pay_each_partner_their_side_s_rank(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    table = make_table(mode="online", players=4, teams=True)
    before = [balance_of(user=u) for u in players]
    p, q, r, s = players
    finish(table, [(p, 0, 1), (q, 1, 2), (r, 0, 1), (s, 1, 2)])
    pay_match_rewards(table_id=table.pk)
    assert earned(players, before) == [80, 30, 80, 30]


def test_ties_share_a_rank(make_table: Callable[..., Table], players: list[User]) -> None:
    table = make_table(mode="online", players=3)
    before = [balance_of(user=u) for u in players[:3]]
    finish(table, [(players[0], 0, 1), (players[1], 1, 1), (players[2], 2, 3)])
    pay_match_rewards(table_id=table.pk)
    assert earned(players[:3], before) == [80, 80, 20]


def test_friends_pay_only_the_winners_at_half_the_online_rate(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    table = make_table(mode="friends", players=4, teams=True)
    before = [balance_of(user=u) for u in players]
    p, q, r, s = players
    finish(table, [(p, 0, 2), (q, 1, 1), (r, 0, 2), (s, 1, 1)])
    pay_match_rewards(table_id=table.pk)
    assert earned(players, before) == [0, 40, 0, 40]
    assert XpAward.objects.filter(table=table).count() == 2
    assert {a.amount for a in XpAward.objects.filter(table=table)} == {20}


def test_vs_computer_pays_nothing(make_table: Callable[..., Table], players: list[User]) -> None:
    table = make_table(mode="computer", players=2)
    finish(table, [(players[0], 0, 1), (None, 1, 2)])
    pay_match_rewards(table_id=table.pk)
    assert not Transfer.objects.filter(reason=Reason.REWARD).exists()
    assert not XpAward.objects.exists()


def test_bots_fillers_guests_and_seats_a_bot_finished_are_not_paid(
    make_table: Callable[..., Table], players: list[User], make_user: Callable[..., User]
) -> None:
    guest = make_user("guest-zz", guest=True)
    table = make_table(mode="online", players=4)
    table.fillers = 1
    table.save()
    finish(table, [(players[0], 0, 1), (None, 1, 2), (guest, 2, 3), (players[1], 3, 4)])
    SeatResult.objects.filter(table=table, seat=3).update(is_bot=True)  # left; a bot finished
    pay_match_rewards(table_id=table.pk)
    paid = set(Transfer.objects.filter(reason=Reason.REWARD).values_list("key", flat=True))
    assert paid == {f"reward:{table.pk}:{players[0].pk}"}


def test_rewards_are_paid_once_however_often_asked(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    table = make_table(mode="online", players=2)
    finish(table, [(players[0], 0, 1), (players[1], 1, 2)])
    before = [balance_of(user=u) for u in players[:2]]
    for _ in range(3):
        pay_match_rewards(table_id=table.pk)
    assert earned(players[:2], before) == [60, 20]
    players[0].refresh_from_db()
    assert players[0].xp == 30


def test_a_booster_multiplies_rewards_and_xp(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    pia = players[0]
    shop_buy(user=pia, item=Item.GOLD_BOOSTER, token=uuid.uuid4(), now=timezone.now())
    table = make_table(mode="online", players=2)
    before = balance_of(user=pia)
    finish(table, [(pia, 0, 1), (players[1], 1, 2)])
    pay_match_rewards(table_id=table.pk)
    assert balance_of(user=pia) - before == 90  # 60 × 1.5
    award = XpAward.objects.get(key=f"xp:{table.pk}:{pia.pk}")
    assert (award.amount, award.boosted) == (45, True)
    assert Transfer.objects.get(key=f"reward:{table.pk}:{pia.pk}").boosted
    assert not Transfer.objects.get(key=f"reward:{table.pk}:{players[1].pk}").boosted


def test_a_booster_never_multiplies_a_pot(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    pia, quirino = players[:2]
    top_up(pia, 1000)
    shop_buy(user=pia, item=Item.VIP_PASS, token=uuid.uuid4(), now=timezone.now())
    table = make_table(mode="online", players=2, status="playing")
    stake_sit(table=table, seat=0, user=pia, amount=100)
    stake_sit(table=table, seat=1, user=quirino, amount=100)
    before = balance_of(user=pia)
    pot = pot_pay(table=table, winners=[(0, pia)])
    assert pot is not None and not pot.boosted
    assert balance_of(user=pia) - before == 200


def test_xp_is_a_cache_of_the_awards_and_gives_the_level(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    pia = players[0]
    for _ in range(4):
        table = make_table(mode="online", players=4)
        finish(table, [(u, i, i + 1) for i, u in enumerate(players)])
        pay_match_rewards(table_id=table.pk)
    pia.refresh_from_db()
    assert pia.xp == 200 == sum(a.amount for a in XpAward.objects.filter(user=pia))
    assert level_for(pia.xp).number == 2
    assert audit_ledger().ok


def test_rewards_use_the_booster_active_when_the_match_ended(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    pia = players[0]
    long_ago = timezone.now() - timedelta(days=3)
    shop_buy(user=pia, item=Item.GOLD_BOOSTER, token=uuid.uuid4(), now=long_ago)
    table = make_table(mode="online", players=2)
    finish(table, [(pia, 0, 1), (players[1], 1, 2)])
    pay_match_rewards(table_id=table.pk)
    assert not Transfer.objects.get(key=f"reward:{table.pk}:{pia.pk}").boosted


def test_the_end_of_a_match_pays_its_rewards(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    from games.signals import match_finished

    table = make_table(mode="online", players=2)
    before = [balance_of(user=u) for u in players[:2]]
    finish(table, [(players[0], 0, 1), (players[1], 1, 2)])
    match_finished.send(sender=Table, table=table)
    assert earned(players[:2], before) == [60, 20]


def test_a_stake_table_pays_xp_as_online_and_no_house_coins(
    make_table: Callable[..., Table], players: list[User]
) -> None:
    table = make_table(mode="online", players=2)
    table.stake = 100
    table.save()
    before = [balance_of(user=u) for u in players[:2]]
    finish(table, [(players[0], 0, 1), (players[1], 1, 2)])
    pay_match_rewards(table_id=table.pk)
    assert earned(players[:2], before) == [0, 0]
    assert [a.amount for a in XpAward.objects.filter(table=table).order_by("user_id")] == [30, 10]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_paying_the_same_match_pay_once(
    anna: User, bruno: User, make_table: Callable[..., Table]
) -> None:
    table = make_table(mode="online", status="finished")
    Table.objects.filter(pk=table.pk).update(finished_at=timezone.now())
    for seat, user in enumerate((anna, bruno)):
        SeatResult.objects.create(
            table=table, seat=seat, user=user, side=seat, rank=seat + 1, points=0, is_bot=False
        )
    start = balance_of(user=anna), balance_of(user=bruno)
    results = race(3, lambda i: pay_match_rewards(table_id=table.pk))
    assert results == [None, None, None]
    assert (balance_of(user=anna), balance_of(user=bruno)) == (start[0] + 60, start[1] + 20)
    anna.refresh_from_db()
    assert anna.xp == 30 and audit_ledger().ok
