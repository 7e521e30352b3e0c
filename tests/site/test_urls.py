"""Every URL of the site, GET and POST, as four visitors: never a server error,
each answer is the one a visitor of that kind should get, and every answer carries
the site's Content-Security-Policy (tests/site/test_csp.py: ``strict``).

The rows are printed (``pytest -s``) so the authorization table can be quoted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import User
from games import services
from games.models import Invitation, Table
from games.view.presets import PRESET_INFO
from tests.fixtures import DUELLO
from tests.site.test_csp import strict

pytestmark = pytest.mark.django_db

VISITORS = ("anonymous", "guest", "seated", "stranger")


@dataclass(frozen=True)
class World:
    waiting: Table  # friends, seated host, one free seat, an invitation to a fifth person
    playing: Table  # against the computer, a hand under way
    invitation: Invitation
    users: dict[str, User | None]


def _world(make_user: Callable[..., User]) -> World:
    seated = make_user("anna")
    invitee = make_user("carla")
    waiting = services.table_create(host=seated, mode=Table.Mode.FRIENDS, rules=DUELLO)
    invitation = Invitation.objects.create(table=waiting, from_user=seated, to_user=invitee)
    playing = services.table_create(host=seated, mode=Table.Mode.COMPUTER, rules=DUELLO)
    users: dict[str, User | None] = {
        "anonymous": None,
        "guest": make_user("guest-5ca1ab1e", guest=True),
        "seated": seated,
        "stranger": make_user("bruno"),
    }
    return World(waiting, playing, invitation, users)


# Sample values for every URL keyword: each route is tried with each variant.
SAMPLES: dict[str, Callable[[World], dict[str, object]]] = {
    "code": lambda w: {"waiting": w.waiting.code, "playing": w.playing.code, "unknown": "nope0000"},
    "pk": lambda w: {"existing": w.invitation.pk, "unknown": 999_999},
    "username": lambda w: {"existing": "bruno", "unknown": "nobody-here"},
    "preset": lambda w: {**{p: p for p in PRESET_INFO}, "unknown": "nope"},
    "object_id": lambda w: {"existing": w.waiting.pk, "unknown": 999_999},
    "id": lambda w: {"existing": w.waiting.host_id, "unknown": 999_999},
    "content_type_id": lambda w: {"unknown": 999_999},
    "app_label": lambda w: {"games": "games"},
    "url": lambda w: {"unknown": "nope/"},
    "number": lambda w: {"existing": 1, "unknown": 99},
    "token": lambda w: {"unknown": "nope-token"},
    "uidb64": lambda w: {"unknown": "MQ"},
    "format": lambda w: {"duel": "duel", "free": "free", "pairs": "pairs", "unknown": "nope"},
}


def _patterns(
    patterns: list[URLPattern | URLResolver], prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, list[str]]]:
    """(route, name with namespace, keywords) for every pattern of the site."""
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = ":".join(x for x in (namespace, p.namespace or "") if x)
            yield from _patterns(p.url_patterns, prefix + str(p.pattern), ns)
        else:
            name = f"{namespace}:{p.name}" if namespace and p.name else p.name or ""
            yield prefix + str(p.pattern), name, list(p.pattern.regex.groupindex)


def _fill(route: str, kwargs: dict[str, object]) -> str:
    """The path of an unnamed pattern (the admin's catch-alls), keywords filled in."""
    path = route
    for key, value in kwargs.items():
        path = re.sub(rf"<(?:\w+:)?{key}>|\(\?P<{key}>[^)]*\)", str(value), path)
    return "/" + path.lstrip("^").rstrip("$")


def _requests(world: World) -> list[tuple[str, str]]:
    """(row label, path) for every pattern and every sample of its keywords."""
    rows = []
    for route, name, keys in _patterns(get_resolver().url_patterns):
        unknown = [k for k in keys if k not in SAMPLES]
        assert not unknown, f"{route}: give SAMPLES a value for {unknown}"
        variants: dict[str, dict[str, object]] = {"": {}}
        for key in keys:  # a route with two keywords: both existing, or both unknown
            samples = SAMPLES[key](world)
            variants = {
                label or sample: {**kw, key: value}
                for label, kw in variants.items()
                for sample, value in samples.items()
                if not label or sample == label or (label not in samples and sample == "unknown")
            }
        for label, kwargs in variants.items():
            path = reverse(name, kwargs=kwargs) if name else _fill(route, kwargs)
            rows.append((f"/{route}" + (f" [{label}]" if label else ""), path))
    return rows


CLIENT = Client(raise_request_exception=False)  # one handler for every request


def _signed_in(world: World) -> dict[str, SimpleCookie]:
    """Each visitor's cookies, signed in once (a session saved before any request): each
    request then starts from the same session as a fresh login would give, and a
    login's work is not repeated a thousand times."""
    cookies = {}
    for visitor, user in world.users.items():
        CLIENT.cookies.clear()
        if user is not None:
            CLIENT.force_login(user)
        cookies[visitor] = SimpleCookie(CLIENT.cookies)
    return cookies


def _answer(world: World, cookies: SimpleCookie, method: str, path: str) -> int:
    """The status one visitor gets (negative: without the site's policy); whatever the
    request changed is rolled back, sessions included."""
    caches["default"].clear()  # rate-limit counters: each cell is a first visit
    caches["sessions"].clear()  # a session the request changed is read again from the database
    client = CLIENT
    client.cookies = SimpleCookie(cookies)
    with transaction.atomic():
        response = client.generic(method, path)
        transaction.set_rollback(True)
    return response.status_code if strict(response) else -response.status_code


# What each visitor gets (the admin is checked apart: see ADMIN).  A POST that a
# service refuses answers 302 back to a page with the reason in a message.
EXPECTED = """
route                                        method anonymous guest seated stranger
/accounts/signup/                            GET    200 200 200 200
/accounts/signup/                            POST   200 200 200 200
/accounts/login/                             GET    200 200 200 200
/accounts/login/                             POST   200 200 200 200
/accounts/logout/                            GET    405 405 405 405
/accounts/logout/                            POST   302 302 302 302
/accounts/claim/                             GET    302 200 302 302
/accounts/claim/                             POST   302 200 302 302
/accounts/me/                                GET    302 200 200 200
/accounts/me/                                POST   302 200 200 200
/accounts/players/<str:username>/ [existing] GET    200 200 200 200
/accounts/players/<str:username>/ [existing] POST   200 200 200 200
/accounts/players/<str:username>/ [unknown]  GET    404 404 404 404
/accounts/players/<str:username>/ [unknown]  POST   404 404 404 404
/accounts/account/                           GET    302 302 200 200
/accounts/account/                           POST   302 302 200 200
/accounts/account/email/                     GET    405 405 405 405
/accounts/account/email/                     POST   302 302 400 400
/accounts/account/email/remove/              GET    405 405 405 405
/accounts/account/email/remove/              POST   302 302 302 302
/accounts/account/password/                  GET    405 405 405 405
/accounts/account/password/                  POST   302 302 400 400
/accounts/email/<str:token>/ [unknown]       GET    200 200 200 200
/accounts/email/<str:token>/ [unknown]       POST   200 200 200 200
/accounts/password/reset/                    GET    200 200 200 200
/accounts/password/reset/                    POST   200 200 200 200
/accounts/password/reset/sent/               GET    200 200 200 200
/accounts/password/reset/sent/               POST   405 405 405 405
/accounts/password/reset/<uidb64>/<token>/ [unknown] GET 200 200 200 200
/accounts/password/reset/<uidb64>/<token>/ [unknown] POST 200 200 200 200
/accounts/password/reset/done/               GET    200 200 200 200
/accounts/password/reset/done/               POST   405 405 405 405
/privacy/                                    GET    200 200 200 200
/privacy/                                    POST   200 200 200 200
/terms/                                      GET    200 200 200 200
/terms/                                      POST   200 200 200 200
/accounts/account/export/                    GET    302 200 200 200
/accounts/account/export/                    POST   302 200 200 200
/accounts/account/delete/                    GET    302 200 200 200
/accounts/account/delete/                    POST   302 200 200 200
/i18n/setlang/                               GET    302 302 302 302
/i18n/setlang/                               POST   302 302 302 302
/coins/                                      GET    200 200 200 200
/coins/                                      POST   200 200 200 200
/coins/daily/                                GET    405 405 405 405
/coins/daily/                                POST   302 302 302 302
/coins/buy/                                  GET    405 405 405 405
/coins/buy/                                  POST   302 302 302 302
/                                            GET    200 200 200 200
/                                            POST   200 200 200 200
/play/                                       GET    405 405 405 405
/play/                                       POST   302 302 302 302
/new/                                        GET    200 200 200 200
/new/                                        POST   200 200 200 200
/t/<str:code>/ [waiting]                     GET    200 200 200 200
/t/<str:code>/ [waiting]                     POST   200 200 200 200
/t/<str:code>/ [playing]                     GET    200 200 200 200
/t/<str:code>/ [playing]                     POST   200 200 200 200
/t/<str:code>/ [unknown]                     GET    404 404 404 404
/t/<str:code>/ [unknown]                     POST   404 404 404 404
/t/<str:code>/sit/ [waiting]                 GET    405 405 405 405
/t/<str:code>/sit/ [waiting]                 POST   302 302 302 302
/t/<str:code>/sit/ [playing]                 GET    405 405 405 405
/t/<str:code>/sit/ [playing]                 POST   302 302 302 302
/t/<str:code>/sit/ [unknown]                 GET    405 405 405 405
/t/<str:code>/sit/ [unknown]                 POST   404 404 404 404
/t/<str:code>/rematch/ [waiting]             GET    405 405 405 405
/t/<str:code>/rematch/ [waiting]             POST   302 302 302 302
/t/<str:code>/rematch/ [playing]             GET    405 405 405 405
/t/<str:code>/rematch/ [playing]             POST   302 302 302 302
/t/<str:code>/rematch/ [unknown]             GET    405 405 405 405
/t/<str:code>/rematch/ [unknown]             POST   404 404 404 404
/invitations/                                GET    200 200 200 200
/invitations/                                POST   200 200 200 200
/invitations/<int:pk>/accept/ [existing]     GET    405 405 405 405
/invitations/<int:pk>/accept/ [existing]     POST   302 404 404 404
/invitations/<int:pk>/accept/ [unknown]      GET    405 405 405 405
/invitations/<int:pk>/accept/ [unknown]      POST   302 404 404 404
/invitations/<int:pk>/decline/ [existing]    GET    405 405 405 405
/invitations/<int:pk>/decline/ [existing]    POST   302 404 404 404
/invitations/<int:pk>/decline/ [unknown]     GET    405 405 405 405
/invitations/<int:pk>/decline/ [unknown]     POST   302 404 404 404
/rules/                                      GET    200 200 200 200
/rules/                                      POST   200 200 200 200
/rules/<str:preset>/ [<each preset>]         GET    200 200 200 200
/rules/<str:preset>/ [<each preset>]         POST   200 200 200 200
/rules/<str:preset>/ [unknown]               GET    404 404 404 404
/rules/<str:preset>/ [unknown]               POST   404 404 404 404
"""

ORDINARY = {200, 302, 400, 403, 404, 405, 429}

# The admin, to anybody who is not staff: its login page, else a redirect to it.
ADMIN = {"/admin/login/": 200}

Row = tuple[str, str]


def _expected() -> dict[Row, tuple[int, ...]]:
    rows = {}
    for line in EXPECTED.strip().splitlines()[1:]:
        *route, method, a, g, s, st = line.split()
        label = " ".join(route)
        for preset in PRESET_INFO if "<each preset>" in label else [None]:
            key = label.replace("<each preset>", preset) if preset else label
            rows[(key, method)] = (int(a), int(g), int(s), int(st))
    return rows


def _print(table: dict[Row, tuple[int, ...]]) -> None:
    admin = sorted({codes for (label, _), codes in table.items() if label.startswith("/admin/")})
    print(f"\n{'route':<45} {'method':<6} " + " ".join(f"{v:>9}" for v in VISITORS))
    for (label, method), codes in table.items():
        if not label.startswith("/admin/"):
            new = "" if (label, method) in _expected() else "  (not in EXPECTED)"
            print(f"{label:<45} {method:<6} " + " ".join(f"{c:>9}" for c in codes) + new)
    admin_rows = sum(1 for label, _ in table if label.startswith("/admin/"))
    print(f"{'/admin/… (' + str(admin_rows) + ' requests)':<45} {'both':<6} {admin}")


def test_no_http_view_answers_a_server_error(make_user: Callable[..., User]) -> None:
    world = _world(make_user)
    cookies = _signed_in(world)
    table: dict[Row, tuple[int, ...]] = {}
    for label, path in _requests(world):
        for method in ("GET", "POST"):
            table[(label, method)] = tuple(
                _answer(world, cookies[v], method, path) for v in VISITORS
            )
    _print(table)
    assert {k: c for k, c in table.items() if max(c) >= 500} == {}
    site = {k: c for k, c in table.items() if not k[0].startswith("/admin/")}
    expected = _expected()
    assert {k: site.get(k) for k in expected} == expected
    # A route added since the table was written: no server error, an ordinary answer.
    assert all(set(c) <= ORDINARY for k, c in site.items() if k not in expected)
    admin = {k: c for k, c in table.items() if k[0].startswith("/admin/")}
    assert admin and all(
        set(codes) == {ADMIN.get(label, 302)} for (label, _), codes in admin.items()
    )


@pytest.mark.parametrize("route", ["accounts:signup", "accounts:claim", "accounts:login"])
def test_an_empty_form_posted_past_the_rate_limit_answers_429_not_500(
    route: str, make_user: Callable[..., User]
) -> None:
    """Past the limit the form says "too many attempts"; an empty post once crashed it."""
    caches["default"].clear()
    client = Client(raise_request_exception=False)
    client.force_login(make_user("guest-5ca1ab1e", guest=True))
    codes = [client.post(reverse(route), {}).status_code for _attempt in range(30)]
    assert max(codes) < 500
    assert codes[-1] == 429
