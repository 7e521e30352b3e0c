"""games/services/stakes.py, as a state machine: random sequences of sits (double
clicks and new forms), leaves, unfilled tables' cancellations and matches played to
the end, by several players: the ledger stays balanced, every pot and wallet holds
what a plain model of the rules says, and nobody ever stakes at two tables at once
(from sitting down until the match ends, the table is cancelled or they stand up)."""

from __future__ import annotations

import itertools
import random
import uuid
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from economy.audit import audit_ledger
from economy.errors import InsufficientCoins
from economy.models import Entry, Reason
from economy.selectors import balance_of
from economy.services import escrow_of, pot_shares
from games import states
from games.engine import PRESETS
from games.kinds import STAKE_FILL
from games.models import SeatResult, Table
from games.records import load_match
from games.services import deals as service_deals
from games.services.stakes import (
    AlreadySeated,
    stake_table_expire,
    stake_table_leave,
    stake_table_sit,
)
from games.view.errors import GameError
from tests.fixtures import play_a_legal_move, seeded_deals

STAKE = 100
SETTINGS = (PRESETS["blocco"], replace(PRESETS["blocco"], players=3, hand_size=5))
PLAYERS = 4
names = itertools.count()


@dataclass
class ModelTable:
    setting: int
    seated: list[int] = field(default_factory=list)  # player indexes (not in seat order)
    status: str = Table.Status.WAITING


class StakeTables(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()  # each run starts from the same database, rolled back after
        self.players = [User.objects.create(username=f"s{next(names)}") for _ in range(PLAYERS)]
        self.coins = [balance_of(user=p) for p in self.players]  # the model's wallets
        self.tables: dict[int, ModelTable] = {}  # by table id, oldest first
        # player -> (token, setting, table id) of their last sit
        self.last_sit: dict[int, tuple[uuid.UUID, int, int]] = {}
        self.rng = random.Random(7)
        # Deals from a seeded generator: a sequence replayed plays the same matches.
        self.dealing = mock.patch.object(service_deals, "deal", seeded_deals(random.Random(11)))
        self.dealing.start()

    def teardown(self) -> None:
        self.dealing.stop()
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)
        states.forget()  # ids are reused after the rollback

    def _player(self, user_id: int) -> int:
        return [p.pk for p in self.players].index(user_id)

    def _in_play(self, player: int, *statuses: str) -> int | None:
        """The table where the player's stake is in play (one of ``statuses`` only)."""
        statuses = statuses or (Table.Status.WAITING, Table.Status.PLAYING)
        tables = [
            pk for pk, t in self.tables.items() if t.status in statuses and player in t.seated
        ]
        assert len(tables) <= 1
        return tables[0] if tables else None

    @rule(player=st.integers(0, PLAYERS - 1), setting=st.integers(0, 1), again=st.booleans())
    def sit(self, player: int, setting: int, again: bool) -> None:
        if again and player in self.last_sit:  # the same form sent again
            token, setting, table_id = self.last_sit[player]
            before = list(self.coins)
            assert (
                stake_table_sit(
                    user=self.players[player], rules=SETTINGS[setting], stake=STAKE, token=token
                ).pk
                == table_id
            )
            assert self.coins == before
            return
        token = uuid.uuid4()
        try:
            table = stake_table_sit(
                user=self.players[player], rules=SETTINGS[setting], stake=STAKE, token=token
            )
        except AlreadySeated as error:
            assert error.table.pk == self._in_play(player)
            return
        except InsufficientCoins:
            assert self._in_play(player) is None and self.coins[player] < STAKE
            return
        assert self._in_play(player) is None and self.coins[player] >= STAKE
        free = [
            pk
            for pk, t in self.tables.items()
            if t.setting == setting
            and t.status == Table.Status.WAITING
            and len(t.seated) < SETTINGS[setting].players
        ]
        assert table.pk == (free[0] if free else table.pk)  # the oldest open table, else new
        model = self.tables.setdefault(table.pk, ModelTable(setting))
        model.seated.append(player)
        self.coins[player] -= STAKE
        self.last_sit[player] = (token, setting, table.pk)
        if len(model.seated) == SETTINGS[setting].players:
            model.status = Table.Status.PLAYING
        table.refresh_from_db()
        assert table.status == model.status

    @rule(player=st.integers(0, PLAYERS - 1))
    def leave(self, player: int) -> None:
        table_id = self._in_play(player, Table.Status.WAITING)
        known = [pk for pk, t in self.tables.items() if player in t.seated]
        if table_id is None and not known:
            return
        target = table_id if table_id is not None else self.rng.choice(known)
        table = Table.objects.get(pk=target)
        try:
            stake_table_leave(table_id=target, user=self.players[player], version=table.version)
        except GameError as error:
            assert table_id is None, error.message  # only an open seat can be left
            status = self.tables[target].status
            expected = {
                Table.Status.PLAYING: "The game has started",
                Table.Status.FINISHED: "This game is over",
                Table.Status.CANCELLED: "This table was cancelled",
            }[Table.Status(status)]
            assert expected in error.message
            return
        model = self.tables[target]
        model.seated.remove(player)
        self.coins[player] += STAKE
        if not model.seated:
            model.status = Table.Status.CANCELLED

    @precondition(lambda self: any(t.status == "waiting" for t in self.tables.values()))
    @rule(data=st.data())
    def nobody_comes_in_time(self, data: Any) -> None:
        waiting = [pk for pk, t in self.tables.items() if t.status == Table.Status.WAITING]
        table_id = data.draw(st.sampled_from(waiting))
        deadline = Deadline.objects.get(table_id=table_id, kind=STAKE_FILL)
        assert stake_table_expire(deadline, deadline.due_at + timedelta(seconds=1))
        assert not stake_table_expire(deadline, deadline.due_at + timedelta(seconds=2))  # once
        model = self.tables[table_id]
        for player in model.seated:
            self.coins[player] += STAKE
        model.status = Table.Status.CANCELLED

    @precondition(lambda self: any(t.status == "playing" for t in self.tables.values()))
    @rule(data=st.data())
    def play_to_the_end(self, data: Any) -> None:
        playing = [pk for pk, t in self.tables.items() if t.status == Table.Status.PLAYING]
        table = Table.objects.get(pk=data.draw(st.sampled_from(playing)))
        for _ in range(200):
            table.refresh_from_db()
            if table.status != Table.Status.PLAYING:
                break
            if load_match(table).round.over:
                run_due(now=table.deadlines.get().due_at + timedelta(seconds=1))
            else:
                play_a_legal_move(table, self.rng)
        assert table.status == Table.Status.FINISHED
        model = self.tables[table.pk]
        model.status = Table.Status.FINISHED
        results = SeatResult.objects.filter(table=table).values_list("seat", "rank", "user")
        player_of = {seat: self._player(user) for seat, _rank, user in results}
        assert sorted(player_of.values()) == sorted(model.seated)
        winners = [seat for seat, rank, _user in results if rank == 1]
        if len(winners) == len(player_of):  # a drawn hand: every stake back
            for player in model.seated:
                self.coins[player] += STAKE
        else:
            for seat, share in pot_shares(STAKE * len(model.seated), winners).items():
                self.coins[player_of[seat]] += share

    @invariant()
    def the_audit_passes(self) -> None:
        report = audit_ledger()
        assert report.ok, report.problems

    @invariant()
    def each_wallet_holds_what_the_model_says(self) -> None:
        for player, user in enumerate(self.players):
            # besides stakes, refunds and pots, a finished match pays the house's rewards
            rewards = Entry.objects.filter(
                account__user=user, transfer__reason=Reason.REWARD
            ).aggregate(coins=Sum("amount"))["coins"]
            assert balance_of(user=user) == self.coins[player] + (rewards or 0)

    @invariant()
    def each_pot_holds_the_stakes_of_its_open_seats(self) -> None:
        for table_id, model in self.tables.items():
            pot = escrow_of(table=Table(pk=table_id)).balance
            held = STAKE * len(model.seated)
            assert pot == (held if model.status in ("waiting", "playing") else 0), model

    @invariant()
    def nobody_stakes_at_two_tables(self) -> None:
        in_play = Q(seats__table__status__in=["waiting", "playing"], seats__table__stake__gt=0)
        seats = (
            User.objects.filter(pk__in=[p.pk for p in self.players])
            .annotate(open_seats=Count("seats", filter=in_play))
            .values_list("open_seats", flat=True)
        )
        assert max(seats) <= 1


@pytest.mark.django_db
def test_any_sequence_of_sits_leaves_cancellations_and_ends_keeps_the_pots_right() -> None:
    examples = 20 if connection.vendor == "sqlite" else 8
    run_state_machine_as_test(
        StakeTables,
        settings=settings(
            max_examples=examples,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
