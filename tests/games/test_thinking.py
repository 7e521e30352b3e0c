"""games/thinking.py: the engine's searches run in a child process once the server
says it holds the sockets (domino_site.serve), in place anywhere else; a computer
player's move and the coach's review go through it."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.utils import timezone

from deadlines.services import run_due
from games import services, thinking
from games.engine import PRESETS, Match
from games.engine import bots as engine_bots
from games.engine import coach as engine_coach
from games.engine import thinking as engine_thinking
from games.models import Move, MoveReview, Table
from games.records import load_match
from tests.fixtures import play_a_legal_move, version_of


@pytest.fixture
def in_child() -> Iterator[None]:
    thinking.in_child(1)
    yield
    thinking.in_place()


def refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("an engine search ran in the serving process")


@pytest.mark.usefixtures("in_child")
def test_a_search_runs_in_a_child_process_once_the_server_asks() -> None:
    assert thinking.think(os.getpid) != os.getpid()
    match = Match(PRESETS["duello"])
    asked = engine_thinking.to_choose(match, match.round.turn, "easy")
    move = thinking.think(engine_thinking.choose, *asked)
    assert move in {str(m) for m in match.round.legal_moves()}


def test_a_computer_player_sent_the_hand_and_the_score_sees_what_the_whole_match_shows() -> None:
    """The worker sends the current hand and the score before it, not the whole match:
    the computer player's view is the same (late in a match to 100, where the score
    decides how it plays), and so is a (deterministic) medium player's choice."""
    rng = random.Random(4)
    match = Match(PRESETS["domino"], rng=rng)
    compared = 0
    while not match.over and compared < 40:
        if match.round.over:
            match.next_round()
            continue
        if len(match.rounds) > 1 and len(match.round.legal_moves()) > 1:
            seat = match.round.turn
            asked = engine_thinking.to_choose(match, seat, "medium")
            rules, hand, scores, _, _ = asked
            assert engine_thinking.seat_view(rules, hand, scores, seat) == match.view(seat)
            assert any(scores)  # a hand won before this one counts in the view
            assert engine_thinking.choose(*asked) == str(
                engine_bots.make_bot("medium").choose(match.view(seat))
            )
            compared += 1
        match.round.play(rng.choice(match.round.legal_moves()))
    assert compared >= 10


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: nowhere else to go")
def test_a_server_pinned_to_a_core_has_its_searches_run_on_the_others() -> None:
    everything = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {0})  # as the load benchmark pins its server (taskset -c 0)
    try:
        thinking.in_child(1)
        assert thinking.think(os.sched_getaffinity, 0) == set(range(os.cpu_count() or 1)) - {0}
    finally:
        thinking.in_place()
        os.sched_setaffinity(0, everything)


def test_elsewhere_a_search_runs_in_place() -> None:
    assert thinking.think(os.getpid) == os.getpid()


@pytest.mark.django_db
@pytest.mark.usefixtures("in_child")
def test_a_computer_players_move_is_searched_in_the_child_not_here(
    anna: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in (engine_bots, engine_thinking):  # this process may not search
        monkeypatch.setattr(module, "make_bot", refuse)
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=PRESETS["duello"])
    for _ in range(20):  # the person moves when it is their turn, the worker the computer
        if Move.objects.filter(hand__table=table, actor="bot").exists():
            break
        match = load_match(Table.objects.get(pk=table.pk))
        if match.round.turn == 0:
            move = str(match.round.legal_moves()[0])
            services.move_submit(
                table_id=table.pk,
                user=anna,
                move=move,
                version=version_of(table),  # type: ignore[arg-type]
            )
        run_due(now=timezone.now() + timedelta(minutes=1))
    assert Move.objects.filter(hand__table=table, actor="bot").exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("in_child")
def test_the_coachs_review_is_searched_in_the_child_not_here(
    friends_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in (engine_coach, engine_thinking):  # this process may not search
        monkeypatch.setattr(module, "review_hand", refuse)
    # One hand played to its end: the coach reviews each hand as it ends (a whole match
    # only repeated the same review, hand after hand).
    rng = random.Random(1)
    while not load_match(Table.objects.get(pk=friends_table.pk)).round.over:
        play_a_legal_move(friends_table, rng)
    run_due(now=timezone.now() + timedelta(minutes=5))  # the coach's deadlines
    assert MoveReview.objects.filter(hand__table=friends_table).exists()


def test_the_server_starts_the_child_before_it_serves() -> None:
    import subprocess
    import sys

    probe = (
        "from daphne.cli import CommandLineInterface; from domino_site import serve; "
        "from games import thinking; "
        "CommandLineInterface.entrypoint = lambda: print(thinking.elsewhere()); "
        "serve.main(); thinking.in_place()"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_the_child_ends_when_the_server_is_killed() -> None:
    """A server stopped by SIGKILL says nothing to its child: the child sees it gone."""
    import signal
    import subprocess
    import sys
    import time

    probe = (
        "import os, sys; from games import thinking; thinking.in_child(1); "
        "print(thinking.think(os.getpid), flush=True); sys.stdin.read()"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", probe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    child = int(server.stdout.readline())
    server.send_signal(signal.SIGKILL)
    server.wait()
    for _ in range(50):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError(f"the child {child} outlived its server")
