"""The commands a table page sends over its websocket: one form per action, then a service.

A command is a JSON object such as ``{"action": "move", "move": "6|4L", "version": 17}``.
The form of its action checks every field, types included (a version is a JSON
integer: not a string, a float or a boolean), before any service runs; so a
malformed command is refused with a message and changes nothing.  Every command
that changes the table carries the version it was decided on, and the service
refuses it if the table has moved on since.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from accounts.names import say
from games import services
from games.live.typing import run_typed
from games.models import BotLevel
from games.view.errors import GameError
from realtime import constants

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The largest integer a command may carry (the database's integer columns hold no more).
MAX_INT = 2**31 - 1


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise ValueError("a key is repeated")
    return data


def read_frame(text: str | None, binary: bytes | None) -> dict[str, Any] | None:
    """The command in a websocket frame, or None if it cannot be read as one: a binary
    or oversized frame, anything but a JSON object, NaN or Infinity, a repeated key,
    nesting too deep for the decoder."""
    if text is None or binary is not None or len(text) > constants.WS_MAX_FRAME_CHARS:
        return None
    try:
        data = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _message(text: StrOrPromise) -> dict[str, StrOrPromise]:
    """The same message whatever is wrong with a field (missing, mistyped, out of range)."""
    codes = ("required", "invalid", "invalid_choice", "max_length", "null_characters_not_allowed")
    return dict.fromkeys(codes, text)


class StrictIntegerField(forms.Field):
    """A JSON integer in ``[min_value, max_value]``; ``"1"``, ``1.0`` and ``true`` are not."""

    def __init__(self, *, min_value: int = 0, max_value: int = MAX_INT, **kwargs: Any) -> None:
        self.min_value, self.max_value = min_value, max_value
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if value is None:
            return None
        # bool is a subclass of int: compare the exact type.
        if type(value) is not int or not self.min_value <= value <= self.max_value:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return value


def _check_text(value: Any, field: forms.Field) -> None:
    """Only a JSON string that can be stored (no lone surrogate from a ``\\ud800`` escape)."""
    if value is None:
        return
    if not isinstance(value, str):
        raise ValidationError(field.error_messages["invalid"], code="invalid")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(field.error_messages["invalid"], code="invalid") from None


class StrictCharField(forms.CharField):
    """A JSON string (a number or a list is not turned into one)."""

    def to_python(self, value: Any) -> str | None:
        _check_text(value, self)
        return super().to_python(value)


class StrictChoiceField(forms.ChoiceField):
    """A JSON string among the choices."""

    def to_python(self, value: Any) -> str:
        _check_text(value, self)
        return str(super().to_python(value))  # already a string: the stubs say Any


class StrictBooleanField(forms.Field):
    """A JSON ``true`` or ``false`` (not ``1``, not ``"on"``)."""

    def to_python(self, value: Any) -> bool:
        if type(value) is not bool:
            raise ValidationError(self.error_messages["required"], code="required")
        return value

    def validate(self, value: Any) -> None:
        """False is a value (a required field's check would refuse it)."""


SEAT_RANGE = {"min_value": 0, "max_value": 3}
CHOOSE_A_SEAT = gettext_lazy("Choose a seat.")
CHOOSE_TWO_SEATS = gettext_lazy("Choose two different seats.")
UNKNOWN_LEVEL = gettext_lazy("Unknown computer level.")


class CommandForm(forms.Form):
    """What every command that changes a table carries: the version it was decided on."""

    version = StrictIntegerField(
        error_messages=_message(
            gettext_lazy(
                "This command did not say which state of the table it was sent from: "
                "reload the page."
            )
        )
    )


class MoveForm(CommandForm):
    move = StrictCharField(
        max_length=16, error_messages=_message(gettext_lazy("That is not a move."))
    )


class JoinForm(CommandForm):
    seat = StrictIntegerField(required=False, error_messages=_message(CHOOSE_A_SEAT), **SEAT_RANGE)


class BotForm(CommandForm):
    seat = StrictIntegerField(error_messages=_message(CHOOSE_A_SEAT), **SEAT_RANGE)
    # An empty level takes the bot off the seat.
    level = StrictChoiceField(
        choices=[("", ""), *BotLevel.choices],
        required=False,
        error_messages=_message(UNKNOWN_LEVEL),
    )


class SeatForm(CommandForm):
    seat = StrictIntegerField(error_messages=_message(CHOOSE_A_SEAT), **SEAT_RANGE)


class FillForm(CommandForm):
    level = StrictChoiceField(choices=BotLevel.choices, error_messages=_message(UNKNOWN_LEVEL))


class SwapForm(CommandForm):
    a = StrictIntegerField(error_messages=_message(CHOOSE_TWO_SEATS), **SEAT_RANGE)
    b = StrictIntegerField(error_messages=_message(CHOOSE_TWO_SEATS), **SEAT_RANGE)


class InviteForm(CommandForm):
    username = StrictCharField(
        max_length=150,
        error_messages=_message(gettext_lazy("Write the username of the player to invite.")),
    )


class ForcedForm(forms.Form):
    """One of the player's own yes-or-no settings: their only possible moves played for
    them, the table as text (no version: the choice means the same at any version)."""

    on = StrictBooleanField(error_messages=_message(gettext_lazy("Say yes or no.")))


class TypedForm(CommandForm):
    text = StrictCharField(
        max_length=80,
        error_messages=_message(gettext_lazy("Type a command, or help.")),
    )


class SeedForm(forms.Form):
    """A browser's seed for the next deal, and the commitment it saw (no version: the
    commitment names the deal; a seed for a deal already dealt changes nothing)."""

    commitment = StrictCharField(
        max_length=64, error_messages=_message(gettext_lazy("That seed could not be read."))
    )
    seed = StrictCharField(
        max_length=64, error_messages=_message(gettext_lazy("That seed could not be read."))
    )


Run = Callable[[int, User, dict[str, Any]], str | None]


def _move(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.move_submit(table_id=table_id, user=user, move=data["move"], version=data["version"])


def _next(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.hand_next(table_id=table_id, user=user, version=data["version"])


def _join(table_id: int, user: User, data: dict[str, Any]) -> str | None:
    seat = services.table_join(
        table_id=table_id, user=user, seat_number=data["seat"], version=data["version"]
    )
    return _("The table is full: you are watching.") if seat is None else None


def _leave(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.table_leave(table_id=table_id, user=user, version=data["version"])


def _start(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.table_start(table_id=table_id, by=user, version=data["version"])


def _fill(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.table_fill_with_bots(
        table_id=table_id, by=user, level=data["level"], version=data["version"]
    )


def _bot(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.table_set_bot(
        table_id=table_id,
        by=user,
        seat_number=data["seat"],
        level=data["level"],
        version=data["version"],
    )


def _swap(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.table_swap_seats(
        table_id=table_id, by=user, a=data["a"], b=data["b"], version=data["version"]
    )


def _invite(table_id: int, user: User, data: dict[str, Any]) -> str:
    invitation = services.table_invite(
        table_id=table_id, by=user, username=data["username"], version=data["version"]
    )
    return say(_("Invitation sent to %(name)s."), name=invitation.to_user.display_name)


def _cancel(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.table_cancel(table_id=table_id, by=user, version=data["version"])


def _back(table_id: int, user: User, data: dict[str, Any]) -> None:
    """ "I'm back": an away player takes their seat back from the stand-in bot."""
    services.seat_back(table_id=table_id, user=user)


def _standin(table_id: int, user: User, data: dict[str, Any]) -> None:
    """The host lets the computer play for an absent friend."""
    services.seat_hand_to_bot(
        table_id=table_id, by=user, seat_number=data["seat"], version=data["version"]
    )


def _end(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.table_end(table_id=table_id, by=user, version=data["version"])


def _forced(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.forced_moves_choose(user=user, on=data["on"], table_id=table_id)


def _text(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.text_mode_choose(user=user, on=data["on"], table_id=table_id)


def _typed(table_id: int, user: User, data: dict[str, Any]) -> str | None:
    return run_typed(table_id=table_id, user=user, text=data["text"], version=data["version"])


def _seed(table_id: int, user: User, data: dict[str, Any]) -> None:
    services.client_seed_add(
        table_id=table_id, user=user, commitment=data["commitment"], seed=data["seed"]
    )


@dataclass(frozen=True)
class Action:
    form: type[forms.Form]
    run: Run


ACTIONS: dict[str, Action] = {
    "move": Action(MoveForm, _move),
    "next": Action(CommandForm, _next),
    "join": Action(JoinForm, _join),
    "leave": Action(CommandForm, _leave),
    "start": Action(CommandForm, _start),
    "fill": Action(FillForm, _fill),
    "bot": Action(BotForm, _bot),
    "swap": Action(SwapForm, _swap),
    "invite": Action(InviteForm, _invite),
    "cancel": Action(CommandForm, _cancel),
    "back": Action(CommandForm, _back),
    "standin": Action(SeatForm, _standin),
    "end": Action(CommandForm, _end),
    "seed": Action(SeedForm, _seed),
    "forced": Action(ForcedForm, _forced),
    "text": Action(ForcedForm, _text),
    "type": Action(TypedForm, _typed),
}


def action_of(data: Mapping[str, object]) -> str | None:
    """The command's action if it is one we know (safe to log), else None."""
    action = data.get("action")
    return action if isinstance(action, str) and action in ACTIONS else None


def dispatch(*, table_id: int, user: User, data: Mapping[str, object]) -> str | None:
    """Run one command for ``user``; returns a note for them, if any.
    A refused command raises ``GameError`` and changes nothing."""
    action = action_of(data)
    if action is None:
        raise GameError(_("Unknown command."))
    return ACTIONS[action].run(table_id, user, cleaned(ACTIONS[action].form, data))


def cleaned(form: type[forms.Form], data: Mapping[str, object]) -> dict[str, Any]:
    """The command's values, each cleaned by its form's field (``Field.clean``), in the
    form's order; the first that is wrong refuses the command with its message.  A
    command's form has no checks across fields, and a form instance deep-copies its
    fields: 140 of a move's 1,300 microseconds."""
    values = {}
    for name, field in form.base_fields.items():
        try:
            values[name] = field.clean(data.get(name))
        except ValidationError as error:
            raise GameError(str(error.messages[0])) from None
    return values
