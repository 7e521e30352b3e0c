"""The offline table's glue (games/offline/), on the server's Python as the browser
runs it: with no Django (its translations answered by ``django_shim``), so each case
runs in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = """
import json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from games.offline import django_shim
django_shim.install()
django_shim.activate({language!r}, Path({root!r}) / "locale")
from games.offline import app
ROOT = Path({root!r})
URLS = {{"home": "/", "rules": "/rules/{{}}/"}}
app.boot({root!r}, json.dumps(URLS))
s = app.session
def start(**fields):
    settings = {{"preset": "domino", "seating": "2", "hand_size": "7", "draw": "yes",
                "target": "100", "level": "easy", **fields}}
    return json.loads(s.start(json.dumps(settings)))
def command(**vals):
    return json.loads(s.command(json.dumps(vals)))
def mine():
    return str(s.game.match.round.legal_moves()[0])
def out(**values):
    print(json.dumps(values))
"""


def run(body: str, language: str = "it") -> dict[str, object]:
    """``body`` after the prelude, in a new interpreter; what it ``out``s."""
    script = PRELUDE.format(root=str(ROOT), language=language) + body
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_whole_match_is_played_and_every_kept_game_reads_back_exactly() -> None:
    result = run(
        """
checks = []
forced = []  # the frame's word on each computer decision, and the truth
s.clock = lambda: 1000.0  # one moment: a forced move's countdown reads the same after a reload
frame = start(preset="domino", seating="3", target="50")
while not frame["over"]:
    saved = frame["saved"]
    shown = dict(s.shown)
    if frame["computer_ms"] is not None:
        single = len(s.game.match.round.legal_moves()) == 1
        frame = json.loads(s.computer())
        forced.append((frame["thought_forced"], single))
    elif s.game.match.round.over:
        frame = command(action="next", version=s.game.version)
    else:
        frame = command(action="move", move=mine(), version=s.game.version)
    if len(checks) < 40:  # read back as the page does after a reload
        again = app.Session(ROOT, URLS, s.clock)
        back = json.loads(again.resume(json.dumps(frame["saved"])))
        checks.append(back["saved"] == frame["saved"] and again.shown == s.shown)
out(checks=checks, summary=frame["summary"], over=frame["over"],
    status=s.shown["status"], forced=forced)
"""
    )
    # the benchmark tells forced decisions from real ones by the frame's word
    forced = result["forced"]
    assert isinstance(forced, list)
    assert all(said == single for said, single in forced)
    assert {single for _, single in forced} == {True, False}
    assert result["over"] is True
    assert result["checks"] and all(result["checks"])  # type: ignore[arg-type]
    summary = result["summary"]
    assert isinstance(summary, dict)
    assert summary["description"].startswith("Domino · 3 giocatori")
    assert max(int(p) for p in summary["score"].split(" – ")) >= 50
    assert 'id="rematch"' in str(result["status"])  # "play again, same settings"


def test_a_stale_or_illegal_command_changes_nothing_and_says_why() -> None:
    result = run(
        """
s.clock = lambda: 1000.0  # one moment (a forced move's countdown would count down)
frame = start(preset="duello")
while s.game.computer_to_play():
    frame = json.loads(s.computer())
version = s.game.version
before = dict(s.shown)
stale = command(action="move", move=mine(), version=version - 1)
wrong = [m for m in ("6|6L", "0|0L", "6|5R") if m not in
         [str(x) for x in s.game.match.round.legal_moves()]][0]
illegal = command(action="move", move=wrong, version=version)
garbled = command(action="move", move="six", version=version)
out(stale=stale["flash"], illegal=illegal["flash"], garbled=garbled["flash"],
    versions=[stale["version"], illegal["version"], garbled["version"], version],
    unchanged=s.shown == before, regions=[stale["regions"], illegal["regions"]])
"""
    )
    assert "Il tavolo è cambiato" in str(result["stale"])
    assert result["illegal"] and 'class="flash error"' in str(result["illegal"])
    assert "mossa" in str(result["garbled"]).lower()
    versions = result["versions"]
    assert isinstance(versions, list) and len(set(versions)) == 1
    assert result["unchanged"] is True and result["regions"] == [{}, {}]


def test_the_table_has_the_sites_regions_in_italian_and_in_english() -> None:
    italian = run('frame = start(preset="domino", seating="4p")\nout(page=frame["page"])')
    english = run(
        'frame = start(preset="blocco", seating="4", hand_size="5", draw="no", target="single")\n'
        'out(page=frame["page"])',
        "en",
    )
    for region in ("table-head", "seats", "board", "status", "hand", "scores", "log", "flash"):
        assert f'id="{region}"' in str(italian["page"])
        assert f'id="{region}"' in str(english["page"])
    assert "contro il computer, senza connessione" in str(italian["page"]).lower()
    assert "partner" in str(italian["page"])  # 4 in pairs: the partner opposite
    assert "Against the computer, without connection" in str(english["page"])
    assert "4 players" in str(english["page"])


def test_the_computer_plays_its_seats_and_the_player_theirs() -> None:
    result = run(
        """
frame = start(preset="domino", seating="4p", level="hard")
moves = 0
while frame["computer_ms"] is not None and moves < 10:
    delay = frame["computer_ms"]
    frame = json.loads(s.computer())
    moves += 1
out(turn=s.game.match.round.turn, over=s.game.match.round.over, delay=delay if moves else None,
    your_turn='data-your-turn="1"' in s.shown["table-head"], moves=moves)
"""
    )
    assert result["turn"] == 0 or result["over"]
    if not result["over"]:
        assert result["your_turn"] is True
    if result["moves"]:
        assert 400 <= int(result["delay"]) <= 1600  # type: ignore[arg-type]


def test_the_stand_in_never_replaces_the_real_django() -> None:
    import pytest

    from games.offline import django_shim

    with pytest.raises(RuntimeError, match="browser only"):
        django_shim.install()


# Until the player's turn comes with a single legal move (games.forced): the computer's
# seats and the player's choices played meanwhile, on a clock the test moves.
TO_A_FORCED_TURN = """
from games.forced import only_move
clock = [1000.0]
s.clock = lambda: clock[0]
frame = start(preset="domino", seating="2", target="50")
while True:
    r = s.game.match.round
    if s.game.match.over:
        frame = start(preset="domino", seating="2", target="50")
    elif frame["computer_ms"] is not None:
        frame = json.loads(s.computer())
    elif r.over:
        clock[0] += 5
        frame = command(action="next", version=s.game.version)
    elif only_move(r) is not None:
        break
    else:
        frame = command(action="move", move=mine(), version=s.game.version)
clock[0] += 60  # well into the hand: the pause alone
frame = json.loads(s.forced(-1))  # a stale countdown plays nothing
"""


def test_the_players_only_move_is_played_for_them_after_its_countdown() -> None:
    result = run(
        TO_A_FORCED_TURN
        + """
version, due, status = s.game.version, frame["forced_ms"], s.shown["status"]
options = s.shown["options"]
only = str(only_move(s.game.match.round))
frame = json.loads(s.forced(version))
out(version=version, due=due, status=status, options=options, only=only,
    after=frame["version"], played=frame["saved"]["actors"][-1], log=s.shown["log"],
    forced_ms=frame["forced_ms"])
"""
    )
    assert result["due"] == 1000  # about a second, shown
    assert "La tua unica mossa: giocata per te tra" in str(result["status"])
    assert 'data-remaining-ms="1000"' in str(result["status"])
    assert 'id="forced-moves" aria-pressed="true"' in str(result["options"])
    assert result["after"] == int(result["version"]) + 1  # type: ignore[call-overload]
    assert result["played"] == "forced"
    assert "giocata in automatico" in str(result["log"])


def test_turned_off_the_player_plays_their_only_move_themselves() -> None:
    result = run(
        TO_A_FORCED_TURN
        + """
version = s.game.version
off = command(action="forced", on=False)
frame = json.loads(s.forced(version))  # a countdown that was running: nothing now
again = app.Session(ROOT, URLS)  # the page's next game, the choices it kept
resumed = json.loads(again.resume(json.dumps(frame["saved"]), json.dumps(off["choices"])))
out(choices=off["choices"], forced_ms=off["forced_ms"], status=s.shown["status"],
    options=s.shown["options"], after=frame["version"], version=version,
    resumed=resumed["forced_ms"], bad=command(action="forced", on="no")["flash"])
"""
    )
    assert result["choices"] == {"plays_forced_moves": False, "text_mode": False}
    assert result["forced_ms"] is None and result["resumed"] is None
    assert "data-remaining-ms" not in str(result["status"])
    assert 'id="forced-moves" aria-pressed="false"' in str(result["options"])
    assert result["after"] == result["version"]  # nothing played for them
    assert result["bad"]


def test_the_table_as_text_and_typed_commands_as_at_the_sites_tables() -> None:
    result = run(
        """
s.clock = lambda: 1000.0
s.choose(json.dumps({"plays_forced_moves": False}))
frame = start(preset="duello")
while s.game.computer_to_play():
    frame = json.loads(s.computer())
on = command(action="text", on=True)
version = s.game.version
def typed(text):
    return command(action="type", text=text, version=s.game.version)
hand = typed("mano")
nonsense = typed("vola via")
r = s.game.match.round
move = r.legal_moves()[0]
if hasattr(move, "tile"):
    side = "sinistra" if move.end == "left" else "destra"
    words = f"gioca {move.tile.high} {move.tile.low} {side}"
else:
    words = str(move)  # draw or pass
played = typed(words)
out(choices=on["choices"], text=s.shown["text"] if "text" in s.shown else "",
    hand=hand["flash"], nonsense=nonsense["flash"], version=version,
    after=played["version"], actor=played["saved"]["actors"][-1])
"""
    )
    assert result["choices"] == {"plays_forced_moves": False, "text_mode": True}
    assert 'id="command-form"' in str(result["text"])
    assert 'class="flash info" data-done="type"' in str(result["hand"])
    assert "Le tue tessere:" in str(result["hand"])
    assert 'class="flash error"' in str(result["nonsense"]) and "aiuto" in str(result["nonsense"])
    assert result["after"] == int(result["version"]) + 1  # type: ignore[call-overload]
    assert result["actor"] == "person"
