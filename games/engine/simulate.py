"""Play bots against each other and measure them: ``python -m games.engine.simulate``.

Two bot configurations, A and B, play whole matches (to the table's target,
through :class:`~games.engine.match.Match`).  They swap seats every game: in
pairs A holds seats 0+2 in even games and 1+3 in odd ones; otherwise A takes
the even seats in even games and the odd seats in odd ones.  Every game is
reproducible from ``--seed`` and its number, whatever ``--jobs`` is.

A configuration is a level with optional settings, e.g. ``hard``,
``hard:budget_ms=20`` or ``hard:iterations=200,randomness=0.3``.

    python -m games.engine.simulate hard medium --preset domino --players 4 \\
        --hand-size 7 --games 2000 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from .bots import Bot, make_bot
from .match import Match
from .rules import PRESETS, Rules

CONFIG_NAMES = ("A", "B")


@dataclass(frozen=True)
class BotConfig:
    """A bot level and the options it is built with."""

    level: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotConfig:
        """Read ``level`` or ``level:key=value,key=value`` (numbers are read as numbers)."""
        level, _, rest = text.partition(":")
        options = []
        for part in filter(None, rest.split(",")):
            key, sep, raw = part.partition("=")
            if not sep or not key:
                raise ValueError(f"a bot option is written key=value, not {part!r}")
            options.append((key.strip(), _number(raw.strip())))
        config = cls(level.strip(), tuple(options))
        config.build(seed=0)  # refuse an unknown level or option now, not in a worker
        return config

    def build(self, seed: int) -> Bot:
        """A fresh bot of this configuration."""
        return make_bot(self.level, seed=seed, **dict(self.options))

    def __str__(self) -> str:
        options = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.level}:{options}" if options else self.level


def _number(raw: str) -> Any:
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


@dataclass
class GameRecord:
    """One match: who won, the points, each hand and the time of every decision."""

    winner: int | None  # 0 for A, 1 for B, None for a drawn game
    points: tuple[int, int]
    hands: list[tuple[int | None, int]]  # per hand: the winning configuration, points
    times: tuple[list[float], list[float]]  # seconds per decision, per configuration
    choice_times: tuple[list[float], list[float]]  # only decisions with a real choice


def seat_configs(rules: Rules, game: int) -> tuple[int, ...]:
    """Which configuration (0 for A, 1 for B) sits at each seat in game number ``game``."""
    flip = game % 2
    if rules.partnerships:
        return tuple((rules.side_of(seat) + flip) % 2 for seat in range(rules.players))
    return tuple((seat + flip) % 2 for seat in range(rules.players))


def play_game(rules: Rules, configs: Sequence[BotConfig], seed: int, game: int) -> GameRecord:
    """Play match number ``game`` of a run seeded by ``seed``."""
    owners = seat_configs(rules, game)
    bots = [
        configs[owner].build(seed=_derive(seed, game, seat)) for seat, owner in enumerate(owners)
    ]
    match = Match(rules, rng=random.Random(_derive(seed, game, -1)))
    times: tuple[list[float], list[float]] = ([], [])
    choice_times: tuple[list[float], list[float]] = ([], [])
    hands: list[tuple[int | None, int]] = []
    while True:
        hand = match.round
        while not hand.over:
            seat = hand.turn
            view = match.view(seat)  # with the match scores: what a bot may know
            started = time.perf_counter()
            move = bots[seat].choose(view)
            spent = time.perf_counter() - started
            times[owners[seat]].append(spent)
            if len(view.legal_moves) > 1:
                choice_times[owners[seat]].append(spent)
            hand.play(move)
        result = hand.result
        assert result is not None
        hands.append((owners[result.winners[0]] if result.winners else None, result.points))
        if match.over:
            break
        match.next_round()
    points = [0, 0]
    for side, score in enumerate(match.scores):
        points[owners[rules.seats_of(side)[0]]] += score
    winners = match.winners
    return GameRecord(
        winner=owners[winners[0]] if winners else None,
        points=(points[0], points[1]),
        hands=hands,
        times=times,
        choice_times=choice_times,
    )


def _derive(seed: int, game: int, seat: int) -> int:
    """An independent seed per game and seat, the same in every process."""
    return random.Random(f"{seed}/{game}/{seat}").getrandbits(63)


@dataclass
class Summary:
    """The figures of a run, for configurations A and B."""

    rules: Rules
    configs: tuple[BotConfig, BotConfig]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    drawn: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    hands: int = 0
    hand_wins: list[int] = field(default_factory=lambda: [0, 0])
    hand_ties: int = 0
    hand_points: list[int] = field(default_factory=lambda: [0, 0])
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    choice_times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    seconds: float = 0.0

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        if record.winner is None:
            self.drawn += 1
        else:
            self.wins[record.winner] += 1
        for c in (0, 1):
            self.points[c] += record.points[c]
            self.times[c].extend(record.times[c])
            self.choice_times[c].extend(record.choice_times[c])
        for winner, points in record.hands:
            self.hands += 1
            if winner is None:
                self.hand_ties += 1
            else:
                self.hand_wins[winner] += 1
                self.hand_points[winner] += points

    def report(self) -> str:
        """The figures as text."""
        a, b = self.configs
        r = self.rules
        lines = [
            f"table: {r.to_text()}",
            f"A = {a}    B = {b}",
            f"games: {self.games} in {self.seconds:.1f} s",
            f"A wins {self.wins[0]}, loses {self.wins[1]}, ties {self.drawn}",
            "A win rate of decided games: " + _rate(self.wins[0], self.wins[1]),
            f"points per game: A {_per(self.points[0], self.games)}, "
            f"B {_per(self.points[1], self.games)}",
            f"hands: {self.hands} ({_per(self.hands, self.games)} per game); "
            f"A wins {self.hand_wins[0]}, loses {self.hand_wins[1]}, ties {self.hand_ties}",
            "A win rate of decided hands: " + _rate(self.hand_wins[0], self.hand_wins[1]),
            f"points per hand: A {_per(self.hand_points[0], self.hands)}, "
            f"B {_per(self.hand_points[1], self.hands)}",
        ]
        for c, name in enumerate(CONFIG_NAMES):
            lines.append(
                f"decision time {name} ({self.configs[c]}): all {_timing(self.times[c])}; "
                f"with a choice {_timing(self.choice_times[c])}"
            )
        return "\n".join(lines)


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> tuple(round(x, 3) for x in wilson_interval(65, 100))
    (0.553, 0.736)
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(wins: int, losses: int) -> str:
    decided = wins + losses
    if not decided:
        return "- (nothing decided)"
    low, high = wilson_interval(wins, decided)
    return f"{wins / decided:.1%} (95% CI {low:.1%} to {high:.1%}, {decided} decided)"


def _per(total: float, count: int) -> str:
    return f"{total / count:.2f}" if count else "-"


def _timing(seconds: list[float]) -> str:
    if not seconds:
        return "no decisions"
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return (
        f"n={len(ordered)} median {statistics.median(ordered) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms"
    )


def _play_chunk(
    rules: Rules, configs: tuple[BotConfig, BotConfig], seed: int, games: range
) -> list[GameRecord]:
    return [play_game(rules, configs, seed, g) for g in games]


def run(
    rules: Rules,
    configs: tuple[BotConfig, BotConfig],
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
) -> Summary:
    """Play ``games`` matches between the two configurations and sum up."""
    summary = Summary(rules, configs)
    started = time.perf_counter()
    chunks = _chunks(games, jobs)
    if jobs <= 1:
        records: Iterator[list[GameRecord]] = (
            _play_chunk(rules, configs, seed, chunk) for chunk in chunks
        )
        for batch in records:
            _add_all(summary, batch, progress, games)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, rules, configs, seed, c) for c in chunks]
            for future in futures:
                _add_all(summary, future.result(), progress, games)
    summary.seconds = time.perf_counter() - started
    return summary


def _chunks(games: int, jobs: int) -> list[range]:
    size = max(1, min(50, games // max(1, jobs * 4)))
    return [range(start, min(games, start + size)) for start in range(0, games, size)]


def _add_all(summary: Summary, batch: list[GameRecord], progress: bool, games: int) -> None:
    for record in batch:
        summary.add(record)
    if progress:
        print(
            f"... {summary.games}/{games} games, A {summary.wins[0]} B {summary.wins[1]}",
            file=sys.stderr,
            flush=True,
        )


def table_rules(args: argparse.Namespace) -> Rules:
    """The table the options describe: the preset with the settings given."""
    changes: dict[str, Any] = {}
    if args.players is not None:
        changes["players"] = args.players
    if args.hand_size is not None:
        changes["hand_size"] = args.hand_size
    if args.teams is not None:
        changes["teams"] = args.teams == "yes"
    if args.draw is not None:
        changes["draw"] = args.draw == "yes"
    if args.target is not None:
        changes["target"] = None if args.target == "single" else int(args.target)
    return replace(PRESETS[args.preset], **changes)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.simulate",
        description="Play matches between two bot configurations and print the figures.",
    )
    parser.add_argument("a", nargs="?", default="hard", help="configuration A (default hard)")
    parser.add_argument("b", nargs="?", default="medium", help="configuration B (default medium)")
    parser.add_argument("--games", type=int, default=100, help="matches to play (default 100)")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="domino")
    parser.add_argument("--players", type=int, choices=(2, 3, 4))
    parser.add_argument("--hand-size", type=int, choices=(5, 7))
    parser.add_argument("--teams", choices=("yes", "no"))
    parser.add_argument("--draw", choices=("yes", "no"))
    parser.add_argument("--target", help="match target in points, or 'single'")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    args = parser.parse_args(argv)
    try:
        rules = table_rules(args)
        configs = (BotConfig.parse(args.a), BotConfig.parse(args.b))
    except ValueError as error:
        parser.error(str(error))
    if args.games < 1:
        parser.error("--games must be at least 1")
    summary = run(
        rules, configs, args.games, seed=args.seed, jobs=args.jobs, progress=args.progress
    )
    print(summary.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
