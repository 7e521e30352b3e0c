"""How presets are named and offered to players (the rules themselves are the engine's).

Django's translations only: the offline table (``games/offline/``) imports it in the
browser too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine import PRESET_OPTIONS, PRESETS, Rules

#: The new-table form's "play to" for a single hand.
SINGLE = "single"


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


def describe_rules(rules: Rules, *, preset: bool = True) -> str:
    """The table's settings in words, in the active language:
    "Dominoes · 4 players in pairs · 7 tiles each · block game · to 100 points"
    (without the game's name when ``preset`` is False)."""
    if rules.partnerships:
        seating = gettext("%(n)s players in pairs") % {"n": rules.players}
    else:
        seating = gettext("%(n)s players") % {"n": rules.players}
    parts = [
        seating,
        gettext("%(n)s tiles each") % {"n": rules.hand_size},
        gettext("draw game") if rules.draws else gettext("block game"),
        gettext("a single hand")
        if rules.target is None
        else gettext("to %(n)s points") % {"n": rules.target},
    ]
    if preset:
        parts.insert(0, str(PRESET_INFO[rules.preset].title))
    return " · ".join(parts)


def rules_from_fields(fields: Mapping[str, str]) -> Rules:
    """The rules the new-table form's settings ask for (``games.forms.TableForm``, and
    the offline table's form); ``ValueError`` for settings the preset does not offer."""
    seating = fields["seating"]
    target = fields["target"]
    return replace(
        PRESETS[fields["preset"]],
        players=int(seating.rstrip("p")),
        teams=True if seating.endswith("p") else (False if seating == "4" else None),
        hand_size=int(fields["hand_size"]),
        draw=fields["draw"] == "yes",
        target=None if target == SINGLE else int(target),
    )
