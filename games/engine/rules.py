"""Table settings and presets (docs/rules.md §2 and §6): variants are data.

One frozen :class:`Rules` value describes a table; the engine reads its fields
and never asks which preset it is playing.  :data:`PRESETS` holds the four
presets at their default settings, and ``dataclasses.replace`` makes a variant:

>>> from dataclasses import replace
>>> rules = replace(PRESETS["domino"], players=4, hand_size=7)
>>> rules.partnerships, rules.boneyard_size, rules.sides
(True, 0, 2)
>>> replace(PRESETS["duello"], players=3)
Traceback (most recent call last):
...
ValueError: duello is played by 2 players, not 3
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Final, Literal, get_args

BlockedScoring = Literal["all", "difference", "none"]
NextOpener = Literal["highest_double", "previous_winner"]

PLAYER_COUNTS: Final = (2, 3, 4)
HAND_SIZES: Final = (5, 7)
TARGETS: Final = (50, 100, 150, 200, 250, 300)


@dataclass(frozen=True)
class Seating:
    """A way a preset seats players: how many, in pairs or not, tiles each."""

    players: int
    pairs: bool
    hand_sizes: tuple[int, ...]


@dataclass(frozen=True)
class PresetOptions:
    """The table settings a preset offers (docs/rules.md §6)."""

    seatings: tuple[Seating, ...]
    draw_choices: tuple[bool, ...]
    targets: tuple[int | None, ...]

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts offered, ascending."""
        return tuple(sorted({s.players for s in self.seatings}))

    def seating(self, players: int, hand_size: int, pairs: bool | None) -> Seating | None:
        """The seating for these settings (pairs first when unspecified), if offered."""
        for s in sorted(self.seatings, key=lambda s: not s.pairs):
            if s.players == players and hand_size in s.hand_sizes and pairs in (None, s.pairs):
                return s
        return None


_ALL_TARGETS: Final[tuple[int | None, ...]] = TARGETS

PRESET_OPTIONS: Final[dict[str, PresetOptions]] = {
    "blocco": PresetOptions(
        seatings=(
            Seating(2, False, (7,)),
            Seating(3, False, (5,)),
            Seating(4, False, (5,)),
            Seating(4, True, (7,)),
        ),
        draw_choices=(False,),
        targets=(None,),
    ),
    "domino": PresetOptions(
        seatings=(Seating(2, False, (5, 7)), Seating(3, False, (5, 7)), Seating(4, True, (5, 7))),
        draw_choices=(True,),
        targets=(50, 100, 150),
    ),
    "duello": PresetOptions(
        seatings=(Seating(2, False, (7,)),), draw_choices=(True,), targets=_ALL_TARGETS
    ),
    "luciano": PresetOptions(
        seatings=(Seating(2, False, (7,)),), draw_choices=(True, False), targets=_ALL_TARGETS
    ),
}


@dataclass(frozen=True)
class Rules:
    """Every knob of a table.  Impossible combinations raise ``ValueError``.

    ``teams``: True for two pairs (seats 0+2 against 1+3), False for every seat
    on its own, None for the preset's usual seating (pairs with 4 players,
    except ``blocco`` with 5 tiles each).  Read :attr:`partnerships` for the
    resolved answer.  ``target`` None means a single hand decides.
    ``draw`` False is block play; with no boneyard it is block play anyway.
    """

    preset: str
    players: int = 2
    hand_size: int = 7
    teams: bool | None = None
    draw: bool = True
    target: int | None = 100
    blocked_scoring: BlockedScoring = "all"
    next_opener: NextOpener = "highest_double"
    partnerships: bool = field(init=False, repr=False, compare=False)
    #: seat_sides[seat]: the side each seat plays for.
    seat_sides: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pairs = self._check()
        object.__setattr__(self, "partnerships", pairs)
        object.__setattr__(
            self, "seat_sides", tuple(s % 2 if pairs else s for s in range(self.players))
        )

    def _check(self) -> bool:
        if self.players not in PLAYER_COUNTS:
            raise ValueError(f"players must be 2, 3 or 4, not {self.players!r}")
        if self.hand_size not in HAND_SIZES:
            raise ValueError(f"tiles each must be 5 or 7, not {self.hand_size!r}")
        if self.teams and self.players != 4:
            raise ValueError(f"pairs need 4 players, not {self.players}")
        if self.target is not None and self.target not in TARGETS:
            raise ValueError(
                f"the match target must be one of {', '.join(map(str, TARGETS))} points "
                f"or None for a single hand, not {self.target!r}"
            )
        if self.blocked_scoring not in get_args(BlockedScoring):
            raise ValueError(
                f"blocked scoring must be all, difference or none, not {self.blocked_scoring!r}"
            )
        if self.next_opener not in get_args(NextOpener):
            raise ValueError(
                f"the opener must be highest_double or previous_winner, not {self.next_opener!r}"
            )
        options = PRESET_OPTIONS.get(self.preset)
        if options is None:
            return self.players == 4 if self.teams is None else self.teams
        return self._check_offered(options)

    def _check_offered(self, options: PresetOptions) -> bool:
        name = self.preset
        if self.players not in options.player_counts:
            counts = " or ".join(map(str, options.player_counts))
            raise ValueError(f"{name} is played by {counts} players, not {self.players}")
        seating = options.seating(self.players, self.hand_size, self.teams)
        if seating is None:
            sizes = sorted(
                {n for s in options.seatings if s.players == self.players for n in s.hand_sizes}
            )
            pairs_offered = {s.pairs for s in options.seatings if s.players == self.players}
            if self.teams is not None and self.teams not in pairs_offered:
                how = "in pairs" if self.teams else "each for themselves"
                raise ValueError(f"{name} with {self.players} players is not played {how}")
            raise ValueError(
                f"{name} with {self.players} players"
                f"{' in pairs' if self.teams else ''} deals "
                f"{' or '.join(map(str, sizes))} tiles each, not {self.hand_size}"
            )
        if self.draw not in options.draw_choices:
            raise ValueError(
                f"{name} is played {'with' if options.draw_choices[0] else 'without'} drawing"
            )
        if self.target not in options.targets:
            offered = ", ".join("a single hand" if t is None else str(t) for t in options.targets)
            got = "a single hand" if self.target is None else f"{self.target} points"
            raise ValueError(f"{name} is played to {offered}, not {got}")
        return seating.pairs

    @property
    def boneyard_size(self) -> int:
        """Tiles left undealt (docs/rules.md §2)."""
        return 28 - self.players * self.hand_size

    @property
    def draws(self) -> bool:
        """True when a player who cannot play draws (there is something to draw)."""
        return self.draw and self.boneyard_size > 0

    @property
    def sides(self) -> int:
        """How many sides score: 2 in pairs, otherwise one per seat."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return self.seat_sides[seat]

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats of one side."""
        return (side, side + 2) if self.partnerships else (side,)

    def to_text(self) -> str:
        """A text form that :meth:`parse` reads back exactly.  ``draw`` says how the
        table is played: ``no`` when every tile is dealt (4 × 7), whatever the preset
        would do with a boneyard, as the page calls such a table a block game.

        >>> PRESETS["blocco"].to_text().split()[:6]
        ['blocco', 'players=2', 'hand_size=7', 'teams=auto', 'draw=no', 'target=single']
        """
        parts = [self.preset]
        for f in fields(self):
            if f.name == "preset" or not f.init:
                continue
            value = self.draws if f.name == "draw" else getattr(self, f.name)
            parts.append(f"{f.name}={_format_value(f.name, value)}")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read :meth:`to_text` back; missing settings take the preset's defaults."""
        name, *settings = text.split()
        base = PRESETS[name] if name in PRESETS else Rules(name)
        values: dict[str, object] = {}
        known = {f.name for f in fields(cls) if f.init}
        for setting in settings:
            key, sep, raw = setting.partition("=")
            if not sep or key not in known or key == "preset":
                raise ValueError(f"unknown table setting {setting!r}")
            values[key] = _parse_value(key, raw)
        rules = replace(base, **{**values, "draw": base.draw})  # type: ignore[arg-type]
        if rules.boneyard_size == 0:
            # nothing to draw: the preset's own choice, whichever the text says (records
            # written before said ``draw=yes`` for a domino table of 4 × 7)
            return rules
        return replace(rules, draw=values.get("draw", base.draw))  # type: ignore[arg-type]


def _format_value(key: str, value: object) -> str:
    if value is None:
        return "single" if key == "target" else "auto"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _parse_value(key: str, raw: str) -> object:
    if key in ("players", "hand_size"):
        return int(raw) if raw.isdigit() else raw
    if key == "target":
        return None if raw == "single" else int(raw) if raw.isdigit() else raw
    if key in ("teams", "draw"):
        return {"yes": True, "no": False, "auto": None}.get(raw, raw)
    return raw


PRESETS: Final[dict[str, Rules]] = {
    "blocco": Rules("blocco", draw=False, target=None, blocked_scoring="none"),
    "domino": Rules("domino", target=100, blocked_scoring="all"),
    "duello": Rules(
        "duello", target=100, blocked_scoring="difference", next_opener="previous_winner"
    ),
    "luciano": Rules("luciano", target=100, blocked_scoring="difference"),
}


def offered_tables(*, targets: bool = False) -> list[Rules]:
    """Every table the presets offer: each seating, tiles each and drawing choice, at the
    preset's own target (``targets``: at every target it offers too), in a fixed order."""
    tables: list[Rules] = []
    for name, options in PRESET_OPTIONS.items():
        for seating in options.seatings:
            teams = seating.pairs if seating.players == 4 else None
            for hand_size in seating.hand_sizes:
                for draw in options.draw_choices:
                    table = replace(
                        PRESETS[name],
                        players=seating.players,
                        teams=teams,
                        hand_size=hand_size,
                        draw=draw,
                    )
                    if targets:
                        tables.extend(replace(table, target=t) for t in options.targets)
                    else:
                        tables.append(table)
    return tables
