"""What a screen reader hears at the table: tiles by name ("six–four", "sei–quattro"),
and after each frame one polite sentence with the last move, whose turn it is and the
open ends, in the viewer's language (``#table-head``'s ``data-say``, which table.js puts
in the page's live region)."""

from __future__ import annotations

import html
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from accounts.models import User
from games import services
from games.selectors import table_view
from tests.fixtures import version_of
from tests.games.test_live_templates import _position, _table_at

pytestmark = pytest.mark.django_db


def said(page: str) -> str:
    found = re.search(r'data-say="([^"]*)"', page)
    assert found is not None
    return html.unescape(found.group(1))


def test_after_a_move_the_other_player_hears_it_and_that_it_is_their_turn(
    anna: User, bruno: User
) -> None:
    table = _table_at(anna, bruno, _position("3|3", ["6|3", "6|6"], ["4|3", "2|2"]))
    services.move_submit(table_id=table.pk, user=anna, move="6|3L", version=version_of(table))
    tv = table_view(table=table, user=bruno)
    name = anna.display_name
    with translation.override("en"):
        assert said(render_to_string("games/_head.html", {"tv": tv})) == (
            f"{name}: on the left six–three. Your turn. Open ends: 6 and 3."
        )
    with translation.override("it"):
        assert said(render_to_string("games/_head.html", {"tv": tv})) == (
            f"{name}: a sinistra sei–tre. Tocca a te. Estremità aperte: 6 e 3."
        )
    assert said(render_to_string("games/_head.html", {"tv": table_view(table=table, user=anna)}))
    with translation.override("en"):
        mine = said(
            render_to_string("games/_head.html", {"tv": table_view(table=table, user=anna)})
        )
    assert (
        mine
        == "You: on the left six–three. " + f"{bruno.display_name} to play. Open ends: 6 and 3."
    )


def test_tiles_are_named_for_assistive_technology(anna: User, bruno: User) -> None:
    table = _table_at(anna, bruno, _position("3|3", ["6|3", "6|6", "4|1"], ["4|3", "2|2"]))
    tv = table_view(table=table, user=anna)
    with translation.override("en"):
        hand = render_to_string("games/_hand.html", {"tv": tv})
        board = render_to_string("games/_board.html", {"tv": tv})
    assert 'aria-label="Play six–three"' in hand
    assert 'aria-label="double six"' in hand and 'aria-label="four–one"' in hand
    assert 'aria-label="double three"' in board
    with translation.override("it"):
        hand = render_to_string("games/_hand.html", {"tv": tv})
    assert 'aria-label="Gioca sei–tre"' in hand and 'aria-label="doppio sei"' in hand
    labels = re.findall(r'aria-label="([^"]*)"', hand)
    assert labels and not [label for label in labels if "|" in label]  # never "6 bar 3"
