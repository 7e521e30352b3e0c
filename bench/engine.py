"""Engine speed: random legal games played to the end, per second, on one core.

Each way of playing is a column, all measured in the same run, every game a
uniformly random legal move each turn (no random number drawn for a forced one)
and its result scored (``RoundResult``: the old ``Round`` and the play-out
score every hand, so the newer columns read ``result`` too):
- ``Round``: the public API a search uses: ``Round.deal``, then ``legal_moves()``
  and ``push(move)`` (unchecked) until the hand ends;
- ``play()``: the same with ``play(move)``, the checked entry the site uses;
- with ``--rev <commit>``, the engine of that commit (``git archive``, imported
  beside this one under another name): its ``Round`` through its own public API
  (``play`` before there was ``push``) and, if it has one, the bots' old mask
  play-out (``playout.random_hand``), from its sources: with ``--rev HEAD``, this
  checkout compiled (``make setup``) against its own sources.
The columns run in short bursts, one after the other in a rotating order, so
that all see the same machine (it is shared and noisy): each figure is the
median of the repeats and each ratio the median of the paired ratios.

    python bench/engine.py [--games N] [--repeats R] [--rev COMMIT]
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games.engine  # noqa: E402

TABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "4p domino (pairs, 7 tiles)": ("domino", {"players": 4, "hand_size": 7}),
    "2p duello": ("duello", {}),
    "3p domino (7 tiles)": ("domino", {"players": 3}),
}

Runner = Callable[[str, int, random.Random], None]


def pushing(engine: ModuleType) -> Runner:
    """Random games through ``deal``, ``legal_moves`` and ``push`` (``play`` if none)."""
    round_class = engine.Round
    checked = not hasattr(round_class, "push")

    def run(table: str, games: int, rng: random.Random) -> None:
        rules = rules_of(engine, table)
        deal = round_class.deal
        uniform = rng.random
        for _ in range(games):
            r = deal(rules, rng=rng)
            make = r.play if checked else r.push
            moves = r.legal_moves()
            while moves:
                make(moves[0] if len(moves) == 1 else moves[int(uniform() * len(moves))])
                moves = r.legal_moves()
            _ = r.result  # scored, as the play-out scores its hands

    return run


def playing(engine: ModuleType) -> Runner:
    """Random games through ``deal``, ``legal_moves`` and the checked ``play``."""

    def run(table: str, games: int, rng: random.Random) -> None:
        rules = rules_of(engine, table)
        uniform = rng.random
        for _ in range(games):
            r = engine.Round.deal(rules, rng=rng)
            moves = r.legal_moves()
            while moves:
                r.play(moves[0] if len(moves) == 1 else moves[int(uniform() * len(moves))])
                moves = r.legal_moves()
            _ = r.result

    return run


def playing_out(engine: ModuleType, playout: ModuleType) -> Runner:
    """Random hands through the old mask play-out of the bots (``random_hand``)."""

    def run(table: str, games: int, rng: random.Random) -> None:
        rules = rules_of(engine, table)
        for _ in range(games):
            playout.random_hand(rules, rng)

    return run


def rules_of(engine: ModuleType, table: str) -> Any:
    preset, changes = TABLES[table]
    return replace(engine.PRESETS[preset], **changes)


def engine_at(rev: str, folder: Path) -> ModuleType:
    """The engine package of commit ``rev``, imported as ``engine_at_rev``."""
    archive = subprocess.run(
        ["git", "archive", rev, "games/engine"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "games" / "engine").rename(folder / "engine_at_rev")
    sys.path.insert(0, str(folder))
    return importlib.import_module("engine_at_rev")


def rate(run: Runner, table: str, games: int, seed: int) -> float:
    """Games per second for one burst."""
    rng = random.Random(seed)
    start = time.perf_counter()
    run(table, games, rng)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000, help="games per burst")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--rev", help="also measure the engine of this commit")
    parser.add_argument("--table", choices=TABLES, action="append", help="default: all")
    args = parser.parse_args()
    print(f"this checkout's engine: {'compiled' if games.engine.COMPILED else 'its sources'}")
    with tempfile.TemporaryDirectory() as folder:
        columns: dict[str, Runner] = {
            "Round": pushing(games.engine),
            "play()": playing(games.engine),
        }
        if args.rev:
            old = engine_at(args.rev, Path(folder))
            columns[f"Round@{args.rev}"] = pushing(old)
            if (Path(folder) / "engine_at_rev" / "playout.py").exists():
                playout = importlib.import_module("engine_at_rev.playout")
                columns[f"play_out@{args.rev}"] = playing_out(old, playout)
        measure(columns, args.table or list(TABLES), args.games, args.repeats)


def measure(columns: dict[str, Runner], tables: list[str], games: int, repeats: int) -> None:
    names = list(columns)
    others = names[1:]
    width = max(map(len, names)) + 10
    header = f"{'table':<28}" + "".join(f"{n:>{width}}" for n in names)
    header += "".join(f"{'Round / ' + n:>{width}}" for n in others)
    print(f"{header}   games/s, median of {repeats} alternating bursts of {games}")
    for table in tables:
        rates: dict[str, list[float]] = {n: [] for n in names}
        for seed in range(repeats):
            # A rotating order: no column always runs right after another.
            for k in range(len(names)):
                name = names[(seed + k) % len(names)]
                rates[name].append(rate(columns[name], table, games, seed))
        line = f"{table:<28}"
        line += "".join(f"{statistics.median(rates[n]):>{width},.0f}" for n in names)
        for n in others:
            paired = zip(rates["Round"], rates[n], strict=True)
            line += f"{statistics.median(a / b for a, b in paired):>{width - 1}.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
