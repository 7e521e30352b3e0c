"""A match: hands in sequence until a side reaches the target (docs/rules.md §4).

>>> import random
>>> from .rules import PRESETS
>>> m = Match(PRESETS["blocco"], rng=random.Random(3))
>>> while not m.round.over:
...     m.round.play(m.round.legal_moves()[0])
>>> m.over, Match.from_record(m.record()).record() == m.record()
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .moves import parse_move
from .round import Round
from .rules import Rules
from .view import PlayerView


class Match:
    """Hands dealt in turn, scores per side, and the winner.

    The dealer moves one seat to the left each hand.  Under
    ``next_opener="previous_winner"`` the previous hand's winner opens the next
    with any tile; after a tied hand the highest-double rule applies again.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        rng: random.Random | None = None,
        dealer: int = 0,
        rounds: Sequence[Round] = (),
    ) -> None:
        self.rules = rules
        self._rng = rng
        for earlier in rounds[:-1]:
            if not earlier.over:
                raise ValueError("only the last hand of a match can be in progress")
        self.rounds: list[Round] = list(rounds) or [Round.deal(rules, rng=rng, dealer=dealer)]

    @property
    def round(self) -> Round:
        """The current (last) hand."""
        return self.rounds[-1]

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per side (per seat, or per pair: side 0 is seats 0+2)."""
        return self._scores(self.rounds)

    @property
    def scores_before_hand(self) -> tuple[int, ...]:
        """Points per side before the current hand (what is at stake in it)."""
        return self._scores(self.rounds[:-1])

    def _scores(self, rounds: Sequence[Round]) -> tuple[int, ...]:
        totals = [0] * self.rules.sides
        for r in rounds:
            if r.result is not None and r.result.winners:
                totals[self.rules.side_of(r.result.winners[0])] += r.result.points
        return tuple(totals)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know of the current hand, with the match scores before it.

        >>> import random
        >>> from .rules import PRESETS
        >>> m = Match(PRESETS["duello"], rng=random.Random(3))
        >>> m.view(0).match_scores
        (0, 0)
        """
        return self.round.view(seat, match_scores=self.scores_before_hand)

    @property
    def over(self) -> bool:
        """A side has reached the target, or the single hand is over."""
        if self.rules.target is None:
            return self.round.over
        return max(self.scores) >= self.rules.target

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats of the side that won; empty while playing or for a drawn single hand."""
        if not self.over:
            return ()
        if self.rules.target is None:
            result = self.round.result
            return result.winners if result else ()
        scores = self.scores
        return self.rules.seats_of(scores.index(max(scores)))

    def ranks(self) -> tuple[int, ...]:
        """Each seat's final rank, 1 the best, once the match is over.

        Sides are ranked by match points (partners share their side's rank,
        equal sides share a rank: 1, 1, 3).  In single-hand play the hand's
        winners rank first and the others follow by the pips left in hand,
        fewest first; a drawn hand ranks everybody first.

        >>> import random
        >>> from .rules import PRESETS
        >>> m = Match(PRESETS["blocco"], rng=random.Random(3))  # 2 players, one hand
        >>> while not m.round.over:
        ...     m.round.play(m.round.legal_moves()[0])
        >>> str(m.round.result), m.ranks()
        ('domino 0 15', (1, 2))
        """
        if not self.over:
            raise ValueError("the match is not over yet")
        rules = self.rules
        if rules.target is None:
            result = self.round.result
            assert result is not None
            if not result.winners:
                return (1,) * rules.players
            winning = rules.side_of(result.winners[0])
            pips = [0] * rules.sides
            for seat, p in enumerate(result.pips):
                pips[rules.side_of(seat)] += p
            # The winning side first, then the others by pips, fewest first.
            keys = [(side != winning, pips[side]) for side in range(rules.sides)]
        else:
            keys = [(False, -points) for points in self.scores]
        side_rank = [1 + sum(other < key for other in keys) for key in keys]
        return tuple(side_rank[rules.side_of(seat)] for seat in range(rules.players))

    def next_deal(self) -> tuple[int, int | None]:
        """The dealer of the next hand, and the seat opening it freely (or None)."""
        previous = self.round
        if previous.result is None:
            raise ValueError("the current hand is not over yet")
        if self.over:
            raise ValueError("the match is over")
        dealer = (previous.dealer + 1) % self.rules.players
        opener = None
        if self.rules.next_opener == "previous_winner" and previous.result.winners:
            opener = previous.result.winners[0]
        return dealer, opener

    def next_round(self) -> Round:
        """Deal the next hand (the current one must be over, the match not)."""
        dealer, opener = self.next_deal()
        self.rounds.append(Round.deal(self.rules, rng=self._rng, dealer=dealer, opener=opener))
        return self.round

    def record(self) -> str:
        """The whole match as text: the rules, then one line per hand,
        its initial position and ``moves=`` (comma-separated, ``-`` for none)."""
        return "\n".join([self.rules.to_text(), *map(hand_line, self.rounds)])

    @classmethod
    def from_record(cls, text: str, *, rng: random.Random | None = None) -> Match:
        """Read :meth:`record` back, replaying every move."""
        first, *hands = text.strip().splitlines()
        rules = Rules.parse(first)
        return cls(rules, rng=rng, rounds=[replay_hand_line(rules, line) for line in hands])


def hand_line(r: Round) -> str:
    """A hand as one line of :meth:`Match.record`: its initial position and ``moves=``."""
    return f"{r.initial_position} moves={','.join(map(str, r.moves)) or '-'}"


def replay_hand_line(rules: Rules, line: str) -> Round:
    """The hand written as ``line`` (:func:`hand_line`), every move replayed."""
    position, sep, moves = line.rpartition(" moves=")
    if not sep:
        raise ValueError(f"a hand's record ends with moves=…: {line!r}")
    played = [] if moves == "-" else [parse_move(m) for m in moves.split(",")]
    return Round.replay(rules, position, played)
