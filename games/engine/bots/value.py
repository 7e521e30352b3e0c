"""What a finished play-out is worth to the searching seat's side.

Two ways to count, both relative to the others: the result against each other
side, averaged over them (a rival's gain counts ``1 / (sides - 1)`` of it).

- The hand's margin (:func:`margin_scorer`): the points the side scores, or
  minus those a rival scores, plus a bonus for winning the hand; a single-hand
  table counts the win alone.
- What the hand does to the match (:func:`match_scorer`), once the match scores
  are known: a hand that carries a side to the target is a whole match won or
  lost, whatever its points (points past the target are worth nothing); any
  other hand counts its margin, as above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..round import BLOCKED
from ..rules import Rules
from ..tiles import pip_total
from .endgame import Score

#: A won hand on a single-hand table, in points (see :func:`points_per_unit`).
WIN_POINTS = 40.0

#: (winning side, the points it scores) of a finished hand; the side is None for a tie.
HandWinner = Callable[[Sequence[int], int], tuple[int | None, int]]


def hand_winner(rules: Rules) -> HandWinner:
    """Who won a finished hand and its points, as :mod:`~games.engine.scoring` scores it
    (from masks, without building a result)."""
    sides = rules.seat_sides
    side_count = rules.sides
    blocked_scoring = rules.blocked_scoring
    rivals = [tuple(s for s in range(rules.players) if sides[s] != sides[w]) for w in sides]
    members = [rules.seats_of(side) for side in range(side_count)]

    def winner(hands: Sequence[int], outcome: int) -> tuple[int | None, int]:
        if outcome != BLOCKED:
            points = 0
            for s in rivals[outcome]:
                points += pip_total(hands[s])
            return sides[outcome], points
        totals = [sum(pip_total(hands[s]) for s in seats) for seats in members]
        lowest = min(totals)
        if totals.count(lowest) > 1:
            return None, 0
        if blocked_scoring == "all":
            points = sum(totals)
        elif blocked_scoring == "difference":
            points = sum(totals) - lowest * side_count
        else:
            points = 0
        return totals.index(lowest), points

    return winner


def margin_scorer(rules: Rules, seat: int, win_bonus: float) -> Score:
    """The hand's margin for ``seat``'s side (see the module docstring)."""
    mine = rules.side_of(seat)
    share = 1.0 / (rules.sides - 1)
    scored = rules.target is not None
    bonus = win_bonus if scored else 1.0
    winner_of = hand_winner(rules)

    def score(hands: Sequence[int], outcome: int) -> float:
        winner, points = winner_of(hands, outcome)
        if winner is None:
            return 0.0
        gain = (points if scored else 0) + bonus
        return gain if winner == mine else -gain * share

    return score


def match_scorer(rules: Rules, seat: int, win_bonus: float, match_scores: Sequence[int]) -> Score:
    """What the hand does to the match for ``seat``'s side, from the match scores
    before it (see the module docstring); a single-hand table has no target and
    counts its margin."""
    target = rules.target
    if target is None:
        return margin_scorer(rules, seat, win_bonus)
    mine = rules.side_of(seat)
    share = 1.0 / (rules.sides - 1)
    match_win = target + win_bonus  # a whole match's points: more than any margin short of it
    needs = [target - points for points in match_scores]  # points each side lacks
    winner_of = hand_winner(rules)

    def score(hands: Sequence[int], outcome: int) -> float:
        winner, points = winner_of(hands, outcome)
        if winner is None:
            return 0.0
        if points >= needs[winner]:  # the match is over
            return match_win if winner == mine else -match_win * share
        gain = points + win_bonus
        return gain if winner == mine else -gain * share

    return score


def points_per_unit(rules: Rules) -> float:
    """What one unit of a :func:`margin_scorer` result is worth in points.

    With a target the result is in points already.  A single-hand table counts
    a won hand as 1 and a lost one as minus 1 (shared among the rival sides), so
    a change of result is ``1 + share`` times a change in the chance of winning;
    a won hand counts as :data:`WIN_POINTS` there, about what one is worth at a
    table played to a target, so that a threshold in points (the coach's marks,
    the tree search's exploration) means the same share of a hand on every table:
    10 in a hundred more hands lost is 4 points.
    """
    if rules.target is not None:
        return 1.0
    return WIN_POINTS / (1.0 + 1.0 / (rules.sides - 1))
