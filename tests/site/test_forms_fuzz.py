"""Every form of the site, posted with arbitrary values through the test client:
never a server error, and invalid input changes nothing (no table, no user, no login).

Hypothesis draws text, unicode, NUL, huge values, empty values, missing keys,
repeated keys (lists) and unknown keys, mixed with valid choices so that the
deeper checks run too.  Each form runs ``EXAMPLES`` cases; ``pytest -s`` prints
how many ran.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.cache import caches
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games.engine import PRESETS
from games.forms import TableForm
from games.models import BotLevel, Table

pytestmark = pytest.mark.django_db

EXAMPLES = 50
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PASSWORD = "correct horse battery"

# What a client can send: surrogates cannot be encoded, everything else can.
text = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
huge = st.builds(
    operator.mul, st.sampled_from(["a", "é", "😀", "\x00", "6|6 ", "<b>"]), st.integers(1, 20_000)
)
arbitrary = st.one_of(text, huge, st.just(""), st.integers().map(str))
value = st.one_of(arbitrary, st.lists(arbitrary, min_size=2, max_size=3))  # a repeated key


def payloads(
    choices: dict[str, list[str]], valid: list[dict[str, str]] | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """A plausible payload (one of ``valid`` when given), or one with a field spoiled
    or removed, or each field plausible, arbitrary or missing; plus unknown keys."""
    plausible = (
        st.sampled_from(valid)
        if valid
        else st.fixed_dictionaries({k: st.sampled_from(good) for k, good in choices.items()})
    )
    spoiled = st.tuples(plausible, st.sampled_from([*choices, None]), st.none() | value).map(
        lambda t: _spoil(*t)
    )
    anything = st.fixed_dictionaries(
        {}, optional={k: st.sampled_from(good) | value for k, good in choices.items()}
    )
    extra = st.dictionaries(text.filter(lambda k: k not in choices), value, max_size=2)
    return st.builds(lambda known, more: {**more, **known}, plausible | spoiled | anything, extra)


def _spoil(data: dict[str, Any], key: str | None, bad: Any) -> dict[str, Any]:
    """``data`` with ``key`` given a bad value, or removed (None); no key: untouched."""
    if key is None:
        return data
    rest = {k: v for k, v in data.items() if k != key}
    return rest if bad is None else {**rest, key: bad}


CLIENT = Client(raise_request_exception=False)  # one handler for every example


@contextmanager
def rolled_back() -> Iterator[Client]:
    """A first-time visitor; the example's changes are undone, rate-limit counters too."""
    caches["default"].clear()
    CLIENT.cookies.clear()
    with transaction.atomic():
        yield CLIENT
        transaction.set_rollback(True)


class Counter:
    def __init__(self) -> None:
        self.cases = 0
        self.accepted = 0

    def report(self, form: str) -> None:
        print(f"\n{form}: {self.cases} cases, {self.accepted} accepted as valid")


TABLE_CHOICES = {
    "mode": ["computer", "friends", "online", "ranked"],
    "preset": [*PRESETS, "nope"],
    "seating": ["2", "3", "4", "4p"],
    "hand_size": ["5", "7"],
    "draw": ["yes", "no"],
    "target": ["single", "50", "100", "150", "300"],
    "bot_level": [*BotLevel.values],
    "turn_clock": ["", "30", "60", "7"],
}


def _valid_tables() -> list[dict[str, str]]:
    """Every combination the form offers, as the page would post it."""
    valid = []
    for preset in PRESETS:
        form = TableForm(data={"preset": preset})
        for seating, _label in form.fields["seating"].choices:
            sizes = TableForm(data={"preset": preset, "seating": seating}).fields["hand_size"]
            for size, _label in sizes.choices:
                for draw, _label in form.fields["draw"].choices:
                    for target, _label in form.fields["target"].choices:
                        valid.append(
                            {"mode": "friends", "bot_level": "easy", "preset": preset}
                            | {"seating": seating, "hand_size": size}
                            | {"draw": draw, "target": target}
                        )
    return valid


def test_fuzz_the_new_table_form() -> None:
    counter = Counter()

    @FUZZ
    @given(data=payloads(TABLE_CHOICES, _valid_tables()))
    def run(data: dict[str, Any]) -> None:
        with rolled_back() as client:
            counter.cases += 1
            users, tables = User.objects.count(), Table.objects.count()
            response = client.post(reverse("table_new"), data)
            assert response.status_code in (200, 302)
            valid = TableForm(data=_querydict(data)).is_valid()
            if response.status_code == 302:
                counter.accepted += 1
                assert valid
                assert Table.objects.count() == tables + 1
                assert User.objects.count() == users + 1  # the visitor became a guest
            else:
                assert not valid
                assert (Table.objects.count(), User.objects.count()) == (tables, users)
                assert 'class="errorlist' in response.content.decode()  # it says why

    run()
    counter.report("new-table form")


def test_fuzz_the_signup_form() -> None:
    counter = Counter()
    choices = {
        "username": ["newcomer", "Newcomer", "guest-x", "anna", ""],
        "password1": [PASSWORD, "short"],
        "password2": [PASSWORD, "other"],
    }

    User.objects.create_user("anna", password=PASSWORD)

    @FUZZ
    @given(data=payloads(choices))
    def run(data: dict[str, Any]) -> None:
        with rolled_back() as client:
            counter.cases += 1
            users = User.objects.count()
            response = client.post(reverse("accounts:signup"), data)
            assert response.status_code in (200, 302)
            if response.status_code == 302:
                counter.accepted += 1
                assert User.objects.count() == users + 1
                assert "_auth_user_id" in client.session
            else:
                assert User.objects.count() == users
                assert "_auth_user_id" not in client.session

    run()
    counter.report("sign-up form")


def test_fuzz_the_guest_claim_form(make_user: Callable[..., User]) -> None:
    counter = Counter()
    choices = {
        "username": ["claimed", "Claimed", "anna", "guest-x", ""],
        "password1": [PASSWORD, "short"],
        "password2": [PASSWORD, "other"],
    }

    make_user("anna")
    guest_pk = make_user("guest-5ca1ab1e", guest=True).pk

    @FUZZ
    @given(data=payloads(choices))
    def run(data: dict[str, Any]) -> None:
        with rolled_back() as client:
            guest = User.objects.get(pk=guest_pk)
            counter.cases += 1
            users = User.objects.count()
            client.force_login(guest)
            response = client.post(reverse("accounts:claim"), data)
            assert response.status_code in (200, 302)
            guest.refresh_from_db()
            assert User.objects.count() == users
            if response.status_code == 302:
                counter.accepted += 1
                assert not guest.is_guest
            else:
                assert guest.is_guest and guest.username == "guest-5ca1ab1e"
                assert guest.has_usable_password()  # the fixture's, unchanged

    run()
    counter.report("claim form")


def test_fuzz_the_login_form(make_user: Callable[..., User]) -> None:
    counter = Counter()
    choices = {"username": ["anna", "ANNA", "nobody", ""], "password": [PASSWORD, "wrong"]}

    make_user("anna")

    @FUZZ
    @given(data=payloads(choices))
    def run(data: dict[str, Any]) -> None:
        with rolled_back() as client:
            counter.cases += 1
            users = User.objects.count()
            response = client.post(reverse("accounts:login"), data)
            assert response.status_code in (200, 302)
            assert User.objects.count() == users
            logged_in = "_auth_user_id" in client.session
            assert logged_in == (response.status_code == 302)
            counter.accepted += logged_in

    run()
    counter.report("login form")


def _querydict(data: dict[str, Any]) -> QueryDict:
    """The data as the view received it (a repeated key gives its last value)."""
    query = QueryDict(mutable=True)
    for key, item in data.items():
        query.setlist(key, item if isinstance(item, list) else [item])
    return query
