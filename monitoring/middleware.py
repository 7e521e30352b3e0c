"""The probes a load balancer and Prometheus ask, answered before the page machinery:
no session read or made, no cookie, no CSRF, nothing else of a page; only the
security headers and the Content-Security-Policy every answer carries (the
middleware before this one), and no redirect to HTTPS (``SECURE_REDIRECT_EXEMPT``:
a balancer probes over plain HTTP).

- ``/healthz``: the process answers (nothing else is asked).
- ``/readyz``: it can serve (``monitoring.health``): 200, or 503 naming what failed.
- ``/metrics``: Prometheus' text (``monitoring.exposition``), to a request that
  carries ``Authorization: Bearer <METRICS_TOKEN>``; without a token set, the path
  is not served (404).
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, Counter

from monitoring import context, health, metrics
from monitoring.exposition import exposition

Respond = Callable[[HttpRequest], HttpResponse]
access = logging.getLogger("domino.access")


def healthz(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> HttpResponse:
    checks = health.readiness(timezone.now())
    ready = all(answer == health.OK for answer in checks.values())
    return JsonResponse(
        {"status": "ready" if ready else "not ready", "checks": checks},
        status=200 if ready else 503,
    )


def metrics_page(request: HttpRequest) -> HttpResponse | None:
    token = settings.METRICS_TOKEN
    if not token:
        return None  # not served: the site's 404
    given = request.headers.get("Authorization", "").encode()
    if not hmac.compare_digest(given, f"Bearer {token}".encode()):
        response = HttpResponse("a bearer token is needed\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)


PROBES: dict[str, Callable[[HttpRequest], HttpResponse | None]] = {
    "/healthz": healthz,
    "/readyz": readyz,
    "/metrics": metrics_page,
}


class Probes:
    def __init__(self, get_response: Respond) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path)
        response = probe(request) if probe is not None else None
        if response is None:
            return self.get_response(request)
        response["Cache-Control"] = "no-store"
        return response


class LogContext:
    """Each page's log lines carry its request id (the proxy's ``X-Request-ID``, else a
    new one, sent back in the answer's) and its player; with JSON lines on, an access
    line is written for it (daphne's text one is off then: ``domino_site.log``).
    After the authentication middleware: it reads the player."""

    def __init__(self, get_response: Respond) -> None:
        self.get_response = get_response
        self.access_lines = context.json_lines()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        request_id = context.new_request_id(request.headers.get("X-Request-ID"))
        user = getattr(request, "user", None)
        context.bind(request_id, user.pk if user is not None and user.is_authenticated else None)
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = request_id
            if self.access_lines:
                took = round((time.perf_counter() - started) * 1000, 1)
                fields = {"status": response.status_code, "ms": took}
                access.info(
                    "%s", response.status_code, extra={"request": request, "fields": fields}
                )
            return response
        finally:
            context.bind(None, None)  # this thread's next request is not this one


class CountAnswers:
    """Every answer counted by its status (``domino_http_responses_total``)."""

    def __init__(self, get_response: Respond) -> None:
        self.get_response = get_response
        self.by_status: dict[int, Counter] = {}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        status = response.status_code
        counter = self.by_status.get(status)
        if counter is None:
            counter = self.by_status[status] = metrics.HTTP_RESPONSES.labels(str(status))
        counter.inc()
        return response
