"""Random sequences of everything that moves coins conserve them; the audit passes after
every step, and every wallet holds what a plain model of the rules says it should."""

from __future__ import annotations

import itertools
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from accounts.models import User
from economy import numbers
from economy.audit import audit_ledger
from economy.errors import InsufficientCoins
from economy.models import Account, Item
from economy.selectors import balance_of
from economy.services import (
    adjust,
    base_reward,
    daily_bonus,
    escrow_of,
    grant_signup,
    pay_match_rewards,
    pot_pay,
    pot_shares,
    shop_buy,
    stake_refund,
    stake_sit,
    stakes_refund_all,
)
from games.hooks.escrow import StakedElsewhere
from games.models import SeatResult, Table
from games.view.errors import GameError

PRICES = {Item.GOLD_BOOSTER: numbers.GOLD_BOOSTER_PRICE, Item.VIP_PASS: numbers.VIP_PASS_PRICE}
PERCENT = {Item.GOLD_BOOSTER: numbers.GOLD_BOOSTER_PERCENT, Item.VIP_PASS: numbers.VIP_PASS_PERCENT}
names = itertools.count()


class Ledger(RuleBasedStateMachine):
    players = Bundle("players")
    stake_tables = Bundle("stake_tables")

    def __init__(self) -> None:
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()  # each run starts from the same database, rolled back after
        self.coins: dict[int, int] = {}  # the model: what each wallet should hold
        self.percent: dict[int, int] = {}
        self.days: set[tuple[int, int]] = set()
        self.seated: dict[int, dict[int, tuple[User, int]]] = {}  # table -> seat -> stake
        self.finished: list[int] = []
        self.staff = User.objects.create(username=f"op{next(names)}", is_staff=True)

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)

    @rule(target=players)
    def sign_up(self) -> User:
        user = User.objects.create(username=f"p{next(names)}")
        self.coins[user.pk] = numbers.SIGNUP_GRANT
        self.percent[user.pk] = 100
        return user

    @rule(player=players)
    def grant_again(self, player: User) -> None:
        grant_signup(user=player)

    @rule(player=players, day=st.integers(0, 3))
    def collect_daily_bonus(self, player: User, day: int) -> None:
        now = timezone.now() + timedelta(days=day)
        try:
            daily_bonus(user=player, now=now)
        except GameError:
            assert (player.pk, day) in self.days
        else:
            assert (player.pk, day) not in self.days
            self.days.add((player.pk, day))
            self.coins[player.pk] += numbers.DAILY_BONUS

    @rule(player=players, item=st.sampled_from(list(PRICES)))
    def buy(self, player: User, item: Item) -> None:
        try:
            shop_buy(user=player, item=item, token=uuid.uuid4())
        except InsufficientCoins:
            assert self.coins[player.pk] < PRICES[item]
        else:
            self.coins[player.pk] -= PRICES[item]
            self.percent[player.pk] = max(self.percent[player.pk], PERCENT[item])

    @rule(player=players, amount=st.integers(-1500, 1500).filter(bool))
    def correct(self, player: User, amount: int) -> None:
        wallet = Account.objects.get(kind=Account.Kind.WALLET, user=player)
        try:
            adjust(account=wallet, amount=amount, reason="state machine", by=self.staff)
        except InsufficientCoins:
            assert self.coins[player.pk] + amount < 0
        else:
            self.coins[player.pk] += amount

    @rule(
        data=st.data(),
        mode=st.sampled_from(["online", "friends", "computer"]),
        size=st.sampled_from([2, 3, 4]),
    )
    def finish_a_match(self, data: st.DataObject, mode: str, size: int) -> None:
        people = list(User.objects.filter(pk__in=self.coins))
        if not people:
            return
        seated = data.draw(st.lists(st.sampled_from(people), max_size=size, unique=True))
        table = Table.objects.create(
            mode=mode,
            status=Table.Status.FINISHED,
            finished_at=timezone.now(),
            host=self.staff,
            preset="domino",
            players=size,
            hand_size=7,
        )
        for seat in range(size):
            user = seated[seat] if seat < len(seated) else None
            rank = data.draw(st.integers(1, size))
            SeatResult.objects.create(
                table=table, seat=seat, user=user, side=seat, rank=rank, points=0, is_bot=not user
            )
            if user is not None:
                coins, _xp = base_reward(mode=mode, seating=str(size), rank=rank)
                self.coins[user.pk] += coins * self.percent[user.pk] // 100
        pay_match_rewards(table_id=table.pk)
        self.finished.append(table.pk)

    @precondition(lambda self: self.finished)
    @rule(data=st.data())
    def pay_a_match_again(self, data: st.DataObject) -> None:
        pay_match_rewards(table_id=data.draw(st.sampled_from(self.finished)))

    @rule(target=stake_tables, size=st.sampled_from([2, 3, 4]))
    def open_stake_table(self, size: int) -> Table:
        table = Table.objects.create(
            mode="online", host=self.staff, preset="domino", players=size, hand_size=7
        )
        self.seated[table.pk] = {}
        return table

    @rule(table=stake_tables, player=players, data=st.data())
    def sit(self, table: Table, player: User, data: st.DataObject) -> None:
        seats = self.seated[table.pk]
        free = [s for s in range(table.players) if s not in seats]
        if not free or any(u.pk == player.pk for u, _a in seats.values()):
            return
        seat = data.draw(st.sampled_from(free))
        amount = data.draw(st.sampled_from(numbers.STAKES))
        elsewhere = any(u.pk == player.pk for t in self.seated.values() for u, _a in t.values())
        try:
            stake_sit(table=table, seat=seat, user=player, amount=amount)
        except InsufficientCoins:
            assert self.coins[player.pk] < amount
        except StakedElsewhere:
            assert elsewhere  # one stake table at a time (economy.StakeInPlay)
        else:
            assert not elsewhere
            seats[seat] = (player, amount)
            self.coins[player.pk] -= amount

    @rule(table=stake_tables, seat=st.integers(0, 3))
    def leave_before_the_start(self, table: Table, seat: int) -> None:
        stake_refund(table=table, seat=seat)
        left = self.seated[table.pk].pop(seat, None)
        if left is not None:
            self.coins[left[0].pk] += left[1]

    @rule(table=consumes(stake_tables))
    def cancel(self, table: Table) -> None:
        stakes_refund_all(table=table)
        Table.objects.filter(pk=table.pk).update(status=Table.Status.CANCELLED)
        for user, amount in self.seated.pop(table.pk).values():
            self.coins[user.pk] += amount

    @rule(table=consumes(stake_tables), data=st.data())
    def play_to_the_end(self, table: Table, data: st.DataObject) -> None:
        seats = self.seated.pop(table.pk)
        if seats:
            winners = data.draw(st.lists(st.sampled_from(sorted(seats)), min_size=1, unique=True))
            pot = sum(amount for _u, amount in seats.values())
            pot_pay(table=table, winners=[(s, seats[s][0]) for s in winners])
            pot_pay(table=table, winners=[(s, seats[s][0]) for s in winners])  # a retry
            for seat, share in pot_shares(pot, winners).items():
                self.coins[seats[seat][0].pk] += share
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
        assert escrow_of(table=table).balance == 0

    @invariant()
    def the_audit_passes(self) -> None:
        report = audit_ledger()
        assert report.ok, report.problems

    @invariant()
    def every_wallet_holds_what_the_rules_say(self) -> None:
        held = {pk: balance_of(user=User(pk=pk)) for pk in self.coins}
        assert held == self.coins


@pytest.mark.django_db
def test_any_sequence_of_coin_movements_conserves_coins(**_: Any) -> None:
    # PostgreSQL runs each step several times slower; SQLite explores more.
    examples = 25 if connection.vendor == "sqlite" else 10
    run_state_machine_as_test(
        Ledger,
        settings=settings(
            max_examples=examples,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
