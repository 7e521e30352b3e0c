"""The lobby's settings form: the new-table form's choices for the table itself, nothing else."""

from __future__ import annotations

from typing import Any

from games.forms import TableForm

#: What a pool is made of (docs/rules.md §2, §6); the new-table form's other fields
#: (mode, computer level, a friends' turn clock) do not apply online.
SETTINGS = ("preset", "seating", "hand_size", "draw", "target")


class PoolForm(TableForm):
    """Preset, players, tiles, draw or block, target: exactly what a table may be."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in list(self.fields):
            if name not in SETTINGS:
                del self.fields[name]
