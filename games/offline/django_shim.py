"""Django's translation calls, answered in the browser from the site's own catalog.

The modules the offline table shares with the site (``accounts.names``,
``games.view.presets``) translate through ``django.utils.translation``.  Django is not
in the browser; these few functions are, reading the compiled catalog
(``locale/<language>/LC_MESSAGES/django.mo``) with the standard library's gettext.
``install`` puts them where those modules look, and only where Django is absent.
"""

from __future__ import annotations

import gettext as gnu
import sys
import types
from pathlib import Path
from typing import Any

#: The catalog of the language the page is in; the messages' own (English) without one.
_catalog: gnu.NullTranslations = gnu.NullTranslations()
_language = "it"


def activate(language: str, locale_dir: Path) -> None:
    """Translate into ``language`` from here on."""
    global _catalog, _language
    mo = locale_dir / language / "LC_MESSAGES" / "django.mo"
    _catalog = gnu.GNUTranslations(mo.open("rb")) if mo.exists() else gnu.NullTranslations()
    _language = language


def catalog() -> gnu.NullTranslations:
    return _catalog


def get_language() -> str:
    return _language


def gettext(message: str) -> str:
    return _catalog.gettext(message)


def ngettext(singular: str, plural: str, number: int) -> str:
    return _catalog.ngettext(singular, plural, number)


class Promise:
    """Django's base class of a lazy translation."""


class _Lazy(Promise):
    """A message translated when it is shown, in the language of that moment."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __str__(self) -> str:
        return gettext(self.message)

    def __html__(self) -> str:
        from markupsafe import escape

        return str(escape(str(self)))


def gettext_lazy(message: str) -> Any:
    return _Lazy(message)


def gettext_noop(message: str) -> str:
    """A message marked for the catalog, translated later (by ``gettext``)."""
    return message


def install() -> None:
    """Make ``django.utils.translation`` and ``django.utils.functional`` these, unless
    the real Django is there (the site's own process: never replace it)."""
    if "django" in sys.modules:
        raise RuntimeError("Django is loaded: the shim is for the browser only")
    translation = types.ModuleType("django.utils.translation")
    for name in ("gettext", "ngettext", "gettext_lazy", "gettext_noop", "get_language"):
        setattr(translation, name, globals()[name])
    functional = types.ModuleType("django.utils.functional")
    functional.Promise = Promise  # type: ignore[attr-defined]
    django, utils = types.ModuleType("django"), types.ModuleType("django.utils")
    django.utils = utils  # type: ignore[attr-defined]
    utils.translation, utils.functional = translation, functional  # type: ignore[attr-defined]
    sys.modules.update(
        {
            "django": django,
            "django.utils": utils,
            "django.utils.translation": translation,
            "django.utils.functional": functional,
        }
    )
