"""Names for the computer players a table seats: friendly, one list per level.

Names are proper nouns, the same in every language.  At one table no two
seats share a name, so the log says which bot passed: a partner or an opponent.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

BOT_NAMES: dict[str, tuple[str, ...]] = {
    "easy": (
        "Nonna Pina", "Zio Gino", "Zia Rosetta", "Nonno Tano", "Cugina Lalla", "Zio Peppino",
    ),
    "medium": (
        "Donna Lina", "Don Ciccio", "Mastro Nicola", "Comare Teresa", "Compare Turi", "Sora Lella",
    ),
    "hard": (
        "Il Professore", "La Contessa", "Capitan Rocco", "Dottor Sforza", "La Volpe", "Il Maestro",
    ),
}  # fmt: skip

_rng = random.SystemRandom()


def bot_name(level: str, *, taken: Iterable[str] = ()) -> str:
    """A name of ``level``'s list that no seat in ``taken`` has ('' for no level)."""
    if not level:
        return ""
    names = BOT_NAMES.get(level, BOT_NAMES["medium"])
    used = set(taken)
    free = [n for n in names if n not in used]
    if free:
        return _rng.choice(free)
    # More bots than names (not possible with four seats): number them.
    return next(f"{n} {i}" for i in range(2, 100) for n in names if f"{n} {i}" not in used)
