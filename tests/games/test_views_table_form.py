"""The new-table form: every refused field says why, on the page, and creates nothing."""

from __future__ import annotations

from html import escape

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

from games.forms import TableForm
from games.models import Table

pytestmark = pytest.mark.django_db

VALID = {
    "mode": "friends",
    "preset": "domino",
    "seating": "2",
    "hand_size": "7",
    "draw": "yes",
    "target": "100",
    "bot_level": "easy",
}


def _shown_errors(client: Client, data: dict[str, str]) -> tuple[str, dict[str, list[str]]]:
    response = client.post(reverse("table_new"), data)
    assert response.status_code == 200
    assert not Table.objects.exists()
    errors = response.context["form"].errors
    assert errors, "the form was refused without saying why"
    return response.content.decode(), errors


def test_the_valid_payload_creates_a_table(english: Client) -> None:
    assert english.post(reverse("table_new"), VALID).status_code == 302
    assert Table.objects.count() == 1


@pytest.mark.parametrize("field", list(TableForm().fields))
def test_every_fields_error_is_shown_on_the_new_table_form(english: Client, field: str) -> None:
    """``mode=ranked`` used to re-render the form with no message: every field shows its own."""
    page, errors = _shown_errors(english, {**VALID, field: "ranked"})
    assert list(errors) == [field]
    for message in errors[field]:
        assert escape(message) in page, (field, message)
    assert f'id="id_{field}_error"' in page


@pytest.mark.parametrize("field", [n for n, f in TableForm().fields.items() if f.required])
def test_a_missing_field_is_named_on_the_new_table_form(english: Client, field: str) -> None:
    data = {k: v for k, v in VALID.items() if k != field}
    page, errors = _shown_errors(english, data)
    assert errors[field] == ["This field is required."]
    assert f'id="id_{field}_error"' in page


def test_a_message_for_the_whole_form_is_shown(rf: RequestFactory) -> None:
    """What no single field can say (the engine refusing a combination) is shown too."""
    form = TableForm(data=VALID)
    assert form.is_valid()
    form.add_error(None, "Domino is not played with these settings.")
    page = render_to_string("games/_table_form.html", {"form": form}, request=rf.get("/new/"))
    assert "Domino is not played with these settings." in page


def _form(client: Client, **data: str) -> str:
    response = client.get(reverse("table_new"), data, headers={"HX-Request": "true"})
    return str(response.content.decode())


def _selected(page: str, field: str) -> str:
    select = page.split(f'name="{field}"')[1].split("</select>")[0]
    return select.split(" selected>")[0].rsplit('value="', 1)[1].split('"')[0]


def test_changing_the_game_resets_the_target_to_that_games_default(english: Client) -> None:
    page = _form(english, preset="luciano", shown_preset="domino", target="150", mode="computer")
    assert _selected(page, "target") == "100"
    same = _form(english, preset="luciano", shown_preset="luciano", target="150", mode="computer")
    assert _selected(same, "target") == "150"  # a change of something else keeps the choice


def test_four_players_with_seven_tiles_say_there_is_no_boneyard(english: Client) -> None:
    page = _form(english, preset="domino", shown_preset="domino", seating="4p", hand_size="7")
    draw = page.split('name="draw"')[1].split("</select>")[0]
    assert "no boneyard" in draw and "draw from the boneyard" not in draw
    five = _form(english, preset="domino", shown_preset="domino", seating="4p", hand_size="5")
    assert "draw from the boneyard" in five.split('name="draw"')[1].split("</select>")[0]


def test_the_form_says_in_one_line_what_each_computer_level_does(client: Client) -> None:
    """Whoever chooses a level reads what it does, in Italian by default."""
    page = client.get(reverse("table_new"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert escape("Facile gioca una tessera qualsiasi che entra; medio segue le regole") in page
    assert "difficile immagina migliaia di volte le tessere nascoste" in page
    assert "ne prevede le risposte" in page
