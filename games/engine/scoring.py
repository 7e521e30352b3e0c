"""Scoring a finished hand (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .rules import Rules
from .tiles import pip_total

Reason = Literal["domino", "blocked"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a hand ended.

    ``winners``: the seats of the winning side, the one who went out (or held
    the fewest pips) first; empty for a tied blocked hand.  ``points``: what
    the winning side scores.  ``pips``: each seat's total left in hand.
    """

    winners: tuple[int, ...]
    points: int
    reason: Reason
    pips: tuple[int, ...]

    @property
    def tied(self) -> bool:
        """A blocked hand with a tie at the lowest total: nobody scores."""
        return not self.winners

    def __str__(self) -> str:
        who = "tie" if self.tied else "+".join(map(str, self.winners))
        return f"{self.reason} {who} {self.points}"


def score_domino(rules: Rules, hands: Sequence[int], seat: int) -> RoundResult:
    """``seat`` laid its last tile: its side takes every opposing hand's pips."""
    pips = tuple(map(pip_total, hands))
    sides = rules.seat_sides
    side = sides[seat]
    points = 0
    for s, p in enumerate(pips):
        if sides[s] != side:
            points += p
    winners = (seat, (seat + 2) % 4) if rules.partnerships else (seat,)
    return RoundResult(winners, points, "domino", pips)


def score_blocked(rules: Rules, hands: Sequence[int]) -> RoundResult:
    """Nobody can play: the side with the fewest pips wins, as the preset scores it."""
    pips = tuple(map(pip_total, hands))
    side_pips = [0] * rules.sides
    for seat, side in enumerate(rules.seat_sides):
        side_pips[side] += pips[seat]
    lowest = min(side_pips)
    if side_pips.count(lowest) > 1:
        return RoundResult((), 0, "blocked", pips)
    side = side_pips.index(lowest)
    if rules.blocked_scoring == "all":
        points = sum(pips)
    elif rules.blocked_scoring == "difference":
        points = sum(total - lowest for total in side_pips)
    else:
        points = 0
    winners = tuple(sorted(rules.seats_of(side), key=lambda s: (pips[s], s)))
    return RoundResult(winners, points, "blocked", pips)
