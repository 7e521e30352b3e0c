"""Simulated players' names: plausible, valid usernames, distinct, never an account's,
and never running out however many of them people have registered."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest

from accounts.models import User
from accounts.services import username_check
from accounts.usernames import username_key
from deadlines.services import run_due
from games.engine import PRESETS
from games.models import Table
from matchmaking import names
from matchmaking.names import filler_names
from matchmaking.services import queue_join
from tests.matchmaking.names import base_names

pytestmark = pytest.mark.django_db

PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)
LATER = timedelta(seconds=21)  # past the 20-second fill timeout of these tests
BASE_KEYS = {username_key(n) for n in base_names()}


def register_every_base_name() -> None:
    """Every name the styles make is somebody's, in capitals (sign-up's folding is
    ``username_key``; one bulk insert, since there are thousands)."""
    User.objects.bulk_create(
        (User(username=n.upper(), username_key=username_key(n), password="!") for n in BASE_KEYS),
        batch_size=2000,
    )


def a_player_could_choose(name: str) -> bool:
    """Sign-up would take this name as it is: valid, free, not a guest's."""
    User.username_validator(name)
    return username_check(name) == name


def test_names_look_like_players_names_and_sign_up_would_accept_them() -> None:
    assert len(BASE_KEYS) > 15_000
    for seed in range(20):
        chosen = filler_names(3, rng=random.Random(seed))
        assert len({username_key(n) for n in chosen}) == 3
        assert all(username_key(n) in BASE_KEYS for n in chosen)  # no number needed
        assert all(a_player_could_choose(n) for n in chosen)


def test_with_every_base_name_taken_the_fill_still_seats_the_lone_player() -> None:
    register_every_base_name()
    anna = User.objects.create_user("anna", password="correct horse battery")
    ticket = queue_join(user=anna, rules=PAIRS)
    assert run_due(now=ticket.joined_at + LATER) == 1
    table = Table.objects.get()
    fillers = [s.bot_name for s in table.seats.filter(is_filler=True)]
    keys = {username_key(n) for n in fillers}
    assert len(fillers) == 3 and len(keys) == 3  # distinct, whatever the case
    assert not User.objects.filter(username_key__in=keys).exists()
    assert not keys & BASE_KEYS  # each a base name with a number added
    assert all(a_player_could_choose(n) for n in fillers)


def test_a_taken_name_gets_a_number_as_a_player_would(
    monkeypatch: pytest.MonkeyPatch, make_user: Callable[..., User]
) -> None:
    """A vocabulary of one name: once it is taken, only numbers tell them apart."""
    monkeypatch.setattr(names, "STYLES", {"{first}.{surname}": 1})
    monkeypatch.setitem(names.PARTS, "first", ("marco",))
    monkeypatch.setitem(names.PARTS, "surname", ("rossi",))
    make_user("MARCO.ROSSI")
    chosen = filler_names(3, rng=random.Random(1))
    keys = {username_key(n) for n in chosen}
    assert len(keys) == 3 and "marco.rossi" not in keys
    assert all(k.removeprefix("marco.rossi").isdigit() for k in keys)
