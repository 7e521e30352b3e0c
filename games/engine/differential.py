"""The same seeded hands on two Pythons, traced ply by ply: ``python -m games.engine.differential``.

The engine runs on the server's CPython 3.11 and under Pyodide in the browser; both
must play alike.  Deal ``n`` is a hand of one of :data:`TABLES` (every preset with
every seating, hand size and drawing choice it offers, in turn), dealt from seeds:
by turns from committed seeds (:mod:`~games.engine.deals`, the site's tables) and by
a seeded ``random.Random`` (:meth:`Round.deal <games.engine.round.Round.deal>`, the
offline game's), with the dealer moving round and, where the winner of a hand opens
the next, every other time a free opening.  Every seat has a seeded bot of each
level, ``hard`` searching a fixed number of deals (no clock in it); the seat's own
level (by turns) is the one whose move is played.  At every ply the trace holds the
position's text, the legal moves in the engine's order and every level's decision;
the hand's result ends it.

The command prints, as JSON, the counts and one digest per deal (the start of the
SHA-256 of its trace): two Pythons agree when these are equal.  ``--trace N`` prints
deal ``N``'s trace instead, to find the first ply where they part.

    python -m games.engine.differential --deals 1000
    python -m games.engine.differential --trace 17

>>> s = summary(2)
>>> s["deals"], s["decisions"] == 3 * s["plies"], len(s["digests"][0])
(2, True, 16)
>>> trace(1)[0].split(" | ")[0].split()[:4]
['deal', '1:', 'blocco', 'players=3']
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from .bots import LEVELS, Bot, make_bot
from .deals import deal
from .round import Round
from .rules import offered_tables

#: Deals the hard bot samples per decision: few, for speed; fixed, so no clock decides.
HARD_ITERATIONS: Final = 12
DIGEST_LENGTH: Final = 16  # hex digits of a deal's SHA-256: 64 bits tell traces apart


#: Every table the site offers, bar the match target (each preset's usual one).
TABLES: Final = tuple(offered_tables())


def dealt(number: int) -> Round:
    """Deal ``number``'s hand, before its first move."""
    rules = TABLES[number % len(TABLES)]
    turn_round = number // len(TABLES)  # how many times the tables came round before
    dealer = number % rules.players
    opener = None
    if rules.next_opener == "previous_winner" and turn_round % 2:
        opener = (dealer + 1) % rules.players
    if turn_round // 2 % 2:
        return Round.deal(rules, rng=random.Random(number), dealer=dealer, opener=opener)
    seed = hashlib.sha256(f"differential:{number}".encode()).hexdigest()
    hands = deal(
        "differential", number + 1, seed, (), players=rules.players, hand_size=rules.hand_size
    )
    return Round.from_hands(
        rules, hands.hands, boneyard=hands.boneyard, dealer=dealer, opener=opener
    )


def _bots(number: int, seat: int) -> dict[str, Bot]:
    bots = {}
    for k, level in enumerate(LEVELS):
        seed = (number * 4 + seat) * len(LEVELS) + k
        options = {"iterations": HARD_ITERATIONS} if level == "hard" else {}
        bots[level] = make_bot(level, seed=seed, **options)
    return bots


def trace(number: int) -> list[str]:
    """Deal ``number`` played out: one line per ply, then the result."""
    r = dealt(number)
    bots = [_bots(number, seat) for seat in range(r.rules.players)]
    lines: list[str] = []
    while not r.over:
        seat = r.turn
        legal = ",".join(map(str, r.legal_moves()))
        view = r.view(seat)
        decisions = {level: bot.choose(view) for level, bot in bots[seat].items()}
        chosen = " ".join(f"{level}={move}" for level, move in decisions.items())
        head = f"deal {number}: {r.rules.to_text()}" if not lines else f"ply {len(lines)}"
        lines.append(f"{head} | {r.position()} | legal={legal} | {chosen}")
        r.play(decisions[LEVELS[(number + seat) % len(LEVELS)]])
    assert r.result is not None
    lines.append(f"result {r.result} pips={r.result.pips}")
    return lines


def summary(count: int, first: int = 0) -> dict[str, Any]:
    """The counts over ``count`` deals from number ``first``, one digest per deal, and
    the seconds it took."""
    started = time.perf_counter()
    digests = []
    plies = 0
    for number in range(first, first + count):
        lines = trace(number)
        plies += len(lines) - 1  # the last line is the result
        digests.append(hashlib.sha256("\n".join(lines).encode()).hexdigest()[:DIGEST_LENGTH])
    return {
        "python": ".".join(map(str, sys.version_info[:3])),
        "platform": sys.platform,
        "first": first,
        "deals": count,
        "plies": plies,
        "legal_move_lists": plies,
        "decisions": plies * len(LEVELS),
        "digests": digests,
        "seconds": time.perf_counter() - started,
    }


def first_difference(ours: Sequence[str], theirs: Sequence[str]) -> int | None:
    """The index of the first entry where two lists (digests, or a trace's lines) part,
    or None when they are equal."""
    for at, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return at
    return None if len(ours) == len(theirs) else min(len(ours), len(theirs))


def difference(
    ours: Mapping[str, Any], theirs: Mapping[str, Any], their_trace: Callable[[int], list[str]]
) -> str | None:
    """Where two Pythons' summaries of the same deals part, in words; None if nowhere.

    The first deal whose digests differ, traced here and there (``their_trace(n)``:
    deal ``n``'s trace on the other Python), and its first differing line, both ways.
    """
    at = first_difference(ours["digests"], theirs["digests"])
    if at is None:
        return None
    number = ours["first"] + at
    here, there = trace(number), their_trace(number)
    ply = first_difference(here, there)
    if ply is None:
        return f"deal {number}: the digests differ, the traces do not"

    def line(lines: list[str], python: str) -> str:
        return f"  {python}: {lines[ply] if ply < len(lines) else '(the trace has ended)'}"

    return "\n".join(
        (
            f"deal {number} ({TABLES[number % len(TABLES)].to_text()}) parts here:",
            line(here, ours["python"]),
            line(there, theirs["python"]),
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.differential",
        description="Trace seeded hands ply by ply and print their digests as JSON.",
    )
    parser.add_argument("--deals", type=int, default=len(TABLES), help="how many deals")
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--trace", type=int, help="print this deal's trace instead")
    args = parser.parse_args(argv)
    if args.trace is not None:
        print(json.dumps(trace(args.trace)))
    else:
        print(json.dumps(summary(args.deals, args.first)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
