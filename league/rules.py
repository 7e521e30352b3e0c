"""The league's numbers applied: points for a rank, who goes up or down, prizes.

Pure functions over ``economy.numbers`` (the one settings module for rewards),
so the page, the match receiver and the week's closing agree.
"""

from __future__ import annotations

from economy import numbers

from .models import Tier

LOWEST, HIGHEST = min(Tier.values), max(Tier.values)


def seating_of(*, players: int, teams: bool | None) -> str:
    """The key of ``LEAGUE_POINTS``: "2", "3", "4" or "pairs"."""
    return "pairs" if players == 4 and teams else str(players)


def points_for(*, seating: str, rank: int, simulated: bool) -> int:
    """League points for a final rank (partners and ties share a rank, so its points)."""
    table = numbers.LEAGUE_POINTS[seating]
    points = table[rank - 1] if 1 <= rank <= len(table) else 0
    return points * numbers.LEAGUE_SIMULATED_PERCENT // 100 if simulated else points


def move_for(*, tier: int, rank: int, count: int, points: int) -> int:
    """+1 up, -1 down or 0, for the ``rank`` of ``count`` ranked players of a division.

    The top ``LEAGUE_PROMOTED`` with at least ``LEAGUE_MIN_POINTS`` go up; the
    bottom ``LEAGUE_RELEGATED`` go down, but never a place that could have gone up.
    """
    if tier < HIGHEST and rank <= numbers.LEAGUE_PROMOTED:
        return 1 if points >= numbers.LEAGUE_MIN_POINTS else 0
    if tier > LOWEST and rank > max(numbers.LEAGUE_PROMOTED, count - numbers.LEAGUE_RELEGATED):
        return -1
    return 0


def prize_for(*, tier: int, rank: int, points: int) -> int:
    """Coins for a final place (0 below the prizes or under the minimum points)."""
    prizes = numbers.LEAGUE_PRIZES[tier]
    if rank > len(prizes) or points < numbers.LEAGUE_MIN_POINTS:
        return 0
    return prizes[rank - 1]
