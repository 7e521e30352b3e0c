"""A person's only possible move (a single tile that fits, a draw, a pass, the hand's
forced opening) is played for them after a short pause their screen shows, at any
table, unless they turned it off (guests too).  The server decides: a deadline row,
applied by the worker; time comes from its injectable clock (``run_due(now=…)``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from django.db import transaction
from django.template.loader import render_to_string

from accounts.models import User
from deadlines.models import Deadline
from deadlines.services import run_due
from games import services, states
from games.constants import FORCED_PAUSE_SECONDS, HAND_START_GRACE
from games.engine import PRESETS, Round
from games.kinds import BOT_MOVE, FORCED_MOVE, TURN_CLOCK
from games.live.commands import dispatch
from games.models import Hand, Move, Table
from games.records import load_match
from games.selectors import table_view
from games.services.play import schedule
from games.view.errors import GameError
from tests.fixtures import version_of

pytestmark = pytest.mark.django_db

PAUSE = timedelta(seconds=FORCED_PAUSE_SECONDS)
GRACE = timedelta(seconds=HAND_START_GRACE)
BLOCK = replace(PRESETS["luciano"], draw=False)


def dealt_at(table: Table) -> datetime:
    return (
        Hand.objects.filter(table=table).order_by("-number").values_list("created_at", flat=True)[0]
    )


def with_hands(table: Table, hands: list[list[str]], *, dealer: int, ago: float = 0) -> None:
    """The table's hand as if it had been dealt these tiles ``ago`` seconds ago."""
    r = Round.from_hands(table.rules, hands, boneyard=[], dealer=dealer)
    dealt = dealt_at(table) - timedelta(seconds=ago)
    Hand.objects.filter(table=table).update(initial_position=r.initial_position, created_at=dealt)
    states.forget()
    with transaction.atomic():
        schedule(table, load_match(table), list(table.seats.order_by("number")), dealt=dealt)


def moves(table: Table) -> list[Move]:
    return list(Move.objects.filter(hand__table=table).order_by("hand__number", "ply"))


def deadline(table: Table, kind: str) -> Deadline | None:
    return table.deadlines.filter(kind=kind).first()


def computer_table(user: User) -> Table:
    table = services.table_create(host=user, mode=Table.Mode.COMPUTER, rules=BLOCK)
    # the computer opens with the 6|6; the person holds nothing that fits: a pass
    with_hands(table, [["0|0", "2|2", "3|3"], ["6|6", "6|5", "1|1"]], dealer=0, ago=60)
    run_due(now=deadline(table, BOT_MOVE).due_at)  # type: ignore[union-attr]
    return table


def test_a_person_s_only_move_is_played_for_them_after_a_pause(anna: User) -> None:
    table = computer_table(anna)
    (opening,) = moves(table)
    forced = deadline(table, FORCED_MOVE)
    assert forced is not None and deadline(table, TURN_CLOCK) is None  # no clock here
    assert forced.due_at - opening.created_at <= PAUSE + timedelta(milliseconds=500)
    run_due(now=forced.due_at - timedelta(milliseconds=50))
    assert len(moves(table)) == 1  # the pause is the player's
    run_due(now=forced.due_at)
    played = moves(table)[-1]
    assert (played.seat, played.text, played.actor) == (0, "pass", Move.Actor.FORCED)


def test_the_player_sees_the_pause_and_the_log_says_what_happened(anna: User) -> None:
    table = computer_table(anna)
    tv = table_view(table=table, user=anna)
    assert tv.forced_at == deadline(table, FORCED_MOVE).due_at  # type: ignore[union-attr]
    assert tv.plays_forced_moves is True
    status = render_to_string("games/_status.html", {"tv": tv})
    assert "Your only move: played for you in" in status
    options = render_to_string("games/_options.html", {"tv": tv})
    assert 'id="forced-moves" aria-pressed="true"' in options
    run_due(now=tv.forced_at)  # type: ignore[arg-type]
    log = render_to_string("games/_log.html", {"tv": table_view(table=table, user=anna)})
    assert "the only move, played automatically" in log


def test_turned_off_the_player_plays_it_themselves(make_user: object) -> None:
    guest = make_user("guest-0f0f0f0f", guest=True)  # type: ignore[operator]
    services.forced_moves_choose(user=guest, on=False)
    table = computer_table(guest)
    assert deadline(table, FORCED_MOVE) is None
    run_due(now=dealt_at(table) + timedelta(hours=1))
    assert len(moves(table)) == 1  # nothing played for them, however long they wait
    tv = table_view(table=table, user=guest)
    assert tv.forced_at is None and tv.plays_forced_moves is False
    assert "played for you" not in render_to_string("games/_status.html", {"tv": tv})
    services.move_submit(table_id=table.pk, user=guest, move="pass", version=version_of(table))
    assert moves(table)[-1].actor == Move.Actor.PERSON


def test_turned_on_or_off_at_the_table_the_deadline_follows(anna: User) -> None:
    table = computer_table(anna)
    version = version_of(table)
    dispatch(table_id=table.pk, user=anna, data={"action": "forced", "on": False})
    assert deadline(table, FORCED_MOVE) is None and version_of(table) == version + 1
    assert User.objects.get(pk=anna.pk).plays_forced_moves is False
    assert table_view(table=table, user=anna).plays_forced_moves is False
    dispatch(table_id=table.pk, user=anna, data={"action": "forced", "on": True})
    assert deadline(table, FORCED_MOVE) is not None
    for bad in ({"on": "no"}, {"on": 0}, {}):
        with pytest.raises(GameError, match="Say yes or no"):
            dispatch(table_id=table.pk, user=anna, data={"action": "forced", **bad})
    assert User.objects.get(pk=anna.pk).plays_forced_moves is True


def test_a_spectator_cannot_choose_for_a_table(anna: User, bruno: User) -> None:
    table = computer_table(anna)
    with pytest.raises(GameError, match="watching"):
        dispatch(table_id=table.pk, user=bruno, data={"action": "forced", "on": False})
    assert User.objects.get(pk=bruno.pk).plays_forced_moves is True
    assert deadline(table, FORCED_MOVE) is not None


def test_a_forced_opening_waits_until_the_table_could_be_seen(anna: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=BLOCK)
    # anna holds the 6|6: her opening is forced
    with_hands(table, [["6|6", "2|2", "3|3"], ["0|0", "6|5", "1|1"]], dealer=1)
    forced = deadline(table, FORCED_MOVE)
    assert forced is not None and forced.due_at >= dealt_at(table) + GRACE
    run_due(now=dealt_at(table) + PAUSE)
    assert moves(table) == []
    run_due(now=forced.due_at)
    assert [(m.seat, m.text, m.actor) for m in moves(table)] == [(0, "6|6L", Move.Actor.FORCED)]


def test_with_a_clock_turned_off_a_forced_move_gets_the_whole_turn(anna: User, bruno: User) -> None:
    services.forced_moves_choose(user=bruno, on=False)
    table = services.online_table_create(rules=BLOCK, people=[anna, bruno])
    with_hands(table, [["6|6", "6|5", "1|1"], ["0|0", "2|2", "3|3"]], dealer=1, ago=60)
    services.move_submit(table_id=table.pk, user=anna, move="6|6L", version=version_of(table))
    clock = deadline(table, TURN_CLOCK)
    assert clock is not None and deadline(table, FORCED_MOVE) is None
    assert clock.due_at - moves(table)[-1].created_at >= timedelta(seconds=table.turn_seconds - 1)
