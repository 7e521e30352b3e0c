"""The lobby's settings form: the new-table form's choices, without mode or computer level."""

from __future__ import annotations

from games.forms import TableForm


class PoolForm(TableForm):
    """Preset, players, tiles, draw or block, target: exactly what a table may be (RULES.md §6)."""

    mode = None  # type: ignore[assignment]
    bot_level = None  # type: ignore[assignment]
