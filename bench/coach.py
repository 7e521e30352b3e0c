"""The coach's speed and what its marks mean, on 4-player, 7-tile hands (pairs, no
boneyard) played by medium bots, which stand in for club players.

For each hand: the time to review every decision of all four seats (the worst case,
a table of four people) and of one seat, at the coach's ``ITERATIONS``, on one core;
the share of decisions with a choice whose loss passes each threshold; and, on a few
hands reviewed twice with different seeds, how far a loss moves from seed to seed.

    python bench/coach.py [--hands N] [--noise-hands M]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, Round, make_bot
from games.engine.coach import BLUNDER, INACCURACY, ITERATIONS, MISTAKE, review_hand

RULES = replace(PRESETS["domino"], players=4, hand_size=7)


def played_hand(seed: int) -> Round:
    r = Round.deal(RULES, rng=random.Random(seed))
    bot = make_bot("medium")
    while not r.over:
        r.play(bot.choose(r.view(r.turn)))
    return r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--noise-hands", type=int, default=8)
    args = parser.parse_args()
    whole, one_seat, losses, noise = [], [], [], []
    reasons: dict[str, int] = {}
    for n in range(args.hands):
        r = played_hand(1000 + n)
        start = time.perf_counter()
        reviews = review_hand(RULES, r.initial_position, r.moves, seed=n)
        whole.append(time.perf_counter() - start)
        start = time.perf_counter()
        review_hand(RULES, r.initial_position, r.moves, seats=[n % 4], seed=n)
        one_seat.append(time.perf_counter() - start)
        chosen = [x for x in reviews if x.choices > 1]
        losses += [x.loss for x in chosen]
        for x in chosen:
            if x.mark:
                reasons[x.reason] = reasons.get(x.reason, 0) + 1
        if n < args.noise_hands:
            again = review_hand(RULES, r.initial_position, r.moves, seed=n + 7919)
            noise += [a.loss - b.loss for a, b in zip(reviews, again, strict=True) if a.choices > 1]
    decisions = len(losses)
    print(f"{args.hands} hands, {ITERATIONS} sampled deals a decision, one core")
    print(
        f"review of a whole hand (4 people): median {statistics.median(whole):.2f} s, "
        f"max {max(whole):.2f} s"
    )
    print(
        f"review of one person's moves:     median {statistics.median(one_seat):.2f} s, "
        f"max {max(one_seat):.2f} s"
    )
    print(f"decisions with a choice: {decisions} ({decisions / args.hands:.1f} a hand)")
    for name, threshold in (("inaccuracy", INACCURACY), ("mistake", MISTAKE), ("blunder", BLUNDER)):
        share = sum(x >= threshold for x in losses) / decisions
        print(f"  loss >= {threshold:>4} ({name}): {share:6.1%}")
    for t in (2, 4, 5, 10, 20):
        print(f"  loss >= {t:>4}: {sum(x >= t for x in losses) / decisions:6.1%}")
    if noise:
        print(
            f"seed to seed, same decision: sd {statistics.pstdev(noise):.2f} points, "
            f"largest {max(map(abs, noise)):.2f} ({len(noise)} decisions)"
        )
    print("reasons of the marked moves:", dict(sorted(reasons.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
