"""The coach after each hand: the worker reviews every person's move of a finished hand
once, never a bot's; the replay shows the marks; the live table never does."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines import services as deadlines
from deadlines.models import Deadline
from deadlines.services import claim_due, run_due, set_deadline
from games import services
from games.kinds import COACH
from games.models import Hand, MoveReview, Table
from games.models import Move as StoredMove
from games.records import load_match
from tests.deadlines.test_worker import two_workers
from tests.fixtures import DUELLO, play_a_legal_move, postgres_only

pytestmark = pytest.mark.django_db


def later() -> timezone.datetime:
    return timezone.now() + timedelta(minutes=1)


@pytest.fixture
def duel(anna: User) -> Table:
    """anna (seat 0) against a computer player, in a duello to 100."""
    return services.table_create(
        host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO, bot_level="easy"
    )


def play_first_hand(table: Table, rng: random.Random) -> Hand:
    """anna's moves at random and the bot's by the worker, until the first hand is over
    (the worker not yet run after it)."""
    for _ in range(500):
        match = load_match(table)
        if len(match.rounds) > 1 or match.round.over:
            break
        if match.round.turn == 0:
            play_a_legal_move(table, rng)
        else:
            for row in Deadline.objects.exclude(kind=COACH):  # only the bot's move
                row.due_at = timezone.now() - timedelta(seconds=1)
                row.save()
            run_due(now=timezone.now())
        table.refresh_from_db()
    hand = Hand.objects.get(table=table, number=0)
    assert hand.over
    return hand


def test_a_finished_hand_is_reviewed_by_the_worker_once_and_only_the_persons_moves(
    duel: Table,
) -> None:
    hand = play_first_hand(duel, random.Random(4))
    moves = list(hand.moves.all())
    persons = {m.ply for m in moves if m.actor == StoredMove.Actor.PERSON}
    bots = {m.ply for m in moves if m.actor == StoredMove.Actor.BOT}
    assert persons and bots
    # The hand's end asked for the review; the request did not do it.
    assert not MoveReview.objects.exists()
    assert Deadline.objects.filter(kind=COACH, key=f"coach:{hand.pk}").exists()

    for _ in range(20):
        run_due(now=later())
        if not Deadline.objects.filter(kind=COACH).exists():
            break
    reviews = list(MoveReview.objects.filter(hand=hand))
    assert {r.ply for r in reviews} == persons  # every person's move, no bot's
    assert all(r.seat == 0 and r.loss >= 0 for r in reviews)
    assert all(bool(r.preferred) == bool(r.mark) == bool(r.reason) for r in reviews)
    first = {(r.ply, r.loss, r.mark, r.preferred) for r in reviews}

    # Again: the deadline is gone, and a repeated write changes nothing (one row a ply).
    run_due(now=later())
    set_deadline(COACH, timezone.now(), key=f"coach:{hand.pk}")
    run_due(now=later())
    again = {(r.ply, r.loss, r.mark, r.preferred) for r in MoveReview.objects.filter(hand=hand)}
    assert again == first and MoveReview.objects.filter(hand=hand).count() == len(persons)
    assert not Deadline.objects.filter(kind=COACH).exists()


def test_moves_played_for_a_person_by_a_computer_player_are_not_reviewed(duel: Table) -> None:
    hand = play_first_hand(duel, random.Random(1))
    # As if anna had been away all hand: a computer player made each of her moves.
    StoredMove.objects.filter(hand=hand).update(actor=StoredMove.Actor.AWAY)
    for _ in range(5):
        run_due(now=later())
    assert not MoveReview.objects.filter(hand=hand).exists()
    assert not Deadline.objects.filter(kind=COACH).exists()


def finish_with_reviews_pending(table: Table) -> None:
    """End the match early: its first hand is over and replayable."""
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)


def test_the_replay_shows_the_coachs_marks_and_says_when_the_analysis_is_not_ready(
    duel: Table,
) -> None:
    hand = play_first_hand(duel, random.Random(4))
    person = hand.moves.filter(actor=StoredMove.Actor.PERSON, ply__gt=0).first()
    assert person is not None

    # While the match goes on, neither the table nor its replay shows a review.
    MoveReview.objects.create(
        hand=hand,
        ply=person.ply,
        seat=0,
        loss=21.5,
        mark="blunder",
        preferred="6|6R",
        reason="heavy_double",
        params={"tile": "6|6"},
    )
    client = Client()
    client.force_login(duel.host)
    page = client.get(f"/t/{duel.code}/", HTTP_COOKIE="django_language=en").content.decode()
    assert "Better:" not in page and "heavy double" not in page
    assert client.get(f"/t/{duel.code}/replay/").status_code == 404

    finish_with_reviews_pending(duel)
    html = Client().get(f"/t/{duel.code}/replay/", HTTP_COOKIE="django_language=en")
    text = html.content.decode()
    assert "??" in text
    assert "Blunder. Better: 6|6 on the right, because a heavy double fits one number only" in (
        text
    )
    # anna's other moves are not reviewed yet: the hand says so
    assert "analysis of this hand is in progress" in text

    for _ in range(20):
        run_due(now=later())
        if not Deadline.objects.filter(kind=COACH).exists():
            break
    text = Client().get(f"/t/{duel.code}/replay/", HTTP_COOKIE="django_language=en")
    assert "in progress" not in text.content.decode()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_workers_holding_the_same_review_write_it_once(anna: User) -> None:
    table = services.table_create(
        host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO, bot_level="easy"
    )
    hand = play_first_hand(table, random.Random(6))
    claimed = Deadline.objects.get(kind=COACH)  # both workers hold the same row
    persons = set(hand.moves.filter(actor=StoredMove.Actor.PERSON).values_list("ply", flat=True))
    done: list[bool] = []

    two_workers(lambda: done.append(deadlines.apply(claimed, now=timezone.now())))
    assert sorted(done) == [False, True]  # one wrote, the other found the row gone
    assert sorted(MoveReview.objects.filter(hand=hand).values_list("ply", flat=True)) == sorted(
        persons
    )
    assert not Deadline.objects.filter(kind=COACH).exists()


def test_a_busy_coach_rests_so_reviews_wait_instead_of_slowing_the_tables(
    duel: Table, settings: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.history import coach

    settings.COACH_SHARE = 0.1  # type: ignore[attr-defined]
    monkeypatch.setattr(coach, "_resting_until", None)
    hand = play_first_hand(duel, random.Random(4))
    now = later()
    run_due(now=now)
    assert MoveReview.objects.filter(hand=hand).exists()
    resting_until = coach._resting_until
    assert resting_until is not None and resting_until > now  # nine times the slice it took

    # Another review due meanwhile is put off until the rest is over, not dropped.
    set_deadline(COACH, now, key=f"coach:{hand.pk}")
    run_due(now=now)
    put_off = Deadline.objects.get(kind=COACH, key=f"coach:{hand.pk}")
    assert put_off.due_at == resting_until
    run_due(now=resting_until + timedelta(seconds=1))
    assert not Deadline.objects.filter(kind=COACH).exists()


def coach_looking(
    duel: Table, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[float], Hand, datetime]:
    """A fresh coach (no rest yet; busy above 0.6 of a core) reading the process's CPU
    seconds from the list returned, once the duel's first hand is over: the coach has
    looked at the CPU at the time returned, and counts from there."""
    from games.history import coach

    settings.COACH_BUSY = 0.6
    cpu = [100.0]
    monkeypatch.setattr(coach, "process_cpu", lambda: cpu[0])
    for name, fresh in (
        ("_cpu_mark", None),
        ("_was_busy", False),
        ("_resting_until", None),
        ("_put_off_until", None),
    ):
        monkeypatch.setattr(coach, name, fresh)
    hand = play_first_hand(duel, random.Random(4))
    now = later()
    coach._busy(now)
    return cpu, hand, now


def test_a_busy_process_puts_reviews_off_while_its_tables_need_the_core(
    duel: Table, settings: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.history import coach

    cpu, hand, now = coach_looking(duel, settings, monkeypatch)

    # The next 10 s the tables took 9 s of CPU: the review waits, and is not dropped.
    cpu[0] += 9
    now += timedelta(seconds=10)
    run_due(now=now)
    assert not MoveReview.objects.filter(hand=hand).exists()
    put_off = Deadline.objects.get(kind=COACH, key=f"coach:{hand.pk}")
    assert put_off.due_at == now + timedelta(seconds=coach.BUSY_REST)

    # Over the next 5 s they took 1 s: the coach reviews the hand.
    cpu[0] += 1
    run_due(now=put_off.due_at)
    assert MoveReview.objects.filter(hand=hand).exists()
    assert not Deadline.objects.filter(kind=COACH).exists()


def test_a_resting_coach_puts_off_every_waiting_hand_at_once_not_one_claim_at_a_time(
    duel: Table, settings: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.history import coach

    cpu, hand, now = coach_looking(duel, settings, monkeypatch)
    for n in range(3):  # other finished hands waiting for their review, due already
        set_deadline(COACH, now, key=f"coach:waiting-{n}")
    cpu[0] += 9  # a busy process: the next claim finds the coach resting
    now += timedelta(seconds=10)
    claimed = Deadline.objects.get(kind=COACH, key=f"coach:{hand.pk}")
    assert coach.review_hand_moves(claimed, now) is False
    rest_over = now + timedelta(seconds=coach.BUSY_REST)
    waiting = Deadline.objects.filter(kind=COACH).values_list("key", "due_at")
    assert dict(waiting) == dict.fromkeys(
        [f"coach:{hand.pk}", *(f"coach:waiting-{n}" for n in range(3))], rest_over
    )
    assert not [d for d in claim_due(now=now) if d.kind == COACH]  # none claimed to rest again


def test_a_coach_far_behind_does_not_queue_more_hands(
    duel: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.history import coach

    monkeypatch.setattr(coach, "BACKLOG", 1)
    set_deadline(COACH, later() + timedelta(hours=1), key="coach:elsewhere")
    hand = play_first_hand(duel, random.Random(4))
    assert not Deadline.objects.filter(kind=COACH, key=f"coach:{hand.pk}").exists()
