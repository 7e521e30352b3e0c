"""games/view/bot_names.py: every computer player at a table has its own name, from its level's
list, and the same one on its seat, in the log, the result and the scoreboard."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from deadlines.services import run_due
from games import services
from games.live import frames
from games.models import Table
from games.records import load_match
from games.selectors import table_view
from games.view.bot_names import BOT_NAMES
from tests.fixtures import PAIRS, version_of

pytestmark = pytest.mark.django_db


def _bot_names(table: Table) -> list[str]:
    return [s.bot_name for s in table.seats.order_by("number") if s.is_bot]


def test_every_bot_at_a_four_player_table_has_its_own_name_from_its_levels_list(
    anna: User,
) -> None:
    for level in BOT_NAMES:
        table = services.table_create(
            host=anna, mode=Table.Mode.COMPUTER, rules=PAIRS, bot_level=level
        )
        names = _bot_names(table)
        assert len(names) == 3 and len(set(names)) == 3
        assert set(names) <= set(BOT_NAMES[level])
        assert table.seats.get(number=0).bot_name == ""  # the host is a person


def test_bots_the_host_adds_get_names_distinct_at_the_table_and_lose_them_when_removed(
    anna: User,
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PAIRS)
    services.table_set_bot(
        table_id=table.pk, by=anna, seat_number=1, level="hard", version=version_of(table)
    )
    services.table_fill_with_bots(
        table_id=table.pk, by=anna, level="hard", version=version_of(table)
    )
    names = _bot_names(table)
    assert len(set(names)) == 3 and set(names) <= set(BOT_NAMES["hard"])
    swapped = table.seats.get(number=1).bot_name
    services.table_swap_seats(table_id=table.pk, by=anna, a=0, b=1, version=version_of(table))
    assert table.seats.get(number=0).bot_name == swapped  # the name goes with the bot
    services.table_set_bot(
        table_id=table.pk, by=anna, seat_number=3, level="", version=version_of(table)
    )
    assert table.seats.get(number=3).bot_name == ""


def _play_the_hand_out(table: Table, person: User) -> None:
    """The person plays their first legal move; the bots play when their time comes."""
    for _ in range(200):
        table.refresh_from_db()
        match = load_match(table)
        if match.round.over:
            return
        if match.round.turn == 0:
            services.move_submit(
                table_id=table.pk,
                user=person,
                move=str(match.round.legal_moves()[0]),
                version=table.version,
            )
        else:
            run_due(now=timezone.now() + timedelta(minutes=5))
    raise AssertionError("the hand did not end")


def test_a_bots_name_is_the_same_on_its_seat_the_log_the_result_and_the_scoreboard(
    anna: User,
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=PAIRS)
    bots = set(_bot_names(table))
    _play_the_hand_out(table, anna)
    tv = table_view(table=table, user=anna)
    assert {s.name for s in tv.seats} == bots | {"You"}
    assert {line.name for line in tv.log} <= bots | {"You"}
    assert {line.name for line in tv.log} & bots  # the bots moved, under their names
    assert {r.name for r in tv.revealed} == bots | {"You"}
    partner = table.seats.get(number=2).bot_name
    assert any(s.names == f"You & {partner}" for s in tv.scores)
    page, _ = frames.page_screen({"tv": tv, "share_url": ""})
    for name in bots:
        assert page.count(name) >= 3  # seat card, log or result, scoreboard
