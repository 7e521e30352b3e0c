"""The week closes by the worker's deadline: final tables frozen, divisions moved,
prizes paid through the ledger, exactly once, and late after a server was down."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client

from accounts.models import User
from deadlines import services as deadlines
from deadlines import worker
from deadlines.models import Deadline
from economy import numbers
from economy.audit import audit_ledger
from economy.models import Account, Reason, Transfer
from league import services
from league.kinds import LEAGUE_WEEK
from league.models import Entry, Finish, LeagueWeek, Member, Tier
from league.weeks import Week

from .conftest import Finished

WEEK = Week.parse("2026-W48")  # Monday 23 to Sunday 29 November 2026
DURING = datetime(2026, 11, 25, 18, tzinfo=UTC)
AFTER = WEEK.ends_at + timedelta(seconds=1)

AddPoints = Callable[..., Entry]


def set_tier(user: User, tier: int) -> None:
    Member.objects.update_or_create(user=user, defaults={"tier": tier})


def tier(user: User) -> int:
    return Member.objects.get(user=user).tier


def close_due(now: datetime = AFTER) -> int:
    services.ensure_week_deadline(now=DURING)
    return deadlines.run_due(now=now)


def wallet(user: User) -> int:
    account = Account.objects.filter(kind=Account.Kind.WALLET, user=user).first()
    return account.balance if account else 0


@pytest.fixture
def many(make_user: Callable[..., User]) -> Callable[[str, int], list[User]]:
    def make(prefix: str, n: int) -> list[User]:
        return [make_user(f"{prefix}{i}") for i in range(n)]

    return make


def test_the_top_go_up_the_bottom_go_down_and_absent_players_drop_one(
    many: Callable[[str, int], list[User]], add_points: AddPoints
) -> None:
    bronze = many("b", 6)
    silver = many("s", 8)
    diamond = many("d", 4)
    for i, user in enumerate(bronze):
        add_points(user, [90, 70, 30, 20, 10, 5][i], DURING)  # the 3rd is under the minimum
    for i, user in enumerate(silver):
        set_tier(user, Tier.SILVER)
        if i < 7:
            add_points(user, 100 - 10 * i, DURING)
    for i, user in enumerate(diamond):
        set_tier(user, Tier.DIAMOND)
        add_points(user, 100 - i, DURING)

    assert close_due() == 1

    assert [tier(u) for u in bronze] == [1, 1, 0, 0, 0, 0]  # nobody below Bronze
    # Silver: 7 played: top 3 up, 4th stays, bottom 3 down; the one who did not play drops.
    assert [tier(u) for u in silver] == [2, 2, 2, 1, 0, 0, 0, 0]
    assert [tier(u) for u in diamond] == [3, 3, 3, 2]  # nothing above Diamond
    finishes = Finish.objects.filter(week__key=WEEK.key, tier=Tier.SILVER)
    assert list(finishes.values_list("rank", "points", "move")) == [
        (1, 100, 1), (2, 90, 1), (3, 80, 1), (4, 70, 0), (5, 60, -1), (6, 50, -1), (7, 40, -1),
    ]  # fmt: skip
    assert LeagueWeek.objects.get(key=WEEK.key).closed_at == AFTER


def test_at_equal_points_whoever_got_there_first_ranks_higher(
    many: Callable[[str, int], list[User]], add_points: AddPoints
) -> None:
    early, late = many("p", 2)
    add_points(late, 40, DURING)
    add_points(early, 40, DURING - timedelta(hours=1))
    close_due()
    ranks = Finish.objects.order_by("rank").values_list("user__username", flat=True)
    assert list(ranks) == ["p0", "p1"]


def test_prizes_are_paid_once_through_the_ledger_and_the_audit_is_clean(
    many: Callable[[str, int], list[User]],
    add_points: AddPoints,
    capsys: pytest.CaptureFixture[str],
) -> None:
    gold = many("g", 4)
    for i, user in enumerate(gold):
        set_tier(user, Tier.GOLD)
        add_points(user, [200, 150, 100, 20][i], DURING)
    before = [wallet(u) for u in gold]

    close_due()
    services.pay_prizes()  # the periodic job finds nothing left to pay

    paid = [wallet(u) - b for u, b in zip(gold, before, strict=True)]
    assert paid == [*numbers.LEAGUE_PRIZES[Tier.GOLD], 0]
    keys = set(Transfer.objects.filter(reason=Reason.LEAGUE).values_list("key", flat=True))
    assert keys == {f"league:2026-W48:{Tier.GOLD}:{rank}" for rank in (1, 2, 3)}
    assert Finish.objects.filter(prize__gt=0, prize_transfer__isnull=True).count() == 0
    assert audit_ledger().ok
    call_command("audit_ledger")
    assert "0 problems" in capsys.readouterr().out


def test_no_prize_and_no_promotion_under_the_minimum_points(
    make_user: Callable[..., User], add_points: AddPoints
) -> None:
    lonely = make_user("lonely")
    add_points(lonely, numbers.LEAGUE_MIN_POINTS - 1, DURING)
    before = wallet(lonely)
    close_due()
    assert (tier(lonely), wallet(lonely) - before) == (Tier.BRONZE, 0)
    assert Finish.objects.get(user=lonely).rank == 1


def test_closing_twice_closes_once(make_user: Callable[..., User], add_points: AddPoints) -> None:
    winner = make_user("winner")
    add_points(winner, 100, DURING)
    claimed = services.ensure_week_deadline(now=DURING)
    assert services.close_week_when_due(claimed, AFTER) is True
    assert services.close_week_when_due(claimed, AFTER) is False  # the row was replaced
    assert deadlines.run_due(now=AFTER) == 0  # the next week is not due yet
    assert Finish.objects.count() == 1 and tier(winner) == Tier.SILVER
    assert Transfer.objects.filter(reason=Reason.LEAGUE).count() == 1
    pending = Deadline.objects.get(kind=LEAGUE_WEEK)
    assert (pending.key, pending.due_at) == ("2026-W49", WEEK.next.ends_at)


def test_a_page_view_does_not_close_the_week(
    client: Client, make_user: Callable[..., User], add_points: AddPoints
) -> None:
    add_points(make_user("x"), 100, DURING)
    services.ensure_week_deadline(now=DURING)  # overdue: the worker has not run
    assert client.get("/league/").status_code == 200
    assert not LeagueWeek.objects.filter(closed_at__isnull=False).exists()


def test_a_server_down_at_midnight_closes_the_missed_weeks_in_order_when_back(
    make_user: Callable[..., User], add_points: AddPoints
) -> None:
    climber = make_user("climber")
    add_points(climber, 100, DURING)  # week 48: up to Silver
    add_points(climber, 100, DURING + timedelta(days=7))  # week 49: up to Gold
    services.ensure_week_deadline(now=DURING)
    back = WEEK.ends_at + timedelta(days=15, hours=3)  # the server returns in week 51
    assert sum(deadlines.run_due(now=back) for _ in range(5)) == 3  # weeks 48, 49, 50
    closed = LeagueWeek.objects.filter(closed_at__isnull=False).order_by("starts_at")
    assert list(closed.values_list("key", flat=True)) == ["2026-W48", "2026-W49", "2026-W50"]
    assert list(Finish.objects.filter(user=climber).values_list("tier", flat=True)) == [0, 1]
    # Week 50: a Gold player who did not play drops to Silver.
    assert tier(climber) == Tier.SILVER
    assert Deadline.objects.get(kind=LEAGUE_WEEK).key == "2026-W51"


def test_a_match_that_ends_after_its_week_closed_counts_in_the_next_week(
    finished: Finished, make_user: Callable[..., User]
) -> None:
    uno, due = make_user("uno"), make_user("due")
    close_due()
    finished([uno, due], [1, 2], at=WEEK.ends_at - timedelta(seconds=1))
    assert set(Entry.objects.values_list("week__key", flat=True)) == {"2026-W49"}


def test_the_worker_gives_the_league_its_first_deadline_when_it_starts(
    monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    monkeypatch.setattr(worker, "PERIODIC", {"league": worker.PERIODIC["league"]})
    worker.ensure_periodic(DURING)
    deadlines.run_due(now=DURING)
    pending = Deadline.objects.get(kind=LEAGUE_WEEK)
    assert (pending.key, pending.due_at) == (WEEK.key, WEEK.ends_at)
    services.ensure_week_deadline(now=DURING + timedelta(days=30))  # one is enough
    assert Deadline.objects.filter(kind=LEAGUE_WEEK).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_close_the_week_exactly_once_on_postgresql(
    make_user: Callable[..., User], add_points: AddPoints, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [make_user(f"w{i}") for i in range(8)]
    for i, user in enumerate(players):
        add_points(user, 200 - 10 * i, DURING)
    before = {u.pk: wallet(u) for u in players}
    services.ensure_week_deadline(now=DURING)
    # Leases that never hold: both workers claim the row, so only the week's
    # lock and the row's re-read can keep the closing to once.
    monkeypatch.setattr(deadlines, "LEASE", timedelta(seconds=-60))
    done: list[int] = []
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def work() -> None:
        try:
            start.wait()
            done.append(deadlines.run_due(now=AFTER))
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors and sorted(done) == [0, 1]
    assert Finish.objects.count() == 8
    assert [tier(u) for u in players] == [1, 1, 1, 0, 0, 0, 0, 0]
    paid = [wallet(u) - before[u.pk] for u in players]
    assert paid == [*numbers.LEAGUE_PRIZES[Tier.BRONZE], 0, 0, 0, 0, 0]
    assert Transfer.objects.filter(reason=Reason.LEAGUE).count() == 3
    assert Deadline.objects.filter(kind=LEAGUE_WEEK).count() == 1
    assert audit_ledger().ok


def someone_waits_on_this_transaction(within: float = 30) -> bool:
    """Whether another session comes to wait for a lock this one holds (PostgreSQL)."""
    deadline = time.monotonic() + within
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_locks"
                " WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_closing_waits_for_a_match_ending_at_midnight_and_counts_it(
    make_user: Callable[..., User],
) -> None:
    from django.db import transaction

    from games.models import SeatResult, Table

    uno, due = make_user("uno"), make_user("due")
    services.ensure_week_deadline(now=DURING)
    # The week's row exists (earlier matches made it): only its lock can hold the closing.
    LeagueWeek.objects.create(key=WEEK.key, starts_at=WEEK.starts_at, ends_at=WEEK.ends_at)
    entered, errors = threading.Event(), []
    closing_waited: list[bool] = []

    def match_ends_at_23_59_59() -> None:
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    mode=Table.Mode.ONLINE, status=Table.Status.FINISHED, host=uno,
                    preset="duello", players=2, hand_size=7,
                    finished_at=WEEK.ends_at - timedelta(seconds=1),
                )  # fmt: skip
                for seat, (user, rank) in enumerate([(uno, 1), (due, 2)]):
                    SeatResult.objects.create(
                        table=table, seat=seat, user=user, side=seat, rank=rank, points=0,
                        is_bot=False,
                    )  # fmt: skip
                services.match_entries(table=table)
                entered.set()
                closing_waited.append(someone_waits_on_this_transaction())
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    ending = threading.Thread(target=match_ends_at_23_59_59)
    ending.start()
    assert entered.wait(timeout=30)
    assert deadlines.run_due(now=AFTER) == 1
    ending.join(timeout=30)
    assert not errors
    assert closing_waited == [True]  # the closing waited for the match's transaction
    finishes = Finish.objects.order_by("rank").values_list("user__username", "points")
    assert list(finishes) == [("uno", 20), ("due", 5)]
