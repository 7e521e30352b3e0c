"""The hard bot's exact endgame agrees with a plain search through checked plays."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings

from games.engine import Round, Rules
from games.engine.bots.endgame import EndgameSolver
from games.engine.bots.value import margin_scorer

from .strategies import seeds, tables

BONUS = 10.0


def _result_for(r: Round, seat: int) -> float:
    """The finished hand's worth to ``seat``'s side, from the referee's own result."""
    result = r.result
    assert result is not None
    if not result.winners:
        return 0.0
    rules = r.rules
    gain = (result.points if rules.target is not None else 0) + (
        BONUS if rules.target is not None else 1.0
    )
    if rules.side_of(result.winners[0]) == rules.side_of(seat):
        return gain
    return -gain / (rules.sides - 1)


def _minimax(r: Round, seat: int) -> float:
    """Every legal move tried through the referee; ``seat``'s side maximises."""
    if r.over:
        return _result_for(r, seat)
    values = []
    for move in r.legal_moves():
        twin = r.copy()
        twin.play(move)
        values.append(_minimax(twin, seat))
    mine = r.rules.side_of(r.turn) == r.rules.side_of(seat)
    return max(values) if mine else min(values)


def _left_to_play(r: Round) -> int:
    return sum(len(h) for h in r.hands) + (len(r.boneyard) if r.rules.draw else 0)


@settings(max_examples=80, deadline=None)
@given(tables, seeds)
def test_the_endgame_value_is_the_exact_minimax_value(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    r = Round.deal(rules, rng=rng, dealer=rng.randrange(rules.players))
    while not r.over and _left_to_play(r) > 9:
        r.play(rng.choice(r.legal_moves()))
    assume(not r.over and r.ends is not None)
    seat = r.turn
    solver = EndgameSolver(rules, seat, margin_scorer(rules, seat, BONUS))
    before = r.position(), r.log
    assert solver.value(r) == _minimax(r.copy(), seat)
    assert (r.position(), r.log) == before  # the solver leaves the round as it found it
