"""Each language on its own: every form and every page rendered in English shows no
sentence of the Italian catalog, and in Italian no English sentence that has a
translation (a lazy translation formatted once, when its module loaded, froze the
friends' clock choices in one language)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser

import pytest
from django import forms
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from django.utils import translation

from accounts.models import User
from tests.site.test_urls import _requests, _world
from tests.test_translations import PO, _entries

pytestmark = pytest.mark.django_db

# Text a page shows or reads out: what is between tags, and these attributes.
SHOWN_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "value", "aria-description"}


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Text(HTMLParser):
    """The text of a page in ``language``: not scripts, not what is marked as another
    language (``<em lang="it">``, a preset's Italian name on an English page)."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language
        self.parts: list[str] = []
        self._skipped: list[str] = []  # the open elements whose text is not shown as ours

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        lang = dict(attrs).get("lang")
        foreign = lang is not None and not lang.startswith(self.language)
        if tag in ("script", "style") or foreign or (self._skipped and tag not in VOID):
            self._skipped.append(tag)
        if not self._skipped:
            self.parts += [v for n, v in attrs if n in SHOWN_ATTRIBUTES and v]

    def handle_endtag(self, tag: str) -> None:
        if self._skipped and tag == self._skipped[-1]:
            self._skipped.pop()

    def handle_data(self, data: str) -> None:
        if not self._skipped:
            self.parts.append(data)


def _shown(html: str, language: str) -> str:
    parser = _Text(language)
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def _pieces(message: str) -> Iterator[str]:
    """The literal stretches of a message long enough to be a language's own (three
    words or more), placeholders and markup cut out."""
    for piece in re.split(r"%\(\w+\)[sd]|%[sd]|\{\w*\}|<[^>]*>|\\n", message):
        piece = " ".join(piece.split()).strip(" .,:;!?()–-")
        if len(piece.split()) >= 3:
            yield piece


def _sentences() -> dict[str, set[str]]:
    """Per language, the sentences that belong to it alone."""
    english: set[str] = set()
    italian: set[str] = set()
    for entry in _entries(PO.read_text()):
        msgid, msgstr = entry["msgid"], entry.get("msgstr") or entry.get("msgstr[1]", "")
        msgid, msgstr = (m.replace('\\"', '"') for m in (msgid, msgstr))
        english |= {p for p in _pieces(msgid) if p not in msgstr}
        italian |= {p for p in _pieces(msgstr) if p not in msgid}
    return {"en": english, "it": italian}


SENTENCES = _sentences()
OTHER = {"en": "it", "it": "en"}


def _foreign(text: str, language: str) -> list[str]:
    return sorted(s for s in SENTENCES[OTHER[language]] if s in text)


def test_the_catalog_gives_each_language_sentences_of_its_own() -> None:
    assert len(SENTENCES["en"]) > 300 and len(SENTENCES["it"]) > 300
    assert "seconds a move" in SENTENCES["en"] and "secondi a mossa" in SENTENCES["it"]
    assert _foreign("Turno: 20 secondi a mossa", "en") == ["secondi a mossa"]


def _forms() -> Iterator[type[forms.Form]]:
    import accounts.forms
    import games.forms
    import privacy.forms

    for module in (accounts.forms, games.forms, privacy.forms):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, forms.BaseForm)
                and value.__module__ == module.__name__
            ):
                yield value


@pytest.mark.parametrize("language", ["en", "it"])
def test_every_form_speaks_one_language(language: str) -> None:
    rendered = []
    for form_class in _forms():
        with translation.override(language):
            try:
                form = form_class()
            except TypeError:  # a form that needs its user or table: the pages show it
                continue
            rendered.append(form_class.__name__)
            assert _foreign(_shown(form.as_div(), language), language) == [], form_class.__name__
    assert "TableForm" in rendered


@pytest.mark.parametrize("language", ["en", "it"])
def test_every_page_speaks_one_language(make_user: Callable[..., User], language: str) -> None:
    world = _world(make_user)
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    found: dict[str, list[str]] = {}
    pages = 0
    for visitor in ("anonymous", "seated"):
        for label, path in _requests(world):
            if path.startswith("/admin/") or path.startswith("/i18n/"):
                continue
            caches["default"].clear()
            client.cookies.clear()
            with transaction.atomic():
                user = world.users[visitor]
                if user is not None:
                    client.force_login(user)
                response = client.get(path)
                transaction.set_rollback(True)
            if "text/html" not in response.get("Content-Type", ""):
                continue
            pages += 1
            foreign = _foreign(_shown(response.content.decode(), language), language)
            if foreign:
                found[f"{visitor} {label}"] = foreign
    assert pages > 40
    assert found == {}


def test_no_page_needing_an_account_says_no_registration_is_needed(
    make_user: Callable[..., User], client: Client
) -> None:
    """The footer is on every page, the coins' and the league's too: it says only what
    holds everywhere (friends join by a table's link without registering)."""
    client.force_login(make_user("carla"))
    for path in ("/coins/", "/league/", "/"):
        page = client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        footer = page.split('<footer class="footer">')[1]
        assert "No registration needed. Share a link" not in footer
        assert "Friends join a table through its link, with no registration." in footer
