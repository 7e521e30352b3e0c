"""Engine speed: random legal games played to the end, per second, on one core.

Two ways of playing the same rules, measured in the same run:
- ``Round`` — the referee the site uses: legal_moves(), play(move) with checks, the log;
- ``play_out`` — the mask-based play-out the hard bot searches with.
Each figure is the median of several repeats, the two ways interleaved so that
both see the same machine (it is shared and noisy); the ratio is the median of
the paired ratios.

    python bench/engine.py [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, Round, Rules
from games.engine.playout import random_hand

TABLES: dict[str, Rules] = {
    "2p duello": PRESETS["duello"],
    "4p domino (pairs, 7 tiles)": replace(PRESETS["domino"], players=4, hand_size=7),
    "3p domino (7 tiles)": replace(PRESETS["domino"], players=3),
}


def referee_games(rules: Rules, games: int, rng: random.Random) -> None:
    for _ in range(games):
        r = Round.deal(rules, rng=rng)
        while not r.over:
            moves = r.legal_moves()
            r.play(moves[int(rng.random() * len(moves))])


def play_out_games(rules: Rules, games: int, rng: random.Random) -> None:
    for _ in range(games):
        random_hand(rules, rng)


Runner = Callable[[Rules, int, random.Random], None]


def rate(run: Runner, rules: Rules, games: int, seed: int) -> float:
    """Games per second for one burst."""
    rng = random.Random(seed)
    start = time.perf_counter()
    run(rules, games, rng)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5_000, help="play-outs per repeat")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    header = f"{'table':<28} {'Round (referee)':>16} {'play_out':>12} {'ratio':>7}"
    print(f"{header}   games/s, median of {args.repeats} interleaved repeats")
    for name, rules in TABLES.items():
        referee, fast = [], []
        # Alternate the two in short bursts so both see the same machine: the
        # ratio of each pair stays steady when a neighbour takes the core.
        for seed in range(args.repeats):
            referee.append(rate(referee_games, rules, args.games // 4, seed))
            fast.append(rate(play_out_games, rules, args.games, seed))
        ratio = statistics.median(f / r for f, r in zip(fast, referee, strict=True))
        print(
            f"{name:<28} {statistics.median(referee):>16,.0f} "
            f"{statistics.median(fast):>12,.0f} {ratio:>6.1f}x"
        )


if __name__ == "__main__":
    main()
