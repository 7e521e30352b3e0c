"""The engine runs on the server's Python 3.11 and on Pyodide's 3.14 in the browser:
the same package, imported and played on both (Pyodide under Node here, as the
offline page's worker runs it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from games.engine import differential

from .conftest import tool

#: Deals traced on both Pythons: every table the site offers four times over, dealt from
#: committed seeds and from a seeded generator, each with and without a free opening
#: (the benchmark, bench/offline_engine.py, compares 1,000).
DEALS = 4 * len(differential.TABLES)

#: A whole match by the engine's own bots, and a table drawn by the browser's glue.
SCRIPT = """
import json, random, sys
from games.engine import PRESETS, Match, make_bot
rules = PRESETS["domino"]
match = Match(rules, rng=random.Random(7))
bots = [make_bot("medium", seed=1), make_bot("easy", seed=2)]
while not match.over:
    r = match.round
    if r.over:
        match.next_round()
        continue
    r.play(bots[r.turn].choose(r.view(r.turn)))
fresh = Match(rules, rng=random.Random(8)).round
hard_move = str(make_bot("hard", seed=3).choose(fresh.view(fresh.turn)))
hard_legal = [str(m) for m in fresh.legal_moves()]
from pathlib import Path
from games.offline import django_shim
django_shim.install()
django_shim.activate("it", Path("/offline/locale"))
from games.offline import app
app.boot("/offline", json.dumps({"home": "/", "rules": "/rules/{}/"}))
frame = json.loads(app.session.start(json.dumps({"preset": "duello", "seating": "2",
    "hand_size": "7", "draw": "yes", "target": "100", "level": "easy"})))
print(json.dumps({"python": sys.version_info[:2], "platform": sys.platform,
    "scores": match.scores, "winners": match.winners, "record": match.record(),
    "hard_move": hard_move, "hard_legal": hard_legal,
    "page": frame["page"]}))
"""


def pyodide_runner() -> ModuleType:
    """tools/run_pyodide.py, when Node is here to run it."""
    runner = tool("run_pyodide")
    if runner.node() is None:
        pytest.skip("node is not installed: Pyodide runs in the browser test only")
    return runner


def test_the_engine_plays_the_same_match_on_pyodide_314_as_on_the_servers_311(
    pyodide_dir: Path, engine_zip: Path
) -> None:
    import random

    from games.engine import PRESETS, Match, make_bot

    output = pyodide_runner().run(SCRIPT, engine_zip, timeout=300)
    browser = json.loads(output.strip().splitlines()[-1])
    assert browser["python"] == [3, 14] and browser["platform"] == "emscripten"
    assert sys.version_info[:2] == (3, 11)
    # the same deals and the same seeded bots: the same match, move for move
    match = Match(PRESETS["domino"], rng=random.Random(7))
    bots = [make_bot("medium", seed=1), make_bot("easy", seed=2)]
    while not match.over:
        r = match.round
        if r.over:
            match.next_round()
            continue
        r.play(bots[r.turn].choose(r.view(r.turn)))
    assert browser["record"] == match.record()
    assert browser["scores"] == list(match.scores) and max(match.scores) >= 100
    # hard searches for as long as its budget lets it: any of the legal moves
    assert browser["hard_move"] in browser["hard_legal"]  # type: ignore[operator]
    # the browser's glue drew the table with the site's live templates, in Italian
    page = str(browser["page"])
    assert 'id="hand"' in page and 'id="board"' in page and "Contro il computer" in page


def differential_under_node(engine_zip: Path, *args: str) -> object:
    """What ``python -m games.engine.differential *args`` prints under Pyodide, read."""
    output = pyodide_runner().run_module(
        "games.engine.differential", *args, engine_zip=engine_zip, timeout=300
    )
    return json.loads(output)


def test_seeded_hands_of_every_table_trace_alike_ply_by_ply_on_pyodide_and_on_the_server(
    pyodide_dir: Path, engine_zip: Path
) -> None:
    browser = differential_under_node(engine_zip, "--deals", str(DEALS))
    server = differential.summary(DEALS)
    assert isinstance(browser, dict)
    assert browser["python"].startswith("3.14.") and browser["platform"] == "emscripten"
    assert browser["deals"] == DEALS and browser["plies"] > 10 * DEALS

    def browser_trace(number: int) -> list[str]:
        lines = differential_under_node(engine_zip, "--trace", str(number))
        assert isinstance(lines, list)
        return lines

    mismatch = differential.difference(server, browser, browser_trace)
    assert mismatch is None, mismatch
    assert browser["plies"] == server["plies"]
