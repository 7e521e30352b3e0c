"""The engine runs on the server's Python 3.11 and on Pyodide's 3.14 in the browser:
the same package, imported and played on both (Pyodide under Node here, as the
offline page's worker runs it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

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
from games.offline import stand_in
stand_in.install()
stand_in.activate("it", Path("/offline/locale"))
from games.offline import app
app.boot("/offline", json.dumps({"home": "/", "rules": "/rules/{}/"}))
frame = json.loads(app.session.start(json.dumps({"preset": "duello", "seating": "2",
    "hand_size": "7", "draw": "yes", "target": "100", "level": "easy"})))
print(json.dumps({"python": sys.version_info[:2], "platform": sys.platform,
    "scores": match.scores, "winners": match.winners, "record": match.record(),
    "hard_move": hard_move, "hard_legal": hard_legal,
    "page": frame["page"]}))
"""


def run_under_node(pyodide_dir: Path, engine_zip: Path, tmp_path: Path) -> dict[str, object]:
    import json

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: Pyodide runs in the browser test only")
    script = tmp_path / "play.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [node, str(HERE / "run_pyodide.mjs"), str(pyodide_dir), str(engine_zip), str(script)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_engine_plays_the_same_match_on_pyodide_314_as_on_the_servers_311(
    pyodide_dir: Path, engine_zip: Path, tmp_path: Path
) -> None:
    import random

    from games.engine import PRESETS, Match, make_bot

    browser = run_under_node(pyodide_dir, engine_zip, tmp_path)
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
