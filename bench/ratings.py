"""A season of rated online play, simulated through the site's own services (no HTTP).

Simulated accounts with hidden strengths (the engine's computer players mixed with
random moves at fixed rates, ``TIERS``) join the real pools (``queue_join``), are
seated by the real pairing (its waves and fills run as the worker would, from
their deadline rows), and play every move through ``move_submit``; the match's end
rates it as on the site.  Time is a simulated clock (``django.utils.timezone.now``
is the bench's own), so nothing sleeps.  The accounts play what people choose in the
online lobby (``ONLINE_SETTINGS``: domino, duello and luciano to 100, blocco's single
hands, a few popular settings per format so that each pool fills; ``--settings
blocco`` for single hands only), the next hand dealt by its countdown.  It reports:

- the rank correlation (Spearman) of the final ratings with the hidden strengths;
- how well the ratings before each match predicted its winner (log loss, accuracy),
  beside a plain Elo on the same matches;
- how many matches a new player takes to leave provisional;
- the median wait in the pools with and without pairing by skill (the same arrivals
  and the season's final ratings, tables ended at once);
- the fixed rating of each simulated players' level (the pure computer accounts').

    .venv/bin/python bench/ratings.py [--accounts 300] [--matches 30] [--seed 1]
        [--hard-ms 20] [--settings online|blocco] [--progress FILE]
        [--json bench/results/ratings.json]

A Spearman of 0.9 takes ``--matches 100`` (about 70 minutes of one core:
docs/ratings.md); the JSON also lists each account's final ratings.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The hidden strengths, weakest first: a computer level and the share of its
#: moves replaced by a random legal move.  Each step is surely stronger than the
#: one before (``easy`` is itself a random legal move).
TIERS: tuple[tuple[str, float], ...] = (
    ("easy", 0.0),
    ("medium", 0.75),
    ("medium", 0.5),
    ("medium", 0.25),
    ("medium", 0.0),
    ("hard", 0.0),
)
#: Each simulated player's think-and-play time for a hand, and the pause after a match (s).
HAND_SECONDS = (40.0, 90.0)
PAUSE_SECONDS = (0.0, 60.0)
#: A plain Elo on the same matches: its step, and the scale of its differences.
ELO_K, ELO_SCALE = 24.0, 400.0


def _settings(preset: str, players: int, hand_size: int, teams: bool | None = None) -> Any:
    from games.engine import PRESETS

    return replace(PRESETS[preset], players=players, hand_size=hand_size, teams=teams)


#: What the simulated accounts play online, per rating format: a few popular settings
#: (so that each pool fills), the presets as the lobby offers them (domino, duello and
#: luciano to 100, their own target; blocco a single hand), with the share of that
#: format's matches each gets (docs/ratings.md says why).
ONLINE_SETTINGS: dict[str, list[tuple[Any, float]]] = {
    "duel": [
        (_settings("domino", 2, 7), 0.35),
        (_settings("duello", 2, 7), 0.25),
        (_settings("luciano", 2, 7), 0.15),
        (_settings("blocco", 2, 7), 0.25),
    ],
    "free": [
        (_settings("domino", 3, 7), 0.65),
        (_settings("blocco", 3, 5), 0.35),
    ],
    "pairs": [
        (_settings("domino", 4, 7, teams=True), 0.7),
        (_settings("blocco", 4, 7, teams=True), 0.3),
    ],
}
#: The previous season's settings: blocco, a single hand, in each format.
BLOCCO_SETTINGS: dict[str, list[tuple[Any, float]]] = {
    "duel": [(_settings("blocco", 2, 7), 1.0)],
    "free": [(_settings("blocco", 3, 5), 1.0)],
    "pairs": [(_settings("blocco", 4, 7, teams=True), 1.0)],
}
SETTINGS = {"online": ONLINE_SETTINGS, "blocco": BLOCCO_SETTINGS}
#: A match longer than this many moves is a bench bug (duello to 300 is about 200).
MOVES_AT_MOST = 3000


# ---- pure figures (bench/tests/test_ratings.py) ----


def ranks_of(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's on the ranks, ties averaged)."""
    rx, ry = ranks_of(xs), ranks_of(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    var = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return cov / var if var else 0.0


def elo_chances(sides: Sequence[float]) -> list[float]:
    """Each side's chance of winning under Elo (Luce's rule for more than two)."""
    weights = [10 ** (r / ELO_SCALE) for r in sides]
    return [w / sum(weights) for w in weights]


def elo_update(sides: Sequence[float], ranks: Sequence[int]) -> list[float]:
    """Each side's rating change: every pair of sides scored as a game, K shared out."""
    n = len(sides)
    change = [0.0] * n
    for i in range(n):
        for j in range(n):
            if i != j:
                expected = 1 / (1 + 10 ** ((sides[j] - sides[i]) / ELO_SCALE))
                score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                change[i] += ELO_K / (n - 1) * (score - expected)
    return change


@dataclass
class Predictions:
    """Pre-match chances given to the side that won, and whether it was the favourite."""

    chances: list[float] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)

    def add(self, chances: Sequence[float], winner: int) -> None:
        self.chances.append(chances[winner])
        self.right.append(max(range(len(chances)), key=lambda i: chances[i]) == winner)

    @property
    def log_loss(self) -> float:
        return statistics.fmean(-math.log(max(p, 1e-12)) for p in self.chances)

    @property
    def accuracy(self) -> float:
        return sum(self.right) / len(self.right)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def choose_settings(choices: Sequence[tuple[Any, float]], rng: random.Random) -> Any:
    """One of a format's settings, drawn by its share."""
    return rng.choices([c[0] for c in choices], weights=[c[1] for c in choices])[0]


def settings_label(rules: Any) -> str:
    """Settings in a few words: ``domino 4 in pairs to 100``, ``blocco 3 single hand``."""
    seats = f"{rules.players} in pairs" if rules.partnerships else f"{rules.players}"
    to = f"to {rules.target}" if rules.target else "single hand"
    return f"{rules.preset} {seats} {to}"


def busy_seconds(hands: float, rng: random.Random) -> float:
    """How long a player is away from the pools after a match of ``hands`` hands."""
    return sum(rng.uniform(*HAND_SECONDS) for _ in range(round(hands))) + rng.uniform(
        *PAUSE_SECONDS
    )


# ---- the season, through the site ----


def setup(folder: str) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="domino_site.settings",
        DATABASE_URL=f"sqlite:///{folder}/ratings.sqlite3",
        GAME_CLOCK_ENABLED="0",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="bench-only-" + "x" * 40,
    )
    os.environ.pop("REDIS_URL", None)
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    # nobody watches a simulated season: no group messages (each one handed to the
    # in-memory layer's loop took a thread handoff, a sixth of the season's time)
    settings.CHANNEL_LAYERS = {}
    call_command("migrate", verbosity=0)


class Clock:
    """The simulated time every service reads (``timezone.now`` is replaced by it)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Account:
    user: Any
    tier: int
    bot: Any
    randomness: float
    rng: random.Random
    left: dict[str, int]
    ready_at: datetime

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < self.randomness:
            return self.rng.choice(list(legal))
        return self.bot.choose(view)


def make_accounts(n: int, matches: int, seed: int, hard_ms: int, clock: Clock) -> list[Account]:
    from accounts.models import User
    from games.engine import make_bot
    from ratings.policy import FORMATS

    per_format = -(-matches // len(FORMATS))
    accounts = []
    for i in range(n):
        tier = i % len(TIERS)
        level, randomness = TIERS[tier]
        options = {"budget_ms": hard_ms} if level == "hard" else {}
        user = User.objects.create(username=f"sim{i:04d}")
        accounts.append(
            Account(
                user=user,
                tier=tier,
                bot=make_bot(level, seed=seed * 10_000 + i, **options),
                randomness=randomness,
                rng=random.Random(seed * 7919 + i),
                left=dict.fromkeys(FORMATS, per_format),
                ready_at=clock.now + timedelta(seconds=random.Random(seed + i).uniform(0, 90)),
            )
        )
    return accounts


def run_pool_deadlines(clock: Clock) -> None:
    """The worker's step for the pools alone (what a table's deadlines do is played out)."""
    from deadlines.models import Deadline
    from deadlines.services import apply
    from matchmaking.kinds import POOL_FILL, POOL_WAVE

    while True:
        due = list(
            Deadline.objects.filter(
                kind__in=[POOL_FILL, POOL_WAVE], due_at__lte=clock.now, parked_at=None
            ).order_by("due_at")
        )
        if not due:
            return
        for deadline in due:
            apply(deadline, now=clock.now)


def play_out(table: Any, by_user: dict[int, Account]) -> int:
    """Every move of the match through the site: people's by ``move_submit``, the
    simulated players' and the next hand's deal by their deadline rows.  Returns the
    number of hands played.  The match is read as the site's pages read it
    (``games.states``: the state the last write left, not the match replayed)."""
    from deadlines.services import apply
    from games import states
    from games.kinds import BOT_MOVE, NEXT_HAND
    from games.models import Table
    from games.services import move_submit

    seats = {s.number: s.user_id for s in table.seats.all()}
    for _ in range(MOVES_AT_MOST):
        state = states.table_state(table.pk)
        if state.table.status == Table.Status.FINISHED:
            return len(state.rounds)
        current = state.rounds[-1]
        if current.over:
            if state.rules.target is None:
                raise RuntimeError(f"table {table.code}: the hand is over, the match is not")
            deadline = table.deadlines.get(kind=NEXT_HAND)  # the countdown to the next hand
            apply(deadline, now=deadline.due_at)
            continue
        user_id = seats[current.turn]
        if user_id is None:  # a simulated player's move, as the worker makes it
            deadline = table.deadlines.get(kind=BOT_MOVE)
            apply(deadline, now=deadline.due_at)
            continue
        account = by_user[user_id]
        move = account.choose(state.match().view(current.turn), current.legal_moves())
        move_submit(table_id=table.pk, user=account.user, move=str(move), version=state.version)
    raise RuntimeError(f"table {table.code} did not finish")


@dataclass
class Season:
    matches: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    fills: int = 0
    openskill: dict[str, Predictions] = field(default_factory=lambda: defaultdict(Predictions))
    elo: dict[str, Predictions] = field(default_factory=lambda: defaultdict(Predictions))
    draws: int = 0
    waits: list[float] = field(default_factory=list)
    #: Per settings (their text): the hands of each match played at them.
    hands: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))

    def mean_hands(self, rules: Any) -> float:
        played = self.hands.get(rules.to_text())
        return statistics.fmean(played) if played else 1.0


def score_match(table: Any, season: Season, elo: dict[tuple[int, str], float]) -> None:
    """The pre-match predictions of the match that just ended, and Elo's update."""
    from games.models import SeatResult
    from ratings.models import RatingChange
    from ratings.policy import FILLER_SKILL, Skill, format_of, model_for, win_chances

    fmt = format_of(table.players, table.teams)
    results = list(SeatResult.objects.filter(table=table).order_by("seat"))
    before = {
        c.seat: Skill(c.mu_before, c.sigma_before) for c in RatingChange.objects.filter(table=table)
    }
    levels = {s.number: s.bot_level for s in table.seats.all()}
    sides = sorted({r.side for r in results})
    members = {s: [r for r in results if r.side == s] for s in sides}
    skills = [
        [before.get(r.seat) or FILLER_SKILL[levels[r.seat]] for r in members[s]] for s in sides
    ]

    def elo_of(r: Any) -> float:
        if r.user_id is None:
            return FILLER_SKILL[levels[r.seat]].shown
        return elo.setdefault((r.user_id, fmt), 1500.0)

    side_elo = [statistics.fmean(elo_of(r) for r in members[s]) for s in sides]
    ranks = [members[s][0].rank for s in sides]
    season.matches[fmt] += 1
    season.fills += table.fillers > 0
    if ranks.count(1) == 1:
        winner = ranks.index(1)
        season.openskill[fmt].add(win_chances(skills, model_for(table.target)), winner)
        season.elo[fmt].add(elo_chances(side_elo), winner)
    else:
        season.draws += 1
    for s, change in zip(sides, elo_update(side_elo, ranks), strict=True):
        for r in members[s]:
            if r.user_id is not None:
                elo[(r.user_id, fmt)] += change


def seat_waits(table: Any) -> list[float]:
    from matchmaking.models import Ticket

    return [
        (t.ended_at - t.joined_at).total_seconds()
        for t in Ticket.objects.filter(table=table, status=Ticket.Status.SEATED)
    ]


def season_run(
    accounts: list[Account],
    clock: Clock,
    rng: random.Random,
    settings: dict[str, list[tuple[Any, float]]],
    progress: Path | None = None,
) -> Season:
    from games.models import Table
    from matchmaking.models import Ticket
    from matchmaking.services import queue_join

    began, reported = time.perf_counter(), 0
    by_user = {a.user.pk: a for a in accounts}
    season, elo = Season(), {}
    waiting: set[int] = set()
    while any(sum(a.left.values()) for a in accounts) or waiting:
        clock.now += timedelta(seconds=1)
        for a in accounts:
            if a.user.pk in waiting or a.ready_at > clock.now or not sum(a.left.values()):
                continue
            formats = [f for f, n in a.left.items() if n]
            fmt = rng.choices(formats, weights=[a.left[f] for f in formats])[0]
            a.left[fmt] -= 1
            queue_join(user=a.user, rules=choose_settings(settings[fmt], rng))
            waiting.add(a.user.pk)
        run_pool_deadlines(clock)
        for table in Table.objects.filter(mode=Table.Mode.ONLINE, status=Table.Status.PLAYING):
            season.waits += seat_waits(table)
            hands = play_out(table, by_user)
            table.refresh_from_db()
            season.hands[table.rules.to_text()].append(hands)
            score_match(table, season, elo)
            for user_id in table.seats.exclude(user=None).values_list("user_id", flat=True):
                waiting.discard(user_id)
                by_user[user_id].ready_at = clock.now + timedelta(seconds=busy_seconds(hands, rng))
        played = sum(season.matches.values())
        if progress is not None and played >= reported + 100:  # a checkpoint to follow
            reported = played
            with progress.open("a") as f:
                f.write(
                    f"{played} matches, {time.perf_counter() - began:.0f} s, "
                    f"simulated {clock.now:%H:%M}\n"
                )
        waiting &= set(
            Ticket.objects.filter(status=Ticket.Status.WAITING).values_list("user_id", flat=True)
        )
    return season


def waits_run(
    accounts: list[Account],
    clock: Clock,
    seed: int,
    skill: bool,
    minutes: int,
    season: Season,
    choices: dict[str, list[tuple[Any, float]]],
) -> list[float]:
    """The pools alone for ``minutes``: the same arrivals as the season's pace (a
    match as long as the season's at its settings), the season's final ratings, each
    table ended as soon as it is seated."""
    from django.conf import settings

    from games.models import Table
    from matchmaking.services import queue_join
    from ratings.policy import FORMATS

    settings.MATCHMAKING_SKILL_PAIRING = skill
    rng = random.Random(seed)
    start = clock.now
    ready = {a.user.pk: start + timedelta(seconds=rng.uniform(0, 90)) for a in accounts}
    waits: list[float] = []
    busy: set[int] = set()
    while clock.now < start + timedelta(minutes=minutes):
        clock.now += timedelta(seconds=1)
        for a in accounts:
            if a.user.pk not in busy and ready[a.user.pk] <= clock.now:
                queue_join(user=a.user, rules=choose_settings(choices[rng.choice(FORMATS)], rng))
                busy.add(a.user.pk)
        run_pool_deadlines(clock)
        for table in Table.objects.filter(mode=Table.Mode.ONLINE, status=Table.Status.PLAYING):
            waits += seat_waits(table)
            Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)  # bench only
            hands = season.mean_hands(table.rules)
            for user_id in table.seats.exclude(user=None).values_list("user_id", flat=True):
                busy.discard(user_id)
                ready[user_id] = clock.now + timedelta(seconds=busy_seconds(hands, rng))
    settings.MATCHMAKING_SKILL_PAIRING = True
    return waits


def to_leave_provisional(accounts: list[Account]) -> dict[str, float]:
    """The median number of matches after which a new player's rating was settled."""
    from ratings.models import RatingChange
    from ratings.policy import FORMATS

    found: dict[str, list[int]] = defaultdict(list)
    for a in accounts:
        for fmt in FORMATS:
            flags = RatingChange.objects.filter(user=a.user, format=fmt).order_by("id")
            flags_list = list(flags.values_list("provisional_after", flat=True))
            settled = next((i + 1 for i, p in enumerate(flags_list) if not p), None)
            if settled is not None:
                found[fmt].append(settled)
    return {fmt: statistics.median(v) if v else math.nan for fmt, v in found.items()}


def results_share(accounts: list[Account]) -> list[float]:
    """Each account's share of the matches it won (a draw half): the raw results, to
    see how well any rating could rank the players from this many matches."""
    from ratings.models import RatingChange

    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    shares = []
    for a in accounts:
        outcomes = RatingChange.objects.filter(user=a.user).values_list("outcome", flat=True)
        shares.append(statistics.fmean(score[o] for o in outcomes) if outcomes else 0.5)
    return shares


class Final(NamedTuple):
    """An account's rating in a format at the season's end."""

    mu: float
    sigma: float
    matches: int


def final_ratings() -> dict[str, dict[int, Final]]:
    """Each account's final rating per format, by user id."""
    from ratings.models import Rating

    found: dict[str, dict[int, Final]] = defaultdict(dict)
    rows = Rating.objects.values_list("user_id", "format", "mu", "sigma", "matches")
    for user_id, fmt, mu, sigma, matches in rows:
        found[fmt][user_id] = Final(mu, sigma, matches)
    return found


def account_ratings(
    accounts: list[Account], finals: dict[str, dict[int, Final]]
) -> list[dict[str, Any]]:
    """Each account's hidden strength and final rating per format (mu, sigma, matches):
    in the JSON, so that other ways of ranking can be read off one season."""
    rows = []
    for a in accounts:
        row: dict[str, Any] = {"tier": a.tier}
        for fmt, found in finals.items():
            if (final := found.get(a.user.pk)) is not None:
                row[fmt] = [round(final.mu, 3), round(final.sigma, 3), final.matches]
        rows.append(row)
    return rows


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=300)
    parser.add_argument("--matches", type=int, default=30, help="rated matches per account")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard-ms", type=int, default=20, help="the hard level's budget per move")
    parser.add_argument("--wait-minutes", type=int, default=15)
    parser.add_argument(
        "--settings",
        choices=sorted(SETTINGS),
        default="online",
        help="online: the lobby's popular settings (ONLINE_SETTINGS); blocco: single hands",
    )
    parser.add_argument("--progress", type=Path, help="append a line every 100 matches here")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.accounts < 2 * len(TIERS):
        parser.error(f"--accounts: at least {2 * len(TIERS)}, two of each hidden strength")
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        return run(args)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from django.utils import timezone

    from games.engine import Rules
    from ratings.policy import FORMATS, display

    clock = Clock()
    timezone.now = clock  # type: ignore[assignment]  # the simulated time, for every service
    began = time.perf_counter()
    accounts = make_accounts(args.accounts, args.matches, args.seed, args.hard_ms, clock)
    choices = SETTINGS[args.settings]
    season = season_run(accounts, clock, random.Random(args.seed), choices, args.progress)
    played = time.perf_counter() - began
    finals = final_ratings()
    tiers = {a.user.pk: a.tier for a in accounts}
    correlation = {}
    for fmt in FORMATS:
        users = sorted(finals[fmt])
        correlation[fmt] = spearman([finals[fmt][u].mu for u in users], [tiers[u] for u in users])
    everyone = [a.user.pk for a in accounts if all(a.user.pk in finals[f] for f in FORMATS)]
    overall = [statistics.fmean(finals[f][u].mu for f in FORMATS) for u in everyone]
    correlation["all"] = spearman(overall, [tiers[u] for u in everyone])
    correlation["results"] = spearman(results_share(accounts), [a.tier for a in accounts])
    levels = {}
    for level in ("easy", "medium", "hard"):
        tier = TIERS.index((level, 0.0))
        mus = [finals[f][a.user.pk].mu for a in accounts if a.tier == tier for f in FORMATS]
        levels[level] = statistics.fmean(mus)
    provisional = to_leave_provisional(accounts)
    skill_waits = waits_run(accounts, clock, args.seed, True, args.wait_minutes, season, choices)
    fifo_waits = waits_run(accounts, clock, args.seed, False, args.wait_minutes, season, choices)
    figures = {
        "accounts": args.accounts,
        "settings": args.settings,
        "hands": {
            settings_label(Rules.parse(k)): round(statistics.fmean(v), 2)
            for k, v in sorted(season.hands.items())
        },
        "matches": dict(season.matches),
        "filled_rooms": season.fills,
        "draws": season.draws,
        "seconds": round(played),
        "spearman": {k: round(v, 3) for k, v in correlation.items()},
        "openskill": {
            f: {
                "log_loss": round(p.log_loss, 3),
                "accuracy": round(p.accuracy, 3),
                "n": len(p.chances),
            }
            for f, p in season.openskill.items()
        },
        "elo": {
            f: {
                "log_loss": round(p.log_loss, 3),
                "accuracy": round(p.accuracy, 3),
                "n": len(p.chances),
            }
            for f, p in season.elo.items()
        },
        "matches_to_settle": provisional,
        "ratings": account_ratings(accounts, finals),
        "season_wait_median": statistics.median(season.waits),
        "wait_skill": {
            "median": statistics.median(skill_waits),
            "p90": percentile(skill_waits, 0.9),
            "n": len(skill_waits),
        },
        "wait_first_come": {
            "median": statistics.median(fifo_waits),
            "p90": percentile(fifo_waits, 0.9),
            "n": len(fifo_waits),
        },
        "filler_mu": {k: round(v, 2) for k, v in levels.items()},
        "filler_shown": {k: display(v) for k, v in levels.items()},
    }
    print(report(figures))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return figures


def report(f: dict[str, Any]) -> str:
    """The figures as the closing note and docs/ratings.md give them."""
    names = {"duel": "2 players", "free": "each for themselves", "pairs": "4 in pairs"}
    labels = {**names, "all": "all formats (mean mu)", "results": "share of matches won"}
    total = sum(f["matches"].values())
    lines = [
        f"Season: {f['accounts']} accounts, {len(TIERS)} hidden strengths; {total} rated "
        f"matches ({', '.join(f'{names[k]} {v}' for k, v in sorted(f['matches'].items()))}), "
        f"{f['filled_rooms']} with simulated players, {f['draws']} drawn; {f['seconds']} s",
        "Spearman (final rating against hidden strength; goal >= 0.9): "
        + ", ".join(f"{labels[k]} {v:.3f}" for k, v in f["spearman"].items()),
        "Predictions before each decided match: format (matches) | openskill log loss, "
        "accuracy | Elo log loss, accuracy",
    ]
    for fmt in sorted(f["openskill"]):
        o, e = f["openskill"][fmt], f["elo"][fmt]
        lines.append(
            f"  {names[fmt]} ({o['n']}) | {o['log_loss']:.3f}, {o['accuracy']:.1%} | "
            f"{e['log_loss']:.3f}, {e['accuracy']:.1%}"
        )
    lines += [
        "Matches to leave provisional (median): "
        + ", ".join(f"{names[k]} {v:g}" for k, v in sorted(f["matches_to_settle"].items())),
        f"Pool waits, same arrivals and final ratings: skill pairing median "
        f"{f['wait_skill']['median']:g} s (p90 {f['wait_skill']['p90']:g} s), first come first "
        f"seated median {f['wait_first_come']['median']:g} s "
        f"(p90 {f['wait_first_come']['p90']:g} s); season median {f['season_wait_median']:g} s",
        "Simulated players' fixed ratings (pure computer accounts, mean over formats): "
        + ", ".join(f"{k} {v} (mu {f['filler_mu'][k]})" for k, v in f["filler_shown"].items()),
        f"Settings ({f['settings']}), hands a match: "
        + ", ".join(f"{k} {v:g}" for k, v in f["hands"].items()),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
