"""Exact play of a hand's end, on one deal where every tile is known.

Late in a hand few tiles are left and the whole game tree is small: instead of
a random play-out, the hard bot plays each sampled deal out perfectly, every
side choosing what is best for it (the bot's side maximises its result, the
others minimise it).  Drawing is forced, so with the pile's order known the
tree has no chance nodes.  Positions met twice are solved once.  The moves are
made and taken back on the sampled :class:`~games.engine.round.Round` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..moves import _PLAYS, Play
from ..round import Round
from ..rules import Rules
from ..tiles import indices

#: score(hands, outcome): a finished hand's worth, from its hand masks and
#: :attr:`Round.outcome` (the seat that went out, or ``BLOCKED``).
Score = Callable[[Sequence[int], int], float]
Key = tuple[tuple[int, ...], int, int, int, int]


class EndgameSolver:
    """Exact values of positions for ``seat``'s side, by a ``score`` of finished hands.

    One solver serves one decision; its table of solved positions is cleared
    with :meth:`new_deal` for each sampled deal.
    """

    def __init__(self, rules: Rules, seat: int, score: Score) -> None:
        self.maximising = tuple(side == rules.side_of(seat) for side in rules.seat_sides)
        self.score = score
        self.nodes = 0
        self._solved: dict[Key, float] = {}

    def new_deal(self) -> None:
        """Forget the positions solved for the previous deal."""
        self._solved.clear()

    def value(self, r: Round) -> float:
        """The value of ``r``'s position; ``r`` is as it was when this returns."""
        self.nodes += 1
        outcome = r.outcome
        if outcome is not None:
            return self.score(r.hand_masks(), outcome)
        left, right = r.left_end, r.right_end
        low, high = (left, right) if left <= right else (right, left)
        key = (r.hand_masks(), low, high, r.turn, r.boneyard_count)
        known = self._solved.get(key)
        if known is not None:
            return known
        on_left, on_right = r.fitting_ends()
        fits = on_left | on_right
        if not fits:  # a draw or a pass: forced
            r.push(r.stuck_move())
            result = self.value(r)
            r.pop()
        else:
            maximising = self.maximising[r.turn]
            best: float | None = None
            for i in indices(fits):
                for play in _placements(i, on_left, on_right, left == right):
                    r.push(play)
                    value = self.value(r)
                    r.pop()
                    if best is None or (value > best if maximising else value < best):
                        best = value
            assert best is not None
            result = best
        self._solved[key] = result
        return result


def _placements(i: int, on_left: int, on_right: int, same_ends: bool) -> tuple[Play, ...]:
    """Tile ``i`` laid on each end it fits (once when both ends show the same number)."""
    if on_left >> i & 1:
        return _PLAYS[i] if on_right >> i & 1 and not same_ends else _PLAYS[i][:1]
    return _PLAYS[i][1:]
