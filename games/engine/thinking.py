"""The engine's heavy work as plain calls on text: a computer player's choice and the
coach's review of a hand.

They take and give back only text, numbers and the engine's own values, so that a
process of their own (``games.thinking``) loads nothing but the engine to run them.
"""

from __future__ import annotations

import time

from .bots import make_bot
from .coach import Review, review_hand
from .match import Match
from .moves import parse_move
from .rules import Rules


def choose(record: str, seat: int, level: str) -> str:
    """The move ``level``'s computer player makes for ``seat`` at the end of the match
    written as ``record`` (``Match.record``): from that seat's view only."""
    match = Match.from_record(record)
    return str(make_bot(level).choose(match.view(seat)))


def review(
    rules: str,
    position: str,
    moves: list[str],
    plies: list[int],
    *,
    seed: int,
    iterations: int,
    budget: float,
) -> list[Review]:
    """Reviews of the decisions ``plies`` of a hand (``rules`` and its initial
    ``position`` as text, its ``moves`` played), in order, until ``budget`` seconds are
    spent (one at least)."""
    parsed, played = Rules.parse(rules), [parse_move(m) for m in moves]
    started = time.perf_counter()
    out: list[Review] = []
    for ply in plies:
        out += review_hand(parsed, position, played, plies=[ply], seed=seed, iterations=iterations)
        if time.perf_counter() - started >= budget:
            break
    return out
