"""The engine's heavy work as plain calls on text: a computer player's choice and the
coach's review of a hand.

They take and give back only text, numbers and the engine's own values, so that a
process of their own (``games.thinking``) loads nothing but the engine to run them.
"""

from __future__ import annotations

import time

from .bots import make_bot
from .coach import Review, review_hand
from .match import Match, hand_line, replay_hand_line
from .moves import parse_move
from .rules import Rules
from .view import PlayerView


def choose(rules: str, hand: str, scores: tuple[int, ...], seat: int, level: str) -> str:
    """The move ``level``'s computer player makes for ``seat`` in the hand written as
    ``hand`` (a line of ``Match.record``: ``hand_line``), each side having ``scores``
    points before it: from that seat's view only, which tells nothing more of the
    earlier hands.  (Not the whole match: replaying its every hand for each move was
    most of the worker's time for a move late in a match.)"""
    return str(make_bot(level).choose(seat_view(rules, hand, scores, seat)))


def to_choose(match: Match, seat: int, level: str) -> tuple[str, str, tuple[int, ...], int, str]:
    """``choose``'s arguments for ``seat`` in ``match``'s current hand, as text and numbers."""
    return match.rules.to_text(), hand_line(match.round), match.scores_before_hand, seat, level


def seat_view(rules: str, hand: str, scores: tuple[int, ...], seat: int) -> PlayerView:
    """What ``seat`` knows in the hand ``hand`` of a match at ``scores`` (``choose``)."""
    return replay_hand_line(Rules.parse(rules), hand).view(seat, match_scores=scores)


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
