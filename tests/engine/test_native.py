"""The engine compiled by ``make setup`` (``tools/build_engine.py``) and its sources.

The compiled modules must play exactly as their sources (the offline game runs the
sources under Pyodide), and a source edited since the build must run as written.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import games.engine
from games.engine import native
from games.engine import round as round_module

ROOT = Path(__file__).resolve().parents[2]

# Whole matches with their every move: hard (a fixed number of deals: deterministic
# for its seed) against medium, in duello and four players in pairs.
MATCHES = """
import random, sys
import games.engine
from games.engine import Match, PRESETS, make_bot
from dataclasses import replace

print("compiled" if games.engine.COMPILED else "sources")
for rules in (PRESETS["duello"], replace(PRESETS["domino"], players=4, hand_size=7)):
    for game in range(2):
        bots = [make_bot("hard", seed=10 * game + s, iterations=40) if s % 2 == game
                else make_bot("medium", seed=s) for s in range(rules.players)]
        match = Match(rules, rng=random.Random(game))
        while not match.over:
            hand = match.round
            while not hand.over:
                hand.play(bots[hand.turn].choose(match.view(hand.turn)))
            if not match.over:
                match.next_round()
        print(match.record())
"""


def run(args: list[str], *, sources: bool) -> str:
    env = {**os.environ, native.SOURCES_ONLY: "1" if sources else "0"}
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_the_set_up_runs_the_engine_compiled() -> None:
    assert games.engine.COMPILED, "make setup did not compile the engine (tools/build_engine.py)"
    assert not round_module.__file__.endswith(".py")


def test_the_compiled_bots_play_every_move_as_their_sources() -> None:
    compiled, sources = run(["-c", MATCHES], sources=False), run(["-c", MATCHES], sources=True)
    assert compiled.splitlines()[0] == "compiled" and sources.splitlines()[0] == "sources"
    assert compiled.splitlines()[1:] == sources.splitlines()[1:]
    assert compiled.count("moves=") >= 8  # several hands of each match were played


def test_the_engine_sources_pass_the_engine_tests_and_doctests() -> None:
    # The compiled modules' doctests cannot be read from their extension modules
    # (conftest.py leaves them out): they run here, on the sources, with the rest.
    pytest_args = ["-m", "pytest", "-q", "games/engine", "tests/engine"]
    out = run([*pytest_args, "--ignore", "tests/engine/test_native.py"], sources=True)
    assert " passed" in out and "failed" not in out


def test_a_source_edited_since_the_build_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / "native.sha256"
    stale.write_text("0" * 64 + "\n")
    monkeypatch.setattr(native, "MANIFEST", stale)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.delenv(native.SOURCES_ONLY, raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert native.use_current() is False
    assert "make setup" in str(caught[0].message)
    spec = sys.meta_path[0].find_spec("games.engine.round", None)
    assert spec is not None and spec.origin == str(ROOT / "games/engine/round.py")
    assert sys.meta_path[0].find_spec("games.engine.tiles", None) is None  # never compiled
