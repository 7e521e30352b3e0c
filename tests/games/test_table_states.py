"""One read per version (issue 12): a table's state is read once and shared by
every viewer, continued move by move; a frame carries only the regions that changed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games import consumers, states
from games.models import Table
from games.records import load_match
from games.selectors import table_view
from tests.fixtures import play_a_legal_move, seat_user

pytestmark = pytest.mark.django_db
LIVE = Path(__file__).resolve().parents[2] / "templates" / "games" / "_live.html"


def test_every_viewer_of_a_version_shares_one_read(
    friends_table: Table, django_assert_num_queries: Any
) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    first = table_view(table=friends_table.pk, user=anna)
    with django_assert_num_queries(1):  # the version, and nothing else
        second = table_view(table=friends_table.pk, user=bruno)
    with django_assert_num_queries(0):  # told "version v": no query at all
        table_view(table=friends_table.pk, user=None, at_least=first.version)
    assert first.version == second.version
    assert first.hand != second.hand  # each still sees only their own tiles


def test_a_new_move_is_read_on_top_of_the_last_state_and_matches_a_full_replay(
    friends_table: Table,
) -> None:
    anna = seat_user(friends_table, 0)
    for _ in range(8):
        if load_match(Table.objects.get(pk=friends_table.pk)).round.over:
            break
        before = states.table_state(friends_table.pk)
        play_a_legal_move(friends_table)
        after = states.table_state(friends_table.pk)
        assert after.version == before.version + 1
        replayed = load_match(Table.objects.get(pk=friends_table.pk))
        assert after.rounds[-1].position() == replayed.round.position()
        assert before.rounds[-1].position() != after.rounds[-1].position()  # not shared
    assert table_view(table=friends_table.pk, user=anna).player is not None


def test_the_regions_a_frame_may_carry_are_the_pages_regions() -> None:
    included = re.findall(r'{% include "(games/_\w+\.html)"', LIVE.read_text())
    assert tuple(included) == consumers.REGIONS


@pytest.mark.django_db(transaction=True)  # on_commit: the writer reads after its commit
def test_after_a_move_every_viewer_renders_without_a_query(
    friends_table: Table, django_assert_num_queries: Any
) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    play_a_legal_move(friends_table)
    version = Table.objects.get(pk=friends_table.pk).version
    with django_assert_num_queries(0):  # the writer read the new version once, for all
        views = [
            table_view(table=friends_table.pk, user=u, at_least=version) for u in (anna, bruno)
        ]
    assert {v.version for v in views} == {version}
    assert len(views[0].log) == len(views[1].log) == 1


def test_a_played_move_uses_the_remembered_state_only_at_the_locked_version(
    friends_table: Table,
) -> None:
    """The referee plays on the state this process holds when it is the table's
    version under the lock, and replays the stored game otherwise."""
    anna = seat_user(friends_table, 0)
    table_view(table=friends_table.pk, user=anna)  # remembered at this version
    locked = Table.objects.get(pk=friends_table.pk)
    assert states.match_to_play(locked).round.moves == load_match(locked).round.moves
    Table.objects.filter(pk=locked.pk).update(version=locked.version + 1)  # another process
    locked.refresh_from_db()
    fresh = states.match_to_play(locked)
    assert fresh.round.moves == load_match(locked).round.moves
    assert states.table_state(locked.pk).version == locked.version
