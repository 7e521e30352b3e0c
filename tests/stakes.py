"""Helpers for the stake tables' tests: the lifecycle's (``tests/games``) and the
escrow's and pages' (``tests/economy``): players holding exact coins, a table's
pot, a match played to its end."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest

from accounts.models import User
from deadlines.services import run_due
from economy.services import escrow_of
from games.engine import PRESETS
from games.models import Table
from games.records import load_match
from tests.economy.conftest import balance, top_up
from tests.fixtures import play_a_legal_move

DUEL = PRESETS["blocco"]  # two players, one hand: a match is quick to finish
PAIRS = replace(PRESETS["blocco"], players=4, hand_size=7, teams=True)


@pytest.fixture
def rich(make_user: Callable[..., User]) -> Callable[[str], User]:
    def make(name: str, coins: int = 1000) -> User:
        """A registered player holding exactly ``coins`` (whatever the starting grant)."""
        user = make_user(name)
        if coins != balance(user):
            top_up(user, coins - balance(user))
        return user

    return make


def pot(table: Table) -> int:
    return escrow_of(table=table).balance


def play_to_the_end(table: Table) -> None:
    """People play random legal moves; the worker deals the next hands."""
    rng = random.Random(5)
    for _ in range(500):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return
        match = load_match(table)
        if match.round.over:
            deadline = table.deadlines.get()
            run_due(now=deadline.due_at + timedelta(seconds=1))
        else:
            play_a_legal_move(table, rng)
    raise AssertionError("the match did not end")
