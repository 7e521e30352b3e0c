"""The most any player can win against ``easy`` on a single hand of blocco.

``easy`` lays a legal move uniformly at random.  A player who sees every hand
and knows that is the strongest player there can be against it: on each deal
its best play is found exactly (expectimax, ``easy``'s moves averaged over its
legal moves), and when it holds two seats they play together.  No fair player,
who sees only its own hand, can do better.

A share ``r`` of decided hands is within reach if and only if the best expected
``wins - r / (1 - r) * losses`` is at least 0 (the tie counts nothing): that is
what the search maximises, over deals dealt as the simulator deals them, seats
alternated the same way (``games.engine.simulate.seat_configs``).

    python bench/ceiling.py --players 3 --hand-size 5 --deals 40000 --rate 0.8
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, Round
from games.engine.match import Match
from games.engine.rules import Rules
from games.engine.simulate import seat_configs

#: The chance of a win and of a loss from a position, for the seeing player.
Odds = tuple[float, float]


def best_odds(start: Round, seeing: Sequence[bool], rate: float) -> Odds:
    """The seeing seats' win and loss chances when they play to maximise
    ``wins - rate / (1 - rate) * losses`` and the others at random."""
    cost = rate / (1.0 - rate)
    known: dict[tuple[object, ...], Odds] = {}
    r = start.copy()

    def odds() -> Odds:
        if r.over:
            result = r.result
            assert result is not None
            if not result.winners:
                return (0.0, 0.0)
            return (1.0, 0.0) if seeing[result.winners[0]] else (0.0, 1.0)
        # Blocked hands end at once, so the hands, the ends and the turn are the position.
        key = (r.hand_masks(), r.left_end, r.right_end, r.turn)
        if key in known:
            return known[key]
        after = []
        for move in r.legal_moves():
            r.push(move)
            after.append(odds())
            r.pop()
        if seeing[r.turn]:
            found = max(after, key=lambda o: o[0] - cost * o[1])
        else:
            found = (
                math.fsum(o[0] for o in after) / len(after),
                math.fsum(o[1] for o in after) / len(after),
            )
        known[key] = found
        return found

    return odds()


def table(players: int, hand_size: int, teams: bool) -> Rules:
    """Blocco with these seats and tiles (always a single hand, never drawing)."""
    return replace(PRESETS["blocco"], players=players, hand_size=hand_size, teams=teams)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--hand-size", type=int, default=5)
    parser.add_argument("--teams", action="store_true", help="four players in pairs")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.8, help="the share of decided hands asked")
    args = parser.parse_args(argv)
    if not 0.0 < args.rate < 1.0:
        parser.error(f"--rate is a share of decided hands, between 0 and 1, not {args.rate}")
    rules = table(args.players, args.hand_size, args.teams)
    cost = args.rate / (1.0 - args.rate)
    wins = losses = 0.0
    margins = []
    for deal in range(args.deals):
        seeing = [owner == 0 for owner in seat_configs(rules, deal)]
        hand = Match(rules, rng=random.Random(args.seed * 1_000_003 + deal)).round
        won, lost = best_odds(hand, seeing, args.rate)
        wins += won
        losses += lost
        margins.append(won - cost * lost)
    mean = statistics.fmean(margins)
    half_width = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))  # 95%
    print(
        f"blocco, {rules.players} players, {rules.hand_size} tiles: {args.deals} deals; "
        f"decided hands won {wins / (wins + losses):.1%} "
        f"(wins {wins / args.deals:.3f}, losses {losses / args.deals:.3f}); "
        f"best wins - {cost:g} x losses: {mean:.4f} +- {half_width:.4f} "
        f"({args.rate:.0%} is {'within' if mean >= 0 else 'beyond'} reach on these deals)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
