"""Exact play of a hand's end, on one deal where every tile is known.

Late in a hand few tiles are left and the whole game tree is small: instead of
a random play-out, the hard bot plays each sampled deal out perfectly, every
side choosing what is best for it (the bot's side maximises its result, the
others minimise it).  Drawing is forced, so with the pile's order known the
tree has no chance nodes.  Positions met twice are solved once.
"""

from __future__ import annotations

from collections.abc import Callable

from ..playout import BLOCKED
from ..rules import Rules
from ..tiles import HIGH, LOW, SUIT, indices

Score = Callable[[list[int], int], float]
Key = tuple[tuple[int, ...], int, int, int, int, int]


class EndgameSolver:
    """Exact values of positions for ``seat``'s side, by a ``score`` of finished hands.

    ``score(hands, outcome)`` is given the final hands and the seat that went
    out (or ``BLOCKED``).  One solver serves one decision; its table of solved
    positions is cleared with :meth:`new_deal` for each sampled deal.
    """

    def __init__(self, rules: Rules, seat: int, score: Score) -> None:
        self.players = rules.players
        self.maximising = tuple(side == rules.side_of(seat) for side in rules.seat_sides)
        self.draw = rules.draw
        self.score = score
        self.nodes = 0
        self._solved: dict[Key, float] = {}

    def new_deal(self) -> None:
        """Forget the positions solved for the previous deal."""
        self._solved.clear()

    def value(self, hands: list[int], left: int, right: int, turn: int, pile: list[int]) -> float:
        """The value with ``turn`` to move on ends ``left``/``right``; ``hands`` and
        ``pile`` (next to draw last) are restored before returning."""
        return self._value(hands, left, right, turn, pile, 0)

    def _value(
        self, hands: list[int], left: int, right: int, turn: int, pile: list[int], stuck: int
    ) -> float:
        self.nodes += 1
        low, high = (left, right) if left <= right else (right, left)
        key = (tuple(hands), low, high, turn, len(pile), stuck)
        known = self._solved.get(key)
        if known is not None:
            return known
        held = hands[turn]
        open_suits = SUIT[left] | SUIT[right]
        hand = held
        fits = hand & open_suits
        taken: list[int] = []
        if not fits and self.draw:
            while pile:
                i = pile.pop()
                taken.append(i)
                hand |= 1 << i
                if open_suits >> i & 1:
                    fits = 1 << i
                    break
        following = turn + 1 if turn + 1 < self.players else 0
        if not fits:
            hands[turn] = hand
            if stuck + 1 == self.players:
                result = self.score(hands, BLOCKED)
            else:
                result = self._value(hands, left, right, following, pile, stuck + 1)
        else:
            result = self._best(hands, hand, fits, left, right, turn, following, pile)
        hands[turn] = held
        if taken:
            pile.extend(reversed(taken))
        self._solved[key] = result
        return result

    def _best(
        self,
        hands: list[int],
        hand: int,
        fits: int,
        left: int,
        right: int,
        turn: int,
        following: int,
        pile: list[int],
    ) -> float:
        maximising = self.maximising[turn]
        best = 0.0
        found = False
        for i in indices(fits):
            a, b = HIGH[i], LOW[i]
            rest = hand ^ (1 << i)
            hands[turn] = rest
            for end_left, end_right in _placements(a, b, left, right):
                if rest:
                    value = self._value(hands, end_left, end_right, following, pile, 0)
                else:
                    value = self.score(hands, turn)
                if not found or (value > best if maximising else value < best):
                    best, found = value, True
        return best


def _placements(a: int, b: int, left: int, right: int) -> list[tuple[int, int]]:
    """The ends after laying tile ``a|b``, on each end it fits (once if both ends match)."""
    options = []
    if a == left or b == left:
        options.append((b if a == left else a, right))
    if (a == right or b == right) and left != right:
        options.append((left, b if a == right else a))
    return options
