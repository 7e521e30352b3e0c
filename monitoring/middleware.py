"""The probes a load balancer and Prometheus ask, answered before the page machinery:
no session read or made, no cookie, no CSRF, nothing else of a page; only the
security headers and the Content-Security-Policy every answer carries (the
middleware before this one), and no redirect to HTTPS (``SECURE_REDIRECT_EXEMPT``:
a balancer probes over plain HTTP).

- ``/healthz``: the process answers (nothing else is asked).
- ``/readyz``: it can serve (``monitoring.health``): 200, or 503 naming what failed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from monitoring import health


def healthz(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> HttpResponse:
    checks = health.readiness(timezone.now())
    ready = all(answer == health.OK for answer in checks.values())
    return JsonResponse(
        {"status": "ready" if ready else "not ready", "checks": checks},
        status=200 if ready else 503,
    )


PROBES: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    "/healthz": healthz,
    "/readyz": readyz,
}


class Probes:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path)
        if probe is None:
            return self.get_response(request)
        response = probe(request)
        response["Cache-Control"] = "no-store"
        return response
