"""The new-table form: every choice offered is one the preset allows (docs/rules.md §2, §6)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from games.constants import DEFAULT_BOT_LEVEL, TURN_CLOCK_CHOICES
from games.engine import ALL_TILES, PRESET_OPTIONS, PRESETS, Rules
from games.models import BotLevel, Table
from games.view.presets import PRESET_INFO, SINGLE, rules_from_fields


def _seating_value(players: int, pairs: bool) -> str:
    return f"{players}{'p' if pairs else ''}"


def _seating_label(players: int, pairs: bool) -> str:
    if pairs:
        return str(_("4 players in pairs"))
    return str(_("%(n)s players") % {"n": players})


def _clock_choices() -> list[tuple[str, str]]:
    """Formatting a lazy translation translates it then and there: a list built when
    this module loads would stay in the language active at that moment."""
    return [
        ("", str(_("no clock"))) if s is None else (str(s), _("%(n)s seconds a move") % {"n": s})
        for s in TURN_CLOCK_CHOICES
    ]


class TableForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("Play"),
        choices=[(m.value, m.label) for m in (Table.Mode.COMPUTER, Table.Mode.FRIENDS)],
        widget=forms.RadioSelect,
    )
    preset = forms.ChoiceField(label=_("Game"))
    seating = forms.ChoiceField(label=_("Players"))
    hand_size = forms.ChoiceField(label=_("Tiles each"))
    draw = forms.ChoiceField(label=_("When you cannot play"))
    target = forms.ChoiceField(label=_("Play to"))
    bot_level = forms.ChoiceField(
        label=_("Computer level"),
        choices=BotLevel.choices,
        initial=DEFAULT_BOT_LEVEL,
        help_text=_(
            "Easy plays any tile that fits; medium plays by a good player's rules of thumb; "
            "hard imagines the hidden tiles thousands of times, as the others' plays suggest "
            "them, foresees their answers and lays what scores best."
        ),
    )
    turn_clock = forms.TypedChoiceField(
        label=_("Turn clock (with friends)"),
        choices=_clock_choices,  # called at each rendering, in the page's language
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_(
            "When time runs out, the computer plays for the player; twice, and they are away."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._field("preset").choices = [(k, i.title) for k, i in PRESET_INFO.items()]
        source = self.data if self.is_bound else self.initial
        chosen = source.get("preset")
        preset = chosen if isinstance(chosen, str) and chosen in PRESETS else "domino"
        if not self.is_bound and source.get("shown_preset") not in (None, preset):
            # Another game was chosen: its own defaults (Luciano to 100), not the last one's.
            for name in ("seating", "hand_size", "draw", "target"):
                self.initial.pop(name, None)
        self.initial["shown_preset"] = preset  # read back by the next change (a hidden input)
        options = PRESET_OPTIONS[preset]
        seatings = sorted({(s.players, s.pairs) for s in options.seatings})
        self._field("seating").choices = [
            (_seating_value(n, p), _seating_label(n, p)) for n, p in seatings
        ]
        seating = source.get("seating") or _seating_value(*seatings[0])
        sizes = sorted(
            {
                n
                for s in options.seatings
                if _seating_value(s.players, s.pairs) == seating
                for n in s.hand_sizes
            }
            or {n for s in options.seatings for n in s.hand_sizes}
        )
        self._field("hand_size").choices = [(str(n), str(n)) for n in sizes]
        labels = {True: _("draw from the boneyard"), False: _("pass (block game)")}
        self._field("draw").choices = [
            ("yes" if d else "no", labels[d]) for d in options.draw_choices
        ]
        defaults = PRESETS[preset]
        size = source.get("hand_size")
        if size not in {str(n) for n in sizes}:
            size = str(defaults.hand_size if defaults.hand_size in sizes else sizes[-1])
        players = int(seating.rstrip("p")) if seating.rstrip("p").isdecimal() else 0
        if players * int(size) == len(ALL_TILES):  # 4 × 7: every tile dealt, nothing to draw
            first = "yes" if options.draw_choices[0] else "no"
            self._field("draw").choices = [(first, _("pass: no boneyard with these settings"))]
            if not self.is_bound:
                self.initial["draw"] = first
        self._field("target").choices = [
            (SINGLE, _("a single hand")) if t is None else (str(t), _("%(n)s points") % {"n": t})
            for t in options.targets
        ]
        self.initial.setdefault("preset", preset)
        self.initial.setdefault("seating", seating)
        self.initial.setdefault(
            "hand_size", str(defaults.hand_size if defaults.hand_size in sizes else sizes[-1])
        )
        self.initial.setdefault("draw", "yes" if defaults.draw else "no")
        self.initial.setdefault(
            "target", SINGLE if defaults.target is None else str(defaults.target)
        )

    def _field(self, name: str) -> forms.ChoiceField:
        """One of this form's fields, as the choice field every one of them is."""
        return cast(forms.ChoiceField, self.fields[name])

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        seating = data["seating"]
        try:
            data["rules"] = self.rules_from(data)
        except ValueError:
            raise forms.ValidationError(
                _("%(game)s is not played with these settings.")
                % {"game": PRESET_INFO[data["preset"]].title}
            ) from None
        data["seating"] = seating
        if data.get("mode") != Table.Mode.FRIENDS:
            data["turn_clock"] = None  # only friends' tables may have one
        return data

    @staticmethod
    def fields_of(rules: Rules) -> tuple[tuple[str, str], ...]:
        """The form's table settings that ``rules_from`` reads back as ``rules``: a
        button that asks for another table like this one sends them."""
        return (
            ("preset", rules.preset),
            ("seating", _seating_value(rules.players, rules.partnerships)),
            ("hand_size", str(rules.hand_size)),
            ("draw", "yes" if rules.draw else "no"),
            ("target", SINGLE if rules.target is None else str(rules.target)),
        )

    @staticmethod
    def rules_from(data: dict[str, Any]) -> Rules:
        return rules_from_fields(data)
