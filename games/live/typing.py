"""Typed commands at the site's tables: the table played by words (``games.view.typed``
reads them, for the offline game too).

``play 6 4 left``, ``draw``, ``pass``, ``next``, ``back`` go through the same services
as the table's buttons (a refused one changes nothing and says why); ``ends``,
``hand``, ``count``, ``line`` and ``help`` answer with a sentence of the table as text.
"""

from __future__ import annotations

from typing import Any

from django.template import engines

from accounts.models import User
from games import services
from games.selectors import table_view
from games.view.typed import read_typed, sentence


def run_typed(*, table_id: int, user: User, text: str, version: int) -> str | None:
    """Run one typed command for ``user``; a sentence to tell them, if it is a question.
    A command that cannot be done raises ``GameError`` and changes nothing."""
    tv: Any = table_view(table=table_id, user=user)
    typed = read_typed(tv, text)
    if typed.kind == "tell":
        return sentence(engines["jinja2"].env, typed.value, tv)  # type: ignore[attr-defined]
    if typed.kind == "move":
        services.move_submit(table_id=table_id, user=user, move=typed.value, version=version)
    elif typed.kind == "next":
        services.hand_next(table_id=table_id, user=user, version=version)
    else:
        services.seat_back(table_id=table_id, user=user)
    return None
