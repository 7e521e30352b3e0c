"""What the lobby shows (matchmaking/selectors.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from accounts.models import User
from games.engine import PRESETS
from matchmaking.models import pool_key
from matchmaking.selectors import pool_counts
from matchmaking.services import queue_join, queue_leave

pytestmark = pytest.mark.django_db

DUO = replace(PRESETS["domino"], players=2, hand_size=7, target=100)
PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)
DUELLO_100 = replace(PRESETS["duello"], target=100)


def test_the_lobby_counts_the_people_waiting_busiest_settings_first(
    make_user: Callable[..., User],
) -> None:
    anna, bruno, carla, dino, elsa, fede = (
        make_user(n) for n in ("anna", "bruno", "carla", "dino", "elsa", "fede")
    )
    assert pool_counts() == []
    for player in (anna, bruno, carla):
        queue_join(user=player, rules=PAIRS)
    queue_join(user=dino, rules=DUELLO_100)
    queue_join(user=elsa, rules=DUO)
    counted = [(c.pool.key, c.waiting) for c in pool_counts()]
    alone = sorted([(pool_key(DUELLO_100), 1), (pool_key(DUO), 1)])  # a tie: by key
    assert counted == [(pool_key(PAIRS), 3), *alone]
    queue_leave(user=bruno)  # who left waits no more
    queue_join(user=fede, rules=DUO)  # elsa and fede are seated: nobody waits there
    counted = [(c.pool.key, c.waiting) for c in pool_counts()]
    assert counted == [(pool_key(PAIRS), 2), (pool_key(DUELLO_100), 1)]
