"""Names for simulated players: plausible Italian players' names, never a real account's.

A name is a first name combined with a surname, a year, a province or an initial,
in the styles people choose (``giulia_87``, ``Marco.Rossi``, ``tonino1962``,
``peppe_na``): some twenty thousand of them.  When the ones drawn are taken, a
number is added, as a player would (``luca.ferri7``, ``giulia_87_3``), from a
wider range at each round: a fill always finds its names.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterable

from accounts.models import User
from accounts.usernames import username_key

FIRST_NAMES: tuple[str, ...] = (
    "ale", "alessio", "andrea", "angela", "anna", "anto", "bea", "beppe", "carmela", "cate",
    "chiara", "ciro", "claudio", "concetta", "dario", "davide", "ele", "elena", "emma", "enzo",
    "fabio", "fede", "federica", "franco", "fra", "gabri", "gianluca", "gianni", "gino",
    "giorgio", "giovanna", "giulia", "ire", "laura", "lella", "lollo", "lorenzo", "luca",
    "lucia", "marco", "mari", "marti", "matteo", "mauro", "max", "michele", "mimmo", "nadia",
    "nico", "paolo", "pasquale", "patrizia", "peppe", "pino", "rita", "robi", "rocco", "rosa",
    "rosy", "salvo", "sandro", "sara", "silvia", "simo", "sonia", "ste", "teresa", "tina",
    "tommaso", "tonino", "vale", "vincenzo",
)  # fmt: skip
SURNAMES: tuple[str, ...] = (
    "amato", "barbieri", "bellini", "bernardi", "bianchi", "bruno", "caruso", "cattaneo",
    "colombo", "conti", "coppola", "costa", "donati", "esposito", "fabbri", "farina", "ferrara",
    "ferrari", "ferri", "fontana", "galli", "gallo", "gentile", "giordano", "grasso", "greco",
    "guerra", "leone", "lombardi", "lombardo", "longo", "mancini", "marini", "marino", "martini",
    "mazza", "messina", "monti", "moretti", "negri", "orlando", "pace", "palumbo", "parisi",
    "pellegrini", "ricci", "rinaldi", "riva", "rizzi", "rizzo", "romano", "rossi", "russo",
    "sala", "sanna", "santoro", "serra", "silvestri", "testa", "villa", "vitale",
)  # fmt: skip
#: Provinces, as in ``peppe_na`` or ``gianni_to``.
PLACES: tuple[str, ...] = (
    "an", "ba", "bg", "bo", "bs", "ca", "ct", "fi", "ge", "le", "lu", "me", "mi", "mo", "na",
    "pa", "pd", "pg", "pr", "rc", "rm", "sa", "ss", "tn", "to", "ts", "ve", "vr",
)  # fmt: skip
YEARS = range(1950, 2006)

#: The ways a first name is combined, and how often in a hundred names; every
#: field comes from ``PARTS``.
STYLES: dict[str, int] = {
    "{first}.{surname}": 25,  # luca.ferri, Marco.Rossi
    "{first}_{surname}": 20,  # fra_bianchi, Davide_Bruno
    "{first}_{yy}": 20,  # giulia_87
    "{first}{year}": 15,  # tonino1962
    "{first}_{place}": 10,  # peppe_na
    "{first}.{initial}": 7,  # giorgio.m
    "{First}Domino": 3,  # SaraDomino
}
PARTS: dict[str, tuple[str, ...]] = {
    "first": FIRST_NAMES,
    "First": tuple(f.capitalize() for f in FIRST_NAMES),
    "surname": SURNAMES,
    "initial": tuple(sorted({s[0] for s in SURNAMES})),
    "yy": tuple(f"{y % 100:02d}" for y in YEARS),
    "year": tuple(str(y) for y in YEARS),
    "place": PLACES,
}
#: How often a name with a surname is written with capitals (``Marco.Rossi``).
CAPITALISED = 0.25
#: Rounds of drawing before giving up (never reached): numbers are added from the
#: second round on, up to 9, 99, 999… ``10**(ROUNDS - 1) - 1``.
ROUNDS = 8


def filler_names(count: int, *, rng: random.Random | None = None) -> list[str]:
    """``count`` different names that no account has (case and width folded)."""
    rng = rng or random.SystemRandom()
    chosen: dict[str, str] = {}  # key -> name
    for round_ in range(ROUNDS):
        drawn: dict[str, str] = {}
        for _ in range(64 * max(count, 4)):  # a bound, should a vocabulary be tiny
            if len(drawn) >= 4 * max(count, 4):
                break
            name = _drawn(rng, numbered_below=10**round_ if round_ else 0)
            drawn.setdefault(username_key(name), name)
        taken = _taken(drawn) | set(chosen)
        for key, name in drawn.items():
            if len(chosen) < count and key not in taken:
                chosen[key] = name
        if len(chosen) == count:
            return list(chosen.values())
    raise RuntimeError("not enough free names for simulated players")


def _drawn(rng: random.Random, *, numbered_below: int) -> str:
    """One name at random; with a number from 2 to below ``numbered_below`` added, if any."""
    [style] = rng.choices(tuple(STYLES), weights=tuple(STYLES.values()))
    fields = fields_of(style)
    name = style.format(**{f: rng.choice(PARTS[f]) for f in fields})
    if "surname" in fields and rng.random() < CAPITALISED:
        name = name.title()  # davide_bruno -> Davide_Bruno
    if numbered_below > 2:
        number = rng.randrange(2, numbered_below)
        name = f"{name}_{number}" if name[-1].isdigit() else f"{name}{number}"
    return name


def fields_of(style: str) -> list[str]:
    """The parts a style names (``first``, ``surname`` …), in order."""
    return [field for _, field, _, _ in string.Formatter().parse(style) if field]


def _taken(keys: Iterable[str]) -> set[str]:
    return set(
        User.objects.filter(username_key__in=list(keys)).values_list("username_key", flat=True)
    )
