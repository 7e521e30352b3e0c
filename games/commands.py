"""The commands a table page sends over its websocket, dispatched to the services."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from accounts.models import User
from games import services
from games.errors import GameError


def _number(value: object) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def dispatch(*, table_id: int, user: User, data: Mapping[str, object]) -> str | None:
    """Run one command for ``user``; returns a note for them, if any.
    A refused command raises ``GameError`` and changes nothing."""
    action = str(data.get("action", ""))
    version = _number(data.get("version"))
    if action == "move":
        services.move_submit(
            table_id=table_id, user=user, move=str(data.get("move", "")), version=version
        )
    elif action == "next":
        services.hand_next(table_id=table_id, user=user, version=version)
    elif action == "join":
        seat = services.table_join(
            table_id=table_id, user=user, seat_number=_number(data.get("seat"))
        )
        if seat is None:
            return _("The table is full: you are watching.")
    elif action == "leave":
        services.table_leave(table_id=table_id, user=user)
    elif action == "start":
        services.table_start(table_id=table_id, by=user)
    elif action == "fill":
        services.table_fill_with_bots(table_id=table_id, by=user, level=str(data.get("level", "")))
    elif action == "bot":
        seat_number = _number(data.get("seat"))
        if seat_number is None:
            raise GameError(_("Choose a seat."))
        services.table_set_bot(
            table_id=table_id, by=user, seat_number=seat_number, level=str(data.get("level", ""))
        )
    elif action == "swap":
        a, b = _number(data.get("a")), _number(data.get("b"))
        if a is None or b is None:
            raise GameError(_("Choose two different seats."))
        services.table_swap_seats(table_id=table_id, by=user, a=a, b=b)
    elif action == "invite":
        username = str(data.get("username", "")).strip()
        if not username:
            raise GameError(_("Write the username of the player to invite."))
        invitation = services.table_invite(table_id=table_id, by=user, username=username)
        return _("Invitation sent to %(name)s.") % {"name": invitation.to_user.display_name}
    elif action == "cancel":
        services.table_cancel(table_id=table_id, by=user)
    else:
        raise GameError(_("Unknown command."))
    return None
