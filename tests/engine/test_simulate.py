"""The benchmark command: plays whole matches between two bot configurations."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from games.engine import PRESETS
from games.engine.simulate import BotConfig, main, play_game, run, seat_configs, wilson_interval

PAIRS = replace(PRESETS["domino"], players=4, hand_size=7)
ROOT = Path(__file__).resolve().parents[2]


def test_the_command_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["medium", "easy", "--preset", "duello", "--games", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "A = medium    B = easy" in out
    wins = re.search(r"A wins (\d+), loses (\d+), ties (\d+)", out)
    assert wins and sum(map(int, wins.groups())) == 6
    assert re.search(r"A win rate of decided games: [\d.]+% \(95% CI [\d.]+% to [\d.]+%", out)
    assert re.search(r"points per game: A [\d.]+, B [\d.]+", out)
    assert re.search(r"hands: \d+ \([\d.]+ per game\)", out)
    assert re.search(r"points per hand: A [\d.]+, B [\d.]+", out)
    for name in ("A (medium)", "B (easy)"):
        assert re.search(rf"decision time {re.escape(name)}: all n=\d+ median [\d.]+ ms, p99", out)


def test_the_module_runs_from_the_command_line_on_a_table_of_pairs() -> None:
    command = [sys.executable, "-m", "games.engine.simulate", "hard:iterations=4", "easy"]
    table = ["--players", "4", "--hand-size", "7", "--target", "50", "--games", "2"]
    out = subprocess.run(
        [*command, *table],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    assert "domino players=4 hand_size=7" in out and "target=50" in out
    assert "A = hard:iterations=4    B = easy" in out


def test_bad_settings_are_refused_before_playing(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["expert", "easy"])
    assert "unknown bot level 'expert'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["hard:budget=5", "easy"])
    assert "bad option for the hard bot" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["easy", "easy", "--preset", "duello", "--players", "3"])
    assert "duello is played by 2 players" in capsys.readouterr().err


def test_configurations_swap_seats_every_game() -> None:
    assert seat_configs(PAIRS, 0) == (0, 1, 0, 1)
    assert seat_configs(PAIRS, 1) == (1, 0, 1, 0)
    duello = PRESETS["duello"]
    assert seat_configs(duello, 0) == (0, 1) and seat_configs(duello, 1) == (1, 0)


def test_a_game_is_a_whole_match_reproducible_from_the_seed() -> None:
    configs = (BotConfig.parse("medium"), BotConfig.parse("easy"))
    first = play_game(PAIRS, configs, seed=5, game=3)
    again = play_game(PAIRS, configs, seed=5, game=3)
    assert (first.winner, first.points, first.hands) == (again.winner, again.points, again.hands)
    assert max(first.points) >= PAIRS.target  # played to the target
    assert first.winner == first.points.index(max(first.points))
    assert sum(p for w, p in first.hands if w == first.winner) == max(first.points)


def test_several_processes_give_the_same_figures_as_one() -> None:
    configs = (BotConfig.parse("medium"), BotConfig.parse("easy"))
    one = run(PRESETS["duello"], configs, 8, seed=2)
    two = run(PRESETS["duello"], configs, 8, seed=2, jobs=2)
    assert (one.wins, one.points, one.hand_wins) == (two.wins, two.points, two.hand_wins)
    assert sum(one.wins) + one.drawn == 8


def test_a_single_hand_table_plays_one_hand_a_game_and_a_tie_is_a_drawn_game() -> None:
    blocco = PRESETS["blocco"]
    summary = run(blocco, (BotConfig.parse("easy"), BotConfig.parse("easy")), 60, seed=1)
    assert summary.hands == 60  # one hand per game
    assert summary.drawn == summary.hand_ties
    assert sum(summary.wins) + summary.drawn == 60


def test_the_confidence_interval_narrows_with_more_games() -> None:
    low, high = wilson_interval(65, 100)
    assert low < 0.65 < high
    wide = high - low
    low, high = wilson_interval(1300, 2000)
    assert low < 0.65 < high and high - low < wide / 4
    assert wilson_interval(0, 0) == (0.0, 1.0)
