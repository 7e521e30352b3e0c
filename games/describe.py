"""A table in words, the same on every page: its mode and its settings.

``table_mode`` names how a table is played (against the computer, with friends,
online, online with simulated players, a stake table); what is played is
``games.view.presets.describe_rules`` (the engine's own reading of the settings:
with four players of seven tiles there is no boneyard, so the description says
"block game" as the engine plays it, whatever the draw setting).  The waiting
screen, the lobby, the table's title, invitations, the stake tables' list, the
profile and the home page's games all use them.
"""

from __future__ import annotations

from django.utils.translation import gettext

from games.models import Table


def mode_name(mode: str, *, stake: int = 0, fillers: int = 0) -> str:
    """How a table is played, in the active language, lower-case (mid-sentence)."""
    if stake:
        return gettext("stake table, %(coins)s coins") % {"coins": stake}
    if mode == Table.Mode.COMPUTER:
        return gettext("against the computer")
    if mode == Table.Mode.FRIENDS:
        return gettext("with friends")
    if fillers:
        return gettext("online, with simulated players")
    return gettext("online")


def table_mode(table: Table) -> str:
    """``mode_name`` of ``table``."""
    return mode_name(table.mode, stake=table.stake, fillers=table.fillers)


def mode_order(mode: str, *, stake: int = 0, fillers: int = 0) -> tuple[int, int]:
    """Where a mode comes in a list of modes: computer, friends, online, online with
    simulated players, then stake tables from the smallest stake."""
    if stake:
        return (3, stake)
    return ({"computer": 0, "friends": 1}.get(mode, 2), 1 if fillers else 0)
