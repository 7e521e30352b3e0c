"""A command's values are cleaned by its form's fields one by one (``commands.cleaned``),
not by a form instance: the same values and the same first message as the form's."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms

from games.live.commands import ACTIONS, cleaned
from games.view.errors import GameError

#: For every field a command may carry: values a browser (or anyone) could send.
SENT: dict[str, list[Any]] = {
    "version": [17, 0, -1, "17", 1.0, True, None],
    "move": ["6|4L", "", "x" * 17, 3, None],
    "seat": [0, 3, 4, "1", None],
    "level": ["easy", "", "genius", None],
    "a": [0, 2, 9],
    "b": [1, 1, None],
    "username": ["bruno", "", 5],
    "on": [True, False, 1, "on"],
    "text": ["play 6|4 left", "", "x" * 81],
    "commitment": ["ab" * 32, "ab" * 33, None],
    "seed": ["cd" * 8, 7],
}


def _by_the_form(form: Any, data: dict[str, Any]) -> dict[str, Any] | str:
    bound = form(data=data)
    if bound.is_valid():
        return dict(bound.cleaned_data)
    return str(next(iter(bound.errors.values()))[0])


def _by_cleaned(form: Any, data: dict[str, Any]) -> dict[str, Any] | str:
    try:
        return cleaned(form, data)
    except GameError as error:
        return error.message


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_each_commands_values_and_first_message_are_its_forms(action: str) -> None:
    form = ACTIONS[action].form
    # a form with checks of its own (clean, clean_<field>) would need an instance to run
    hooks = [n for n in dir(form) if n.startswith("clean")]
    assert hooks == ["clean"] and form.clean is forms.Form.clean
    fields = list(form.base_fields)
    tried = 0
    for field in fields:
        for value in SENT[field]:
            data = {name: SENT[name][0] for name in fields} | {"action": action, field: value}
            assert _by_cleaned(form, data) == _by_the_form(form, data), (field, value)
            tried += 1
    missing = {"action": action}  # every field left out
    assert _by_cleaned(form, missing) == _by_the_form(form, missing)
    assert tried == sum(len(SENT[field]) for field in fields)
