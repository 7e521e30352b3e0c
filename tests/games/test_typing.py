"""The table as text with typed commands (games/live/typing.py): a move typed goes
through the same service as a click; a question is answered with a sentence of the
table as text; bad input gets a clear message and changes nothing; English and
Italian words alike."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from accounts.models import User
from games.live.commands import dispatch
from games.models import Move
from games.selectors import table_view
from games.view.errors import GameError
from tests.fixtures import version_of
from tests.games.test_live_templates import _position, _table_at

pytestmark = pytest.mark.django_db


def typed(table: object, user: User, text: str) -> str | None:
    data = {"action": "type", "text": text, "version": version_of(table)}  # type: ignore[arg-type]
    return dispatch(table_id=table.pk, user=user, data=data)  # type: ignore[attr-defined]


def moves(table: object) -> list[tuple[int, str, str]]:
    rows = Move.objects.filter(hand__table=table).order_by("ply")
    return [(m.seat, m.text, m.actor) for m in rows]


@pytest.fixture
def table(anna: User, bruno: User) -> object:
    # anna to play: 4|2 fits both ends (2 and 4), 6|6 nothing
    return _table_at(anna, bruno, _position("2|3,3|3,3|4", ["4|2", "6|6"], ["1|1", "0|0"]))


def test_the_table_as_text_is_the_players_choice(table: object, anna: User) -> None:
    tv = table_view(table=table, user=anna)  # type: ignore[arg-type]
    assert 'id="command-form"' not in render_to_string("games/_text.html", {"tv": tv})
    dispatch(table_id=table.pk, user=anna, data={"action": "text", "on": True})  # type: ignore[attr-defined]
    tv = table_view(table=table, user=anna)  # type: ignore[arg-type]
    page = render_to_string("games/_text.html", {"tv": tv})
    assert 'id="command-form"' in page and 'id="text-mode" aria-pressed="true"' in (
        render_to_string("games/_options.html", {"tv": tv})
    )
    assert "Line, from left to right: two–three, double three, three–four." in page
    assert "Your tiles: double six, four–two. They fit: four–two." in page


def test_a_typed_move_is_played_as_a_click_would(table: object, anna: User) -> None:
    assert typed(table, anna, "play 4 2 right") is None
    assert moves(table) == [(0, "4|2R", Move.Actor.PERSON)]


def test_italian_words_and_other_ways_to_write_a_tile(table: object, anna: User) -> None:
    assert typed(table, anna, "gioca 2-4 sinistra") is None
    assert moves(table) == [(0, "4|2L", Move.Actor.PERSON)]


@pytest.mark.parametrize(
    "text,said",
    [
        ("play 4 2", "four–two fits both ends: say left or right."),
        ("play 6 6 left", "double six does not fit here."),
        ("play 5 1 left", "You do not hold five–one."),
        ("play 9 9", "Say the tile and the end, as in: play 6 4 left."),
        ("play 4 2 up", "Say the tile and the end, as in: play 6 4 left."),
        ("dance", "“dance” is not a command: type help for the list."),
        ("   ", "Type a command, or help."),
        ("draw", "You have a tile that fits: play it."),
        ("pass", "You have a tile that fits: play it."),
    ],
)
def test_bad_input_says_why_and_changes_nothing(
    table: object, anna: User, text: str, said: str
) -> None:
    version = version_of(table)  # type: ignore[arg-type]
    with pytest.raises(GameError) as refused:
        typed(table, anna, text)
    assert said in refused.value.message
    assert moves(table) == [] and version_of(table) == version  # type: ignore[arg-type]


def test_not_your_turn(table: object, bruno: User) -> None:
    with pytest.raises(GameError, match="It is not your turn"):
        typed(table, bruno, "play 1 1 left")
    assert moves(table) == []


def test_questions_are_answered_in_the_players_language(table: object, anna: User) -> None:
    assert typed(table, anna, "ends") == "Open ends: 2 and 4."
    assert typed(table, anna, "hand") == "Your tiles: double six, four–two. They fit: four–two."
    assert typed(table, anna, "line") == (
        "Line, from left to right: two–three, double three, three–four."
    )
    name = User.objects.get(username="bruno").display_name
    assert typed(table, anna, "count").startswith(f"You: 2 tiles. {name}: 2 tiles. Boneyard:")
    assert "play 6 4 left" in (typed(table, anna, "help") or "")
    with translation.override("it"):
        assert typed(table, anna, "estremità") == "Estremità aperte: 2 e 4."
        assert (
            typed(table, anna, "mano")
            == "Le tue tessere: doppio sei, quattro–due. Entrano: quattro–due."
        )
    assert moves(table) == []
