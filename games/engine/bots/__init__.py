"""Computer players: the same bots for practice, simulated players and abandoned seats.

>>> from games.engine import PRESETS, Round
>>> import random
>>> r = Round.deal(PRESETS["duello"], rng=random.Random(1))
>>> bot = make_bot("medium", seed=1)
>>> bot.choose(r.view(r.turn)) in r.legal_moves()
True
"""

from __future__ import annotations

from typing import Any

from .base import Bot
from .easy import EasyBot
from .hard import DEFAULT_BUDGET_MS, HardBot
from .medium import MediumBot

#: The levels :func:`make_bot` knows, weakest first.
LEVELS = ("easy", "medium", "hard")


def make_bot(level: str, *, seed: int | None = None, **options: Any) -> Bot:
    """A bot of ``level`` ("easy", "medium" or "hard"), seeded for reproducible play.

    Extra keyword options go to the level's class, e.g. ``budget_ms`` (default
    :data:`DEFAULT_BUDGET_MS`) or ``iterations`` for ``hard``.
    """
    classes: dict[str, type[Bot]] = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot}
    cls = classes.get(level)
    if cls is None:
        raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    try:
        return cls(seed=seed, **options)
    except TypeError as error:
        raise ValueError(f"bad option for the {level} bot: {error}") from None


__all__ = [
    "DEFAULT_BUDGET_MS",
    "LEVELS",
    "Bot",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "make_bot",
]
