"""One notion of "the same name": sign-up, claim, login, profiles and
invitations all compare usernames through ``username_key``."""

from __future__ import annotations

import unicodedata


def username_clean(username: str) -> str:
    """The form a username is stored in: NFKC (full-width ``Ｂｏｂ`` is ``Bob``), trimmed."""
    return unicodedata.normalize("NFKC", username).strip()


def username_key(username: str) -> str:
    """What makes two names the same: NFKC, then case-folded (``Élodie`` = ``élodie``).

    >>> username_key("Ｂｏｂ") == username_key("BOB") == "bob"
    True
    >>> username_key("Straße") == username_key("STRASSE")
    True
    """
    return unicodedata.normalize("NFKC", username_clean(username).casefold())
