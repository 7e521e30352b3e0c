"""Online tables: matchmaking seats people (and, if the room was slow, fillers) and play starts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.constants import ONLINE_TURN_SECONDS
from games.engine import Rules
from games.models import BotLevel, Seat, Table
from games.store import changing
from games.view.errors import GameError

from .tables import start


@dataclass(frozen=True)
class Filler:
    """A simulated player: a bot with a human-looking name."""

    name: str
    level: str


@transaction.atomic
def online_table_create(
    *,
    rules: Rules,
    people: Sequence[User],
    fillers: Sequence[Filler] = (),
    turn_seconds: int = ONLINE_TURN_SECONDS,
) -> Table:
    """A started online table: ``people`` in the order they came (in pairs, the
    first and third are partners), then the fillers; the turn clock runs."""
    if not people:
        raise GameError(_("An online table needs at least one player."))
    if len(people) + len(fillers) != rules.players:
        raise GameError(_("An online table is started with every seat taken."))
    if len({u.pk for u in people}) != len(people):
        raise GameError(_("A player can take only one seat."))
    if any(f.level not in BotLevel.values or not f.name for f in fillers):
        raise GameError(_("Unknown computer level."))
    table = Table.objects.create(
        mode=Table.Mode.ONLINE,
        host=people[0],
        **Table.rules_fields(rules),
        turn_seconds=turn_seconds,
        fillers=len(fillers),
    )
    now = timezone.now()
    Seat.objects.bulk_create(
        [Seat(table=table, number=n, user=user, joined_at=now) for n, user in enumerate(people)]
        + [
            Seat(
                table=table,
                number=len(people) + n,
                bot_level=f.level,
                bot_name=f.name,
                is_filler=True,
                joined_at=now,
            )
            for n, f in enumerate(fillers)
        ]
    )
    with changing(table.pk) as writing:
        start(writing)
    return writing.table
