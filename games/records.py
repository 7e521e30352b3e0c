"""A table's stored hands and moves, replayed into the engine's Match."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine import Match, Round, parse_move

from .models import Hand, Table


def load_match(table: Table, hands: Iterable[Hand] | None = None) -> Match:
    """The table's match, every stored move replayed; None-safe for tables not started."""
    rules = table.rules
    stored = (
        list(hands)
        if hands is not None
        else list(table.hands.prefetch_related("moves").order_by("number"))
    )
    rounds = [
        Round.replay(rules, h.initial_position, [parse_move(m.text) for m in h.moves.all()])
        for h in stored
    ]
    if not rounds:
        raise ValueError("this table has not started")
    return Match(rules, rounds=rounds)
