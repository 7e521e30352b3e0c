"""accounts/services.py under races (issue 8, defect 1): concurrent sign-ups and guest
claims of one name answered HTTP 500 (the unique constraint's IntegrityError, or
claim's ValidationError, escaped).  Now one account wins and everybody else gets the
form back."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import User
from accounts.services import account_signup, guest_claim, guest_create

T = TypeVar("T")
PASSWORD = "tavolo-verde-42"
NAMES = ["RaceN", "racen", "RACEN", "Racen", "rAcEn", "RACEn", "raceN", "RaCeN"]


def all_at_once(jobs: list[Callable[[], T]]) -> list[T | BaseException]:
    """Run the jobs in threads released together; each closes its own connection."""
    barrier = threading.Barrier(len(jobs))
    results: list[T | BaseException] = [RuntimeError("did not run")] * len(jobs)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = jobs[i]()
        except BaseException as error:  # reported, not swallowed: the test asserts on it
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def english_client(**kwargs: str) -> Client:
    client = Client(raise_request_exception=False, **kwargs)
    client.cookies["django_language"] = "en"
    return client


def _sign_up(name: str, number: int) -> Callable[[], tuple[int, str]]:
    def job() -> tuple[int, str]:
        response = english_client(REMOTE_ADDR=f"10.0.0.{number}").post(
            reverse("accounts:signup"),
            {"username": name, "password1": PASSWORD, "password2": PASSWORD},
        )
        return response.status_code, response.content.decode()

    return job


@pytest.fixture
def no_rate_limits(settings: pytest.FixtureRequest) -> None:
    """Here many attempts at one name are the point: the limits are tested elsewhere."""
    settings.RATELIMIT_ENABLE = False  # type: ignore[attr-defined]


@pytest.fixture
def check_passes_then_the_name_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a request that loses a race sees: its checks ran before the winner
    committed, so they find the name free; only the write meets the winner."""

    def stale_check(username: str, *, exclude: User | None = None) -> str:
        return username.strip()

    monkeypatch.setattr("accounts.forms.username_check", stale_check)
    if hasattr(services, "_save_name"):
        monkeypatch.setattr("accounts.services.username_check", stale_check)


@pytest.mark.django_db
def test_a_sign_up_that_loses_the_race_for_a_name_answered_500(
    make_user: Callable[..., User], check_passes_then_the_name_is_taken: None
) -> None:
    make_user("RaceN")
    response = english_client().post(
        reverse("accounts:signup"),
        {"username": "racen", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "That username is taken." in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_a_guest_claim_that_loses_the_race_for_a_name_answered_500(
    make_user: Callable[..., User], check_passes_then_the_name_is_taken: None
) -> None:
    make_user("RaceN")
    client = english_client()
    client.force_login(guest_create())
    response = client.post(
        reverse("accounts:claim"),
        {"username": "RACEN", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "That username is taken." in response.content.decode()
    assert User.objects.filter(is_guest=True).count() == 1


def needs_postgres() -> None:
    """Threads need a database that lets writers wait for each other: the
    in-memory SQLite of the test run refuses them ("table is locked") instead."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://…)")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_sign_ups_of_one_name_answered_500(no_rate_limits: None) -> None:
    needs_postgres()
    results = all_at_once([_sign_up(name, i) for i, name in enumerate(NAMES)])
    statuses = sorted(r[0] for r in results if isinstance(r, tuple))
    assert statuses == [200] * 7 + [302], results
    refused = [r[1] for r in results if isinstance(r, tuple) and r[0] == 200]
    assert all("That username is taken." in page for page in refused)
    assert User.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_guest_claims_of_one_name_answered_500(no_rate_limits: None) -> None:
    needs_postgres()
    clients = []
    for i in range(6):
        client = english_client(REMOTE_ADDR=f"10.0.1.{i}")
        client.force_login(guest_create())
        clients.append(client)

    def claim(client: Client, name: str) -> Callable[[], tuple[int, str]]:
        def job() -> tuple[int, str]:
            response = client.post(
                reverse("accounts:claim"),
                {"username": name, "password1": PASSWORD, "password2": PASSWORD},
            )
            return response.status_code, response.content.decode()

        return job

    results = all_at_once([claim(c, n) for c, n in zip(clients, NAMES, strict=False)])
    statuses = sorted(r[0] for r in results if isinstance(r, tuple))
    assert statuses == [200] * 5 + [302], results
    assert all(
        "That username is taken." in r[1] for r in results if isinstance(r, tuple) and r[0] == 200
    )
    assert User.objects.filter(is_guest=False).count() == 1
    assert User.objects.filter(is_guest=True).count() == 5


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sign_ups_and_claims_racing_for_one_name_on_postgresql() -> None:
    """Sixteen writers, half signing up and half claiming guests, on PostgreSQL,
    where the losers wait on the unique index and then fail inside a transaction."""
    needs_postgres()
    guests = [guest_create() for _ in range(8)]

    def sign_up(name: str) -> Callable[[], User]:
        return lambda: account_signup(username=name, password=PASSWORD)

    def claim(user: User, name: str) -> Callable[[], User]:
        return lambda: guest_claim(user=user, username=name, password=PASSWORD)

    jobs = [sign_up(f"{n}Pg") for n in NAMES] + [
        claim(g, f"{n}PG") for g, n in zip(guests, NAMES, strict=True)
    ]
    results = all_at_once(jobs)
    winners = [r for r in results if isinstance(r, User)]
    losers = [r for r in results if not isinstance(r, User)]
    assert len(winners) == 1 and len(losers) == 15
    assert all(isinstance(e, ValidationError) and e.code == "taken" for e in losers), losers
    assert User.objects.filter(username_key="racenpg").count() == 1
    claimed = winners[0].pk in {g.pk for g in guests}
    assert User.objects.filter(is_guest=True).count() == 8 - claimed
