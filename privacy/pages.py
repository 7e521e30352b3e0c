"""The figures the privacy and terms pages state, read from where each is kept, so
the pages change when they do."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from accounts.constants import EMAIL_CONFIRM_AGE, GUEST_IDLE


def figures() -> dict[str, Any]:
    return {
        "guest_days": GUEST_IDLE.days,
        "confirm_days": EMAIL_CONFIRM_AGE.days,
        "reset_hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600),
        "session_days": settings.SESSION_COOKIE_AGE // (24 * 3600),
    }
