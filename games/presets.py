"""How presets are named and offered to players (the rules themselves are the engine's)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine import PRESET_OPTIONS, PRESETS


@dataclass(frozen=True)
class PresetInfo:
    key: str
    title: Promise
    summary: Promise


PRESET_INFO: dict[str, PresetInfo] = {
    "domino": PresetInfo(
        "domino",
        _("Dominoes"),
        _("The classic draw game for 2, 3 or 4 in pairs, to 50, 100 or 150 points."),
    ),
    "blocco": PresetInfo(
        "blocco",
        _("Block dominoes"),
        _("No drawing: who cannot play passes. One hand decides."),
    ),
    "duello": PresetInfo(
        "duello",
        _("Classic duel"),
        _("One against one from the bazaar; the winner of a hand opens the next."),
    ),
    "luciano": PresetInfo(
        "luciano",
        _("Luciano dominoes"),
        _("One against one, draw or block, the blocked hand scores the difference."),
    ),
}

assert PRESET_INFO.keys() == PRESETS.keys() == PRESET_OPTIONS.keys()
