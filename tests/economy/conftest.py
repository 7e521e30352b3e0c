"""Fixtures for the coin tests: players with wallets, tables, result rows."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from economy.models import Account, Reason
from economy.selectors import balance_of
from economy.services import (
    house,
    post_transfer,
    wallet_of,
)
from games.models import Table
from tests.fixtures import *  # noqa: F403


@pytest.fixture(autouse=True)
def fast_passwords(settings: pytest.FixtureRequest) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture
def make_table(anna: User) -> Callable[..., Table]:
    def make(
        mode: str = "online", players: int = 2, teams: bool | None = None, status: str = "playing"
    ) -> Table:
        return Table.objects.create(
            mode=mode,
            status=status,
            host=anna,
            preset="domino",
            players=players,
            hand_size=7,
            teams=teams,
        )

    return make


def wallet(user: User) -> Account:
    return wallet_of(user=user)


def balance(user: User) -> int:
    return Account.objects.get(kind=Account.Kind.WALLET, user=user).balance


def top_up(user: User, coins: int) -> None:
    """Coins for a test, as the house's adjustment."""
    post_transfer(
        key=f"test-top-up:{user.pk}:{Account.objects.count()}:{balance(user)}",
        reason=Reason.ADJUSTMENT,
        legs=[(house(Account.Source.ADJUSTMENTS), -coins), (wallet_of(user=user), coins)],
    )


def drain_to(user: User, coins: int) -> None:
    """Coins taken from (or given to) ``user`` until the wallet holds ``coins``."""
    have = balance_of(user=user)
    if have == coins:
        return
    post_transfer(
        key=f"drain:{user.pk}",
        reason=Reason.ADJUSTMENT,
        legs=[
            (wallet_of(user=user), coins - have),
            (house(Account.Source.ADJUSTMENTS), have - coins),
        ],
    )
