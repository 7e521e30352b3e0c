"""Italian is the default language: every message of the catalog is translated."""

from __future__ import annotations

import re
from pathlib import Path

PO = Path(__file__).resolve().parent.parent / "locale" / "it" / "LC_MESSAGES" / "django.po"


def _entries(text: str) -> list[dict[str, str]]:
    entries: list[dict[str, str]] = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fields["fuzzy"] = "yes"
            match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line.strip('"')
        if fields.get("msgid"):
            entries.append(fields)
    return entries


def test_every_message_has_an_italian_translation() -> None:
    entries = _entries(PO.read_text())
    assert len(entries) > 200
    untranslated = [
        e["msgid"]
        for e in entries
        if "fuzzy" in e or not (e.get("msgstr") or (e.get("msgstr[0]") and e.get("msgstr[1]")))
    ]
    assert untranslated == []


def test_placeholders_survive_translation() -> None:
    for e in _entries(PO.read_text()):
        wanted = set(re.findall(r"%\(\w+\)s", e["msgid"] + e.get("msgid_plural", "")))
        got = set(re.findall(r"%\(\w+\)s", e.get("msgstr", "") + e.get("msgstr[1]", "")))
        assert got == wanted, e["msgid"]


def test_every_message_of_the_live_templates_is_in_the_catalog() -> None:
    """The table's live regions are Jinja2 templates, which ``makemessages`` does not
    read: each message they translate must already be in the catalog."""
    from django.template import engines
    from jinja2.ext import babel_extract

    environment = engines["jinja2"].env  # type: ignore[attr-defined]
    known = {e["msgid"].replace('\\"', '"') for e in _entries(PO.read_text())}
    live = Path(__file__).resolve().parent.parent / "templates" / "regions"
    found: list[str] = []
    for template in sorted(live.rglob("*.html")):
        with template.open("rb") as source:
            for _line, _function, message, _comments in babel_extract(
                source,
                ("_", "gettext", "ngettext"),
                [],
                {"extensions": ",".join(environment.extensions), "newstyle_gettext": "true"},
            ):
                singular = message[0] if isinstance(message, tuple) else message
                if singular:
                    found.append(singular)
    assert len(found) > 80
    assert sorted(set(found) - known) == []


def test_every_message_the_table_drawing_says_is_in_the_catalog() -> None:
    """The hand and the board are drawn in Python (``games.view.drawing``), their
    sentences through ``_say(language, message[, plural])``, which ``makemessages``
    does not know: each must already be in the catalog, plural and all."""
    import ast

    from games.view import drawing

    entries = _entries(PO.read_text())
    known = {(e["msgid"], e.get("msgid_plural", "")) for e in entries}
    tree = ast.parse(Path(drawing.__file__).read_text())
    said = [
        tuple(arg.value for arg in call.args[1:] if isinstance(arg, ast.Constant))
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "_say"
    ]
    assert len(said) > 12
    messages = {(message[0], message[1] if len(message) > 1 else "") for message in said}
    assert sorted(messages - known) == []
