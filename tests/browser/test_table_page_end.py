"""The line stays legible at the end of a hand and of a match: the result (who won, the
hands revealed, the buttons) does not squeeze the board until its tiles are specks, on
two phones and a desktop, with a long line and four players (the most crowded table)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import ALL_TILES
from tests.fixtures import manage_last_line

from .conftest import ARTIFACTS, LiveSite
from .pages import PASSWORD, SIZES, laid_out, log_in, new_page

pytestmark = pytest.mark.browser

PLAYER = "fine_mano"
#: tiles on the line before the player goes out with the next one
LENGTH = 24


def going_out(players: int, length: int) -> str:
    """``length`` tiles on the line, seat 0 to move holding only the next tile of the
    chain (it fits the right end), the other seats the rest of the set: seat 0 goes out.
    All 28 tiles make one chain (each number is on eight half-tiles: an Euler circuit)."""
    stack: list[tuple[int, Any]] = [(6, None)]
    circuit: list[tuple[int, Any]] = []
    used: set[Any] = set()
    while stack:
        number = stack[-1][0]
        options = [t for t in ALL_TILES if t.has(number) and t not in used]
        if options:
            used.add(options[0])
            stack.append((options[0].other_half(number), options[0]))
        else:
            circuit.append(stack.pop())
    circuit.reverse()
    chain = [(circuit[i][0], circuit[i + 1][0], circuit[i + 1][1]) for i in range(28)]
    hands: list[list[Any]] = [[chain[length][2]]] + [[] for _ in range(players - 1)]
    for i, (_, _, tile) in enumerate(chain[length + 1 :]):
        hands[1 + i % (players - 1)].append(tile)
    said = "/".join(",".join(str(t) for t in hand) for hand in hands)
    line = ",".join(f"{a}|{b}" for a, b, _ in chain[:length])
    return f"hands={said} boneyard=- line={line} turn=0 dealer=1"


#: Computer tables of four, seat 0 (the player) to move with the tile that goes out: as
#: dealt ("play"), and just after it went out, in domino (to 100 points: the hand is
#: over, the match goes on) and in blocco (a single hand: the match is over).  The next
#: hand's countdown is removed with the move, in the same transaction, so the end screen
#: stays while the test looks at it.
ENDED = """
import json
from dataclasses import replace
from django.db import transaction
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.models import Table
from games.records import load_match
user = User.objects.create_user({player!r}, password={password!r})
codes = {{}}
for end, preset in (("play", "domino"), ("hand", "domino"), ("match", "blocco")):
    rules = replace(PRESETS[preset], players=4, hand_size=7)
    with transaction.atomic():
        table = services.table_create(host=user, mode="computer", rules=rules, bot_level="easy")
        hand = table.hands.get()
        hand.initial_position = {position!r}
        hand.save()
        table.deadlines.all().delete()
        if end != "play":
            now = Table.objects.get(pk=table.pk)
            move = load_match(now).round.legal_moves()[0]
            services.move_submit(table_id=now.pk, user=user, move=str(move), version=now.version)
            table.deadlines.all().delete()
    codes[end] = table.code
print(json.dumps(codes))
"""
#: what each screen shows once drawn
SHOWN = {"play": "#hand .my-tile", "hand": "#status #next-hand", "match": "#status .match-result"}

#: The shortest of the line's tiles (its long side), and the result's buttons and headings.
MEASURE = """() => { const box = e => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height, bottom: r.bottom}; };
  const tiles = [...document.querySelectorAll('#board .placed svg.tile')].map(box);
  return {tiles: tiles.length, shortest: Math.min(...tiles.map(b => Math.max(b.width, b.height))),
          board: box(document.querySelector('#board')),
          result: [...document.querySelectorAll('#status :is(h2, h3, button, .button)')].map(box),
          sideways: document.documentElement.scrollWidth > innerWidth}; }"""


@pytest.fixture(scope="module")
def screens(browser: Any, live_site: LiveSite) -> dict[tuple[str, str], Any]:
    """What each screen (play, hand, match) measures at each size, the page at its top
    (a screenshot of each in tests/artifacts/end-<screen>-<size>.png)."""
    script = ENDED.format(player=PLAYER, password=PASSWORD, position=going_out(4, LENGTH))
    codes: dict[str, str] = json.loads(manage_last_line(live_site.env, "shell", "-c", script))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    page = new_page(browser, SIZES["1280x800"], errors)
    log_in(page, live_site.url, PLAYER)
    state = page.context.storage_state()
    page.context.close()
    seen = {}
    for screen, code in codes.items():
        for size, viewport in SIZES.items():
            page = new_page(browser, viewport, errors, storage_state=state)
            page.goto(f"{live_site.url}/t/{code}/")
            page.wait_for_selector(SHOWN[screen])
            laid_out(page)
            page.screenshot(path=ARTIFACTS / f"end-{screen}-{size}.png")
            seen[screen, size] = page.evaluate(MEASURE)
            with (ARTIFACTS / "tile-lengths.txt").open("a") as measured:
                measured.write(
                    f"4p end {screen} ({seen[screen, size]['tiles']} tiles) {size}: "
                    f"{seen[screen, size]['shortest']:.1f} px\n"
                )
            page.context.close()
    assert errors == []
    return seen


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("end", ["hand", "match"])
def test_the_line_stays_legible_beside_the_result_at_every_size(
    screens: dict[tuple[str, str], Any], end: str, size: str
) -> None:
    viewport, seen, playing = SIZES[size], screens[end, size], screens["play", size]
    assert seen["tiles"] == LENGTH + 1 and playing["tiles"] == LENGTH
    assert not seen["sideways"], size
    if viewport["width"] < 900:
        # a phone: every tile of the line at least 36 px long; the page may scroll to
        # the rest of the result
        assert seen["shortest"] >= 36, (end, size, seen)
    else:
        # a desktop: the line keeps most of its size during play (the result takes only
        # the room it needs), and the whole verdict with its buttons is on the screen
        assert seen["shortest"] >= 0.8 * playing["shortest"], (end, size, seen, playing)
        assert seen["result"], seen
        for box in seen["result"]:
            assert box["bottom"] <= viewport["height"] + 0.5, (end, size, box)
