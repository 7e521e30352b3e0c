"""One player's burst of stake sits over two live daphne processes and the worker
(PostgreSQL + Redis), as an impatient finger or a flaky connection sends them: ten
posts of the sit form at once, alternating between the processes, end with one seat
and one stake, with or without the form's token, whatever another player does at
the same settings at the same moment.  Fifty tries each: a race seen once in three
must not pass by luck."""

from __future__ import annotations

import os
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import partial
from http.cookiejar import CookieJar

import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from domino_site import scaled
from economy.audit import audit_ledger
from economy.selectors import balance_of
from games.kinds import STAKE_FILL
from games.models import Table
from games.services.stakes import stake_table_expire
from tests.economy.conftest import drain_to
from tests.fixtures import postgres_and_redis_only
from tests.stakes import play_to_the_end

pytestmark = [
    postgres_and_redis_only,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]

TRIES = int(os.environ.get("STAKE_RACE_TRIES", "50"))
STAKE = 500
#: Where another player already waits: the issue's four in pairs to 150 (three seats
#: free), and a two-seat table (one free: the first sit starts the game).
TABLES = {
    "pairs, three seats free": {
        "preset": "domino",
        "seating": "4p",
        "hand_size": "7",
        "draw": "yes",
        "target": "150",
    },
    "two seats, one free": {
        "preset": "blocco",
        "seating": "2",
        "hand_size": "7",
        "draw": "no",
        "target": "single",
    },
}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
FORM_TOKEN = re.compile(r'name="token" value="([^"]+)"')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the answer itself: 302 and where it sends the player


class Browser:
    """One player's browser (one session), talking to either process."""

    def __init__(self, user: User, ports: list[int]) -> None:
        client = Client()
        client.force_login(user)
        self.ports = ports
        self.cookies = {"sessionid": client.cookies["sessionid"].value, "django_language": "en"}
        jar = CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        request = urllib.request.Request(self.url(0, "/coins/stakes/"), headers=self.headers(0))
        with opener.open(request, timeout=30) as response:
            page = response.read().decode()
        self.cookies["csrftoken"] = next(c.value or "" for c in jar if c.name == "csrftoken")
        self.csrf = CSRF.search(page).group(1)  # type: ignore[union-attr]
        self.form_token = FORM_TOKEN.search(page).group(1)  # type: ignore[union-attr]

    def url(self, n: int, path: str) -> str:
        return f"http://127.0.0.1:{self.ports[n % len(self.ports)]}{path}"

    def headers(self, n: int) -> dict[str, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"Cookie": cookie, "Origin": self.url(n, ""), "Referer": self.url(n, "/")}

    def sit(self, n: int, form: dict[str, str]) -> tuple[int, str]:
        """Post the sit form to process ``n % 2``: the status and where it sends them."""
        data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": self.csrf}).encode()
        request = urllib.request.Request(self.url(n, "/coins/stakes/sit/"), data, self.headers(n))
        try:
            with urllib.request.build_opener(NoRedirect).open(request, timeout=60) as response:
                return response.status, response.headers.get("Location", "")
        except urllib.error.HTTPError as answer:  # the 302 itself, with no redirect followed
            return answer.code, answer.headers.get("Location", "")


@pytest.fixture(scope="module")
def ports(django_db_blocker: object) -> Iterator[list[int]]:
    """Two daphne processes and the worker, on the test database, as deployed."""
    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"
    env = scaled.scaled_env(env)
    port = scaled.free_ports(2)
    children = scaled.start(env, processes=2, port=port, host="127.0.0.1")
    try:
        for n in range(2):
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port + n}/healthz", timeout=1)
                    break
                except OSError:
                    threading.Event().wait(0.1)
        yield [port, port + 1]
    finally:
        scaled.stop(children)


def at_once(work: list[Callable[[], tuple[int, str]]]) -> list[tuple[int, str]]:
    """Each piece of ``work`` on a thread of its own, all released at the same instant."""
    barrier = threading.Barrier(len(work))
    results: list[tuple[int, str]] = [(0, "")] * len(work)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = work[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def stake_tables_of(user: User) -> list[Table]:
    """The stake tables where ``user`` sits that are not over."""
    return list(
        Table.objects.filter(
            stake__gt=0, status__in=["waiting", "playing"], seats__user=user
        ).distinct()
    )


def settle_every_table() -> None:
    """Every stake back or paid: the next try finds no open table."""
    for table in Table.objects.filter(stake__gt=0, status__in=["waiting", "playing"]):
        if table.status == Table.Status.PLAYING:
            play_to_the_end(table)
        else:
            deadline = table.deadlines.get(kind=STAKE_FILL)
            stake_table_expire(deadline, deadline.due_at + timedelta(seconds=1))


@pytest.mark.parametrize("other", ["alone", "another player sits at that moment"])
@pytest.mark.parametrize("token", ["no token", "the form's token"])
@pytest.mark.parametrize("where", list(TABLES))
def test_ten_sits_at_once_over_two_processes_seat_and_charge_once(
    make_user: Callable[..., User], ports: list[int], where: str, token: str, other: str
) -> None:
    form = {**TABLES[where], "stake": str(STAKE)}
    failures = []
    for attempt in range(TRIES):
        host, player = make_user(f"host{attempt}"), make_user(f"anna{attempt}")
        people = [host, player]
        for person in people:
            drain_to(person, 1000)
        assert Browser(host, ports).sit(0, form)[0] == 302  # waits at an open table
        browser = Browser(player, ports)
        sent = form | ({"token": browser.form_token} if token == "the form's token" else {})
        work = [partial(browser.sit, i, sent) for i in range(10)]
        if other != "alone":
            carla = make_user(f"carla{attempt}")
            drain_to(carla, 1000)
            people.append(carla)
            work.append(partial(Browser(carla, ports).sit, 1, form))
        answers = at_once(work)
        assert {status for status, _where in answers} == {302}, answers
        seated = stake_tables_of(player)
        if len(seated) != 1 or balance_of(user=player) != 1000 - STAKE:
            failures.append((attempt, [t.code for t in seated], balance_of(user=player)))
        else:  # every one of the ten lands on that table
            assert {where for _status, where in answers[:10]} == {f"/t/{seated[0].code}/"}
        for person in people[::2]:  # the others sat once each
            assert len(stake_tables_of(person)) == 1 and balance_of(user=person) == 500
        assert audit_ledger().ok
        settle_every_table()
        assert audit_ledger().ok
    assert not failures, f"{len(failures)} of {TRIES} tries: (try, tables, coins) {failures[:5]}"
