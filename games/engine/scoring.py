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
    if rules.partnerships:
        partner = (seat + 2) % 4
        return RoundResult((seat, partner), sum(pips) - pips[seat] - pips[partner], "domino", pips)
    return RoundResult((seat,), sum(pips) - pips[seat], "domino", pips)


def score_blocked(rules: Rules, hands: Sequence[int]) -> RoundResult:
    """Nobody can play: the side with the fewest pips wins, as the preset scores it."""
    pips = tuple(map(pip_total, hands))
    pairs = rules.partnerships  # seats 0+2 against 1+3
    side_pips = (pips[0] + pips[2], pips[1] + pips[3]) if pairs else pips
    lowest = min(side_pips)
    if side_pips.count(lowest) > 1:
        return RoundResult((), 0, "blocked", pips)
    side = side_pips.index(lowest)
    if rules.blocked_scoring == "all":
        points = sum(pips)
    elif rules.blocked_scoring == "difference":
        points = sum(side_pips) - lowest * len(side_pips)
    else:
        points = 0
    if not pairs:
        return RoundResult((side,), points, "blocked", pips)
    partner = side + 2  # the side's seat with fewer pips first, the lower seat on a tie
    winners = (partner, side) if pips[partner] < pips[side] else (side, partner)
    return RoundResult(winners, points, "blocked", pips)
