"""A server error is logged once, with the method and path, and nothing secret."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from accounts.models import User
from domino_site.log import RequestLine

HIDDEN_TILE = "6|5"


def broken_view(request: HttpRequest, code: str) -> HttpResponse:
    hand = [HIDDEN_TILE]  # a local the traceback must not print
    raise RuntimeError(f"the view broke holding {len(hand)} tile")


urlpatterns = [path("broken/<str:code>/", broken_view)]


@pytest.fixture
def console_output() -> Iterator[Callable[[], str]]:
    """Everything every stream handler on the way from django.request would print,
    daphne's root handler (logging.basicConfig) included."""
    daphne_root = logging.StreamHandler(io.StringIO())
    logging.getLogger().addHandler(daphne_root)
    swapped: list[tuple[logging.StreamHandler[io.StringIO], object]] = []
    logger: logging.Logger | None = logging.getLogger("django.request")
    while logger is not None:
        for handler in logger.handlers:
            # the site's own handlers, not pytest's capturing subclasses
            if type(handler) is logging.StreamHandler and handler is not daphne_root:
                swapped.append((handler, handler.setStream(io.StringIO())))
        logger = logger.parent if logger.propagate else None
    streams = [h.stream for h, _ in swapped] + [daphne_root.stream]
    try:
        yield lambda: "".join(s.getvalue() for s in streams)
    finally:
        logging.getLogger().removeHandler(daphne_root)
        for handler, old in swapped:
            handler.setStream(old)


@pytest.mark.urls("tests.site.test_log")
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_a_server_error_is_logged_once_with_method_and_path_and_no_secret(
    debug: bool,
    settings: object,
    make_user: Callable[..., User],
    console_output: Callable[[], str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings.DEBUG = debug  # type: ignore[attr-defined]
    client = Client(raise_request_exception=False)
    client.force_login(make_user("anna"))
    session_key = client.session.session_key
    assert session_key
    client.cookies["remember"] = "cookie-secret-value"
    response = client.post("/broken/abc123/?token=query-secret", {"password": "hunter22"})
    assert response.status_code == 500

    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].name == "django.request"
    printed = console_output()
    assert printed.count("Internal Server Error") == 1, printed
    assert "POST /broken/abc123/" in printed
    assert "RuntimeError: the view broke holding 1 tile" in printed
    for secret in (session_key, "cookie-secret-value", "query-secret", "hunter22", HIDDEN_TILE):
        assert secret not in printed, secret


def test_a_path_cannot_forge_a_log_line() -> None:
    request = HttpRequest()
    request.method, request.path = "GET", "/t/x\nERROR forged/"
    record = logging.LogRecord("django.request", logging.ERROR, "", 0, "boom", (), None)
    record.request = request
    RequestLine().filter(record)
    assert record.request_line == "GET /t/x\\nERROR forged/"
