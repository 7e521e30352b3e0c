"""How much a season of matches can tell about players, from the engine alone (no Django).

The cheap estimate before ``bench/ratings.py``: accounts with the same hidden strengths
(``bench.ratings.TIERS``) play rounds of matches; in each round every account plays one
match, seated at random with others at settings drawn from a mix (``MIXES``), played
by the engine (``games.engine.match.Match``) with the accounts' own bots.  The
outcomes are saved (one JSON line per match), then replayed through
``ratings.policy.rate`` at several ``beta`` values and through a plain Elo, to report
the Spearman of the ratings with the hidden strengths after each number of matches,
and the log loss of the pre-match chances (choose ``beta`` by it).

    .venv/bin/python bench/ratings_estimate.py play --mix online --accounts 120 \\
        --rounds 40 --seed 1 --jobs 2 --out bench/results/estimate-online.jsonl
    .venv/bin/python bench/ratings_estimate.py replay bench/results/estimate-online.jsonl \\
        --betas 4.17,6,8,10
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ratings import TIERS, Predictions, elo_chances, elo_update, spearman  # noqa: E402
from games.engine import PRESETS, Rules, make_bot  # noqa: E402
from games.engine.match import Match  # noqa: E402
from ratings import policy  # noqa: E402
from ratings.policy import FORMATS, Entrant, Skill, format_of, rate, win_chances  # noqa: E402


def _rules(preset: str, players: int, hand_size: int, **extra: Any) -> Rules:
    return replace(PRESETS[preset], players=players, hand_size=hand_size, **extra)


#: The settings played, with their weights: a mix per name.
MIXES: dict[str, list[tuple[Rules, float]]] = {
    "blocco": [
        (_rules("blocco", 2, 7), 1.0),
        (_rules("blocco", 3, 5), 1.0),
        (_rules("blocco", 4, 7, teams=True), 1.0),
    ],
    "domino100": [
        (_rules("domino", 2, 7), 1.0),
        (_rules("domino", 3, 7), 1.0),
        (_rules("domino", 4, 7, teams=True), 1.0),
    ],
    "duello100": [(_rules("duello", 2, 7), 1.0)],
    "luciano100": [(_rules("luciano", 2, 7), 1.0)],
}


def online_mix() -> list[tuple[Rules, float]]:
    """The realistic mix: the presets at their lobby defaults (to 100; blocco a single
    hand), in the shares ``bench/ratings.py`` uses (``ONLINE_SETTINGS``)."""
    from bench.ratings import ONLINE_SETTINGS

    return [(rules, weight) for fmt in FORMATS for rules, weight in ONLINE_SETTINGS[fmt]]


def _seed(*parts: object) -> int:
    return random.Random("/".join(map(str, parts))).getrandbits(63)


def play_match(rules: Rules, tiers: Sequence[int], seed: int, hard_ms: int) -> dict[str, Any]:
    """One match of accounts of these hidden strengths (by seat): its ranks and hands."""
    rng = random.Random(seed)
    bots = []
    for seat, tier in enumerate(tiers):
        level, _ = TIERS[tier]
        options = {"budget_ms": hard_ms} if level == "hard" else {}
        bots.append(make_bot(level, seed=_seed(seed, seat), **options))
    match = Match(rules, rng=random.Random(_seed(seed, "deal")))
    hands = 1
    while True:
        hand = match.round
        while not hand.over:
            seat = hand.turn
            view = match.view(seat)
            legal = view.legal_moves
            randomness = TIERS[tiers[seat]][1]
            if len(legal) == 1:
                move = legal[0]
            elif rng.random() < randomness:
                move = rng.choice(list(legal))
            else:
                move = bots[seat].choose(view)
            hand.play(move)
        if match.over:
            break
        match.next_round()
        hands += 1
    return {"ranks": list(match.ranks()), "hands": hands}


def _play_many(jobs: list[tuple[Rules, list[int], int, int]]) -> list[dict[str, Any]]:
    return [play_match(*job) for job in jobs]


def play(args: argparse.Namespace) -> None:
    mix = online_mix() if args.mix == "online" else MIXES[args.mix]
    tiers = [i % len(TIERS) for i in range(args.accounts)]
    rng = random.Random(args.seed)
    out = args.out
    done = 0
    if out.exists():  # resume: the rounds already played are kept
        done = max((json.loads(line)["round"] for line in out.open()), default=-1) + 1
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for r in range(args.rounds):
            order = list(range(args.accounts))
            rng.shuffle(order)
            tables: list[tuple[Rules, list[int]]] = []
            while order:
                rules = rng.choices([m[0] for m in mix], weights=[m[1] for m in mix])[0]
                if len(order) < rules.players:
                    break
                tables.append((rules, [order.pop() for _ in range(rules.players)]))
            if r < done:
                continue  # the same draws as the first run, not played again
            jobs = [
                (rules, [tiers[a] for a in seats], _seed(args.seed, r, i), args.hard_ms)
                for i, (rules, seats) in enumerate(tables)
            ]
            chunks = [jobs[k :: args.jobs] for k in range(args.jobs)]
            results: dict[int, dict[str, Any]] = {}
            for k, found in enumerate(pool.map(_play_many, chunks)):
                for j, result in enumerate(found):
                    results[k + j * args.jobs] = result
            with out.open("a") as f:
                for i, (rules, seats) in enumerate(tables):
                    record = {
                        "round": r,
                        "rules": rules.to_text(),
                        "format": format_of(rules.players, rules.partnerships),
                        "seats": seats,
                        "tiers": [tiers[a] for a in seats],
                        **results[i],
                    }
                    f.write(json.dumps(record) + "\n")
            print(f"round {r + 1}/{args.rounds}: {time.perf_counter() - began:.0f} s", flush=True)


# ---- the replay: ratings from the saved outcomes ----


def side_groups(rules_text: str, seats: Sequence[int], ranks: Sequence[int]) -> list[list[int]]:
    """The seats' indexes by side (partners together), in side order."""
    rules = Rules.parse(rules_text)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(seats)):
        groups[rules.side_of(i)].append(i)
    return [groups[s] for s in sorted(groups)]


def replay(
    records: Sequence[dict[str, Any]],
    beta: float,
    checkpoints: Sequence[int],
    single_beta: float | None = None,
) -> dict[str, Any]:
    """Ratings from the outcomes in order (``beta`` for a match to a target,
    ``single_beta`` for a single hand, by default the same): Spearman per format and
    overall after each checkpoint (matches per account), the pre-match log loss and
    accuracy (apart for single hands: ``format/1``), matches to leave provisional."""
    from openskill.models import PlackettLuce

    models = {False: PlackettLuce(beta=beta), True: PlackettLuce(beta=single_beta or beta)}
    start = Skill(models[False].mu, models[False].sigma)
    skills: dict[tuple[int, str], Skill] = {}
    elo: dict[tuple[int, str], float] = {}
    played: dict[int, int] = defaultdict(int)
    count: dict[tuple[int, str], int] = defaultdict(int)  # matches per account and format
    settled: dict[tuple[int, str], int] = {}  # the match after which it was not provisional
    tier_of: dict[int, int] = {}
    ours: dict[str, Predictions] = defaultdict(Predictions)
    elos: dict[str, Predictions] = defaultdict(Predictions)
    curve: dict[int, dict[str, float]] = {}
    last_round = -1
    todo = sorted(checkpoints)

    def snapshot() -> dict[str, float]:
        found = {}
        for fmt in FORMATS:
            users = sorted(u for (u, f) in skills if f == fmt)
            if len(users) > 2:
                found[fmt] = spearman(
                    [skills[(u, fmt)].mu for u in users], [tier_of[u] for u in users]
                )
        users = sorted(tier_of)
        mean = [statistics.fmean(skills.get((u, f), start).mu for f in FORMATS) for u in users]
        found["all"] = spearman(mean, [tier_of[u] for u in users])
        pooled = [statistics.fmean(elo.get((u, f), 1500.0) for f in FORMATS) for u in users]
        found["elo_all"] = spearman(pooled, [tier_of[u] for u in users])
        return found

    for record in records:
        if record["round"] != last_round:
            if todo and last_round >= 0 and min(played.values()) >= todo[0]:
                curve[todo.pop(0)] = snapshot()
            last_round = record["round"]
        fmt, seats, ranks = record["format"], record["seats"], record["ranks"]
        single = "target=single" in record["rules"]
        model = models[single]
        for a, t in zip(seats, record["tiers"], strict=True):
            tier_of[a] = t
            played[a] += 1
        groups = side_groups(record["rules"], seats, ranks)
        side_skills = [[skills.get((seats[i], fmt), start) for i in g] for g in groups]
        side_elo = [statistics.fmean(elo.get((seats[i], fmt), 1500.0) for i in g) for g in groups]
        side_ranks = [ranks[g[0]] for g in groups]
        if side_ranks.count(1) == 1:
            winner = side_ranks.index(1)
            ours[fmt].add(win_chances(side_skills, model), winner)
            elos[fmt].add(elo_chances(side_elo), winner)
            ours[f"{fmt}/1" if single else f"{fmt}/100"].add(
                win_chances(side_skills, model), winner
            )
        entrants = [
            Entrant(seat=i, side=s, rank=side_ranks[s], skill=side_skills[s][k])
            for s, g in enumerate(groups)
            for k, i in enumerate(g)
        ]
        for i, new in rate(entrants, model).items():
            skills[(seats[i], fmt)] = new
            count[(seats[i], fmt)] += 1
            if new.sigma <= policy.PROVISIONAL_SIGMA and (seats[i], fmt) not in settled:
                settled[(seats[i], fmt)] = count[(seats[i], fmt)]
        for s, change in enumerate(elo_update(side_elo, side_ranks)):
            for i in groups[s]:
                elo[(seats[i], fmt)] = elo.get((seats[i], fmt), 1500.0) + change
    if todo and min(played.values()) >= todo[0]:
        curve[todo.pop(0)] = snapshot()
    curve[min(played.values())] = snapshot()
    by_tier: dict[int, list[float]] = defaultdict(list)
    for (u, _f), skill in skills.items():
        by_tier[tier_of[u]].append(skill.mu)
    return {
        "beta": beta,
        "curve": curve,
        "openskill": {
            f: (round(p.log_loss, 3), round(p.accuracy, 3), len(p.chances)) for f, p in ours.items()
        },
        "elo": {
            f: (round(p.log_loss, 3), round(p.accuracy, 3), len(p.chances)) for f, p in elos.items()
        },
        "tier_mu": {t: round(statistics.fmean(v), 2) for t, v in sorted(by_tier.items())},
        "to_settle": {
            f: statistics.median([n for (_, g), n in settled.items() if g == f] or [math.nan])
            for f in FORMATS
        },
    }


def replay_main(args: argparse.Namespace) -> None:
    records = [json.loads(line) for line in args.file.open()]
    hands = statistics.fmean(r["hands"] for r in records)
    print(f"{args.file}: {len(records)} matches, {hands:.2f} hands a match")
    for betas in args.betas.split(","):
        beta, _, single = betas.partition("/")
        checkpoints = [int(c) for c in args.checkpoints.split(",")]
        found = replay(records, float(beta), checkpoints, float(single) if single else None)
        print(f"beta {betas} (a match to a target / a single hand)")
        for n, figures in sorted(found["curve"].items()):
            print(
                f"  after {n} matches each: "
                + ", ".join(f"{k} {v:.3f}" for k, v in figures.items())
            )
        for fmt in sorted(found["openskill"]):
            o, e = found["openskill"][fmt], found["elo"].get(fmt, (math.nan,) * 3)
            print(
                f"  {fmt}: log loss {o[0]:.3f} acc {o[1]:.1%} (n {o[2]}) "
                f"| Elo {e[0]:.3f} {e[1]:.1%}"
            )
        print(f"  mean mu by hidden strength: {found['tier_mu']}")
        print(f"  matches to leave provisional (median): {found['to_settle']}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("play")
    p.add_argument("--mix", choices=[*MIXES, "online"], required=True)
    p.add_argument("--accounts", type=int, default=120)
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hard-ms", type=int, default=20)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    r = commands.add_parser("replay")
    r.add_argument("file", type=Path)
    r.add_argument("--betas", default=str(25 / 6), help="e.g. 4.1667,12,4.1667/25 (single hands)")
    r.add_argument("--checkpoints", default="5,10,20,30,40,60")
    args = parser.parse_args(argv)
    if args.command == "play":
        play(args)
    else:
        replay_main(args)


if __name__ == "__main__":
    main()
