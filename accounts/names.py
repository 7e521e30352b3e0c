"""Players named in a sentence, joined and addressed with the language's rules.

A sentence that names players takes them as a :class:`Who` (one player or several,
the viewer among them or not) and is filled by :func:`fill` (Python) or by the live
templates' ``{% trans %}``, which call it.  In Italian:

- "ad" for "a" and "ed" for "e" before a name starting with the same vowel
  ("Tocca ad alice", "bruno ed elena");
- the viewer ("Tu") is written so only at the start of a sentence: "te" after a
  preposition ("Partita vinta da bruno e te"), "tu" elsewhere ("tonino1962 e tu").

>>> from django.utils import translation
>>> with translation.override("it"):
...     fill("Tocca a %(name)s.", {"name": Who(["alice"])})
...     str(Who(["tonino", "Tu"], you=1)), str(Who(["bruno", "elena"]))
'Tocca ad alice.'
('tonino e tu', 'bruno ed elena')
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import get_language, gettext
from markupsafe import Markup, escape

#: Italian prepositions after which "tu" becomes "te" (a te, da te, con te…).
PREPOSITIONS = frozenset(
    {
        *("a", "ad", "da", "di", "in", "con", "su", "per", "tra", "fra", "contro", "verso"),
        *("senza", "dopo", "al", "allo", "alla", "ai", "agli", "alle", "dal", "dalla", "dai"),
    }
)
#: "a" and "e" take a "d" before a word starting with the same vowel.
EUPHONIC = re.compile(r"(?:^|(?<=\W))([aAeE]) $")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")
LAST_WORD = re.compile(r"(\w+)\W*$")


class Who(str):
    """Players named together, in order: as text, the names joined as a sentence's
    first words (a heading, a label); ``words`` writes them anywhere else.  ``you``
    is the viewer's place among them (their name there is the translated "You"),
    -1 when the viewer is not one."""

    names: tuple[str, ...]
    you: int

    def __new__(cls, names: Iterable[str], you: int = -1, language: str | None = None) -> Who:
        """``language``: the active one, when the caller knows it already."""
        names = tuple(names)
        text = _joined_in(language or get_language(), names, you, True, False)
        who = super().__new__(cls, text)
        who.names, who.you = names, you
        return who

    def words(self, *, start: bool, governed: bool) -> str:
        """The names joined, the viewer's as ``start`` (the sentence begins with
        them) and ``governed`` (after a preposition) need."""
        return _joined(self.names, self.you, start=start, governed=governed)


def _joined(names: tuple[str, ...], you: int, *, start: bool, governed: bool) -> str:
    """ "a, b & c" ("a, b e c"), with the viewer's name written as it stands."""
    return _joined_in(get_language(), names, you, start, governed)


@functools.lru_cache(maxsize=4096)
def _joined_in(
    language: str | None, names: tuple[str, ...], you: int, start: bool, governed: bool
) -> str:
    # Kept per language (``language``: the key; the words below are in the active one):
    # every frame names its table's players the same few ways.
    italian = (language or "").startswith("it")
    text = ""
    for place, name in enumerate(names):
        if place == you:
            name = _pronoun(name, first=start and place == 0, governed=governed and italian)
        if place:
            text += gettext(" & ") if place == len(names) - 1 else gettext(", ")
        text = (_euphonic(text, name) if italian else text) + name
    return text


def speaks_italian() -> bool:
    return (get_language() or "").startswith("it")


def _pronoun(you: str, *, first: bool, governed: bool) -> str:
    if first:
        return you
    return "te" if governed and you.lower() == "tu" else you.lower()


def _euphonic(before: str, word: str) -> str:
    """``before`` with its last word "a" or "e" made "ad" or "ed" when ``word``
    starts with that vowel."""
    found = EUPHONIC.search(before)
    if found and word[:1].lower() == found.group(1).lower():
        return before[: found.end(1)] + "d "
    return before


def fill(message: str, values: Mapping[str, Any]) -> str:
    """``message % values``, with every :class:`Who` among the values written where it
    stands (see the module).  A ``Markup`` message escapes what it is filled with."""
    if not any(type(value) is Who for value in values.values()):
        return message % values
    safe = isinstance(message, Markup)
    source = str.__str__(message)  # plain text: a Markup would escape what is added to it
    italian = speaks_italian()
    text, last = "", 0
    for found in PLACEHOLDER.finditer(source):
        text += source[last : found.start()]
        last = found.end()
        if found.group(0) == "%%":
            text += "%"
            continue
        value = values[found.group(1)]
        if type(value) is Who:
            before = LAST_WORD.search(text)
            governed = before is not None and before.group(1).lower() in PREPOSITIONS
            words = value.words(start=not text.strip(), governed=governed)
            if italian:
                text = _euphonic(text, words)
        else:
            words = found.group(0) % values
        text += str(escape(words)) if safe else words
    text += source[last:]
    return Markup(text) if safe else text


def say(message: str, **names: str | Who) -> str:
    """``message`` (translated) filled with players' names: ``say(_("%(name)s to
    play."), name="alice")``."""
    return fill(message, {k: v if isinstance(v, Who) else Who([v]) for k, v in names.items()})
