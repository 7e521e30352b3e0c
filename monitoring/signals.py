"""Logins counted from Django's own signals (a guest's first visit logs them in too)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver

from monitoring import metrics

_GUEST = metrics.LOGINS.labels("guest")
_ACCOUNT = metrics.LOGINS.labels("account")


@receiver(user_logged_in, dispatch_uid="monitoring.logged_in")
def logged_in(sender: Any, user: Any, **kwargs: Any) -> None:
    (_GUEST if getattr(user, "is_guest", False) else _ACCOUNT).inc()


@receiver(user_login_failed, dispatch_uid="monitoring.login_failed")
def login_failed(sender: Any, **kwargs: Any) -> None:
    metrics.LOGIN_FAILURES.inc()
