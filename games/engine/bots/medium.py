"""Level ``medium``: the rules of thumb of a sound club player.

Each legal play is scored and the best one is laid:

* shed weight: heavy tiles cost the most when the hand is lost or blocked;
* lay doubles early: a double fits only one number, so it strands easily;
* keep variety: do not give up the last tile of a number, and keep tiles
  that fit the ends left open, so the next turn has a play;
* play on the numbers an opponent passed or drew on (they cannot follow);
* do not open a number the partner passed or drew on (they cannot follow).

Optionally (``unseen``, off by default) it counts the tiles: it leaves ends
whose numbers are mostly on the table or in its hand, so that the others are
likely to pass or draw.  That alone makes it nearly as strong as ``hard`` in
duello (docs/bots.md, "`easy` and `medium`"), too close for a middle level.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..moves import Play
from ..tiles import HIGH, LOW, SUIT, VALUE
from ..view import PlayerView
from .base import WeighingBot, ends_after
from .knowledge import Knowledge


@dataclass(frozen=True, slots=True)
class MediumWeights:
    """How much each rule of thumb counts, in points of tile value."""

    value: float = 1.0
    double: float = 4.0
    variety: float = 2.0
    follow: float = 1.5
    rival_stuck: float = 6.0
    rival_short: float = 2.0
    partner_stuck: float = 6.0
    partner_short: float = 2.0
    unseen: float = 0.0  # per tile out of sight showing an open number (2: counting)


class MediumBot(WeighingBot):
    """Lays the play that best serves the rules of thumb above."""

    level = "medium"

    def __init__(
        self, *, seed: int | None = None, weights: MediumWeights | None = None, **changes: float
    ) -> None:
        """``changes``: weights to change by name, e.g. ``unseen=2``."""
        super().__init__(seed=seed)  # unused: this level draws no random numbers
        self.weights = replace(weights or MediumWeights(), **changes)

    def pick(self, view: PlayerView, plays: list[Play]) -> Play:
        """The play with the best score by the rules of thumb."""
        knowledge = Knowledge.from_view(view)
        return max(plays, key=lambda p: (self.score(view, knowledge, p), VALUE[p.tile.index]))

    def score(self, view: PlayerView, knowledge: Knowledge, play: Play) -> float:
        """How good laying ``play`` looks, by the rules of thumb."""
        w = self.weights
        i = play.tile.index
        rest = knowledge.hand & ~(1 << i)
        if not rest:
            return float("inf")  # Domino!
        ends = ends_after(view, play)
        open_suits = SUIT[ends[0]] | SUIT[ends[1]]
        numbers = {n for n in range(7) if rest & SUIT[n]}
        total = w.value * VALUE[i] + w.variety * len(numbers)
        if HIGH[i] == LOW[i]:
            total += w.double
        total += w.follow * min((rest & open_suits).bit_count(), 3)
        rules = view.rules
        me = knowledge.seat
        distinct = set(ends)
        for n in distinct:
            total -= w.unseen * (knowledge.unseen & SUIT[n]).bit_count()
        for seat in range(rules.players):
            if seat == me:
                continue
            blocked = sum(knowledge.cannot_match(seat, n) for n in distinct)
            stuck = blocked == len(distinct)
            if rules.side_of(seat) == rules.side_of(me):
                total -= w.partner_stuck if stuck else w.partner_short * blocked
            else:
                total += w.rival_stuck if stuck else w.rival_short * blocked
        return total
