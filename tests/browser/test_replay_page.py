"""The replay page in a real browser: a finished match's replay steps move by move on a
phone with the buttons, the arrow keys and the slider."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import manage_last_line

from .conftest import PHONE, LiveSite
from .pages import new_page

pytestmark = pytest.mark.browser

FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


FINISHED_DUEL = """
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.models import Hand, MoveReview
from games.records import load_match
import random
rita = User.objects.create_user("rita_r", password="tavolo-verde-42")
ugo = User.objects.create_user("ugo_r", password="tavolo-verde-42")
rng = random.Random(4)
# A blocco hand can end blocked at its opening (every other tile of the opening
# double's number asleep, about once in a hundred deals): play until one has a few moves.
while True:
    table = services.table_create(host=rita, mode="friends", rules=PRESETS["blocco"])
    services.table_join(table_id=table.pk, user=ugo, version=0)
    services.table_start(table_id=table.pk, by=rita, version=1)
    table.refresh_from_db()
    while table.status != "finished":
        r = load_match(table).round
        services.move_submit(table_id=table.pk, user=(rita, ugo)[r.turn],
                             move=str(rng.choice(r.legal_moves())), version=table.version)
        table.refresh_from_db()
    hand = Hand.objects.get(table=table, number=0)
    if hand.moves.count() >= 3:
        break
# The coach's verdict on the hand's second move, as the worker writes one.
# (update_or_create: the site's worker may have reviewed the hand already)
MoveReview.objects.update_or_create(hand=hand, ply=1, defaults=dict(
    seat=hand.moves.get(ply=1).seat, loss=20.0, mark="blunder", preferred="6|6L",
    reason="heavy_double", params={"tile": "6|6"}))
print(table.code)
"""


def settled(page: Any) -> None:
    """Wait for the step's line: asked of the server when not already there."""
    page.wait_for_selector(".replay-hand:not([hidden]) [data-line]:not([aria-busy])")


def line_tiles(page: Any) -> int:
    settled(page)
    return int(page.locator(".replay-hand:not([hidden]) [data-line] .placed").count())


def shown_tiles(page: Any) -> Any:
    settled(page)
    return page.evaluate(TILES)


def test_a_finished_match_replays_move_by_move_on_a_phone(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    code = manage_last_line(live_site.env, "shell", "-c", FINISHED_DUEL)
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    page.goto(f"{live_site.url}/t/{code}/replay/")
    page.wait_for_selector(".replay-controls:not([hidden])")
    hand = page.locator(".replay-hand").first
    last = int(hand.locator("[data-slider]").get_attribute("max"))
    assert last >= 2 and line_tiles(page) == 0
    for seat in range(2):  # both hands face up as dealt: 7 tiles each
        assert hand.locator(f'[data-seat="{seat}"] svg.tile').count() == 7
    assert "0 di" in hand.locator(".replay-at").inner_text()

    page.keyboard.press("ArrowRight")  # the opening
    assert line_tiles(page) == 1 and "1 di" in hand.locator(".replay-at").inner_text()
    assert hand.locator('[data-seat="0"] svg.tile, [data-seat="1"] svg.tile').count() == 13
    assert hand.locator(".replay-log li:visible").count() == 1
    assert not hand.locator("[data-coach]").is_visible()
    hand.locator('[data-go="next"]').click()
    assert hand.locator(".replay-log li:visible").count() == 2
    # The second move is marked: the coach's line shows under the board, and in the log.
    coach = hand.locator("[data-coach]")
    assert coach.is_visible() and "Errore grave. Meglio: 6|6 a sinistra" in coach.inner_text()
    assert "??" in hand.locator(".replay-log li.current").inner_text()
    page.keyboard.press("End")
    final = line_tiles(page)
    assert final >= 2 and hand.locator(".replay-log li:visible").count() == last
    page.keyboard.press("ArrowLeft")
    assert hand.locator(".replay-log li:visible").count() == last - 1
    hand.locator("[data-slider]").evaluate(
        "(s) => { s.value = '1'; s.dispatchEvent(new Event('input', { bubbles: true })); }"
    )
    assert line_tiles(page) == 1
    page.keyboard.press("Home")
    assert line_tiles(page) == 0
    page.keyboard.press("End")
    assert page.evaluate(FITS)
    # The log scrolls in its own box: the last move, the one shown, is in sight.
    assert hand.locator(".replay-log").evaluate(
        "(box) => { const li = box.querySelector('li.current').getBoundingClientRect();"
        " const b = box.getBoundingClientRect();"
        " return li.top >= b.top && li.bottom <= b.bottom + 1; }"
    )
    assert "Punteggio finale" in page.locator(".replay-final").inner_text()
    page.screenshot(path=artifacts / "replay-phone.png", full_page=True)

    record = page.request.get(f"{live_site.url}/t/{code}/record.txt")
    assert record.ok and record.text().startswith("blocco players=2")
    assert errors == []


# A hand of four with a long line: its 28 tiles all dealt, played at random until a hand
# leaves at least 14 tiles on the line; the match then ended (its hand is replayable).
LONG_HAND = """
from dataclasses import replace
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.models import Table
from games.records import load_match
import random
rng = random.Random(7)
players = [User.objects.create_user(f"snake_{n}", password="tavolo-verde-42",
                                    plays_forced_moves=False) for n in range(4)]
rules = replace(PRESETS["domino"], players=4, hand_size=7)
while True:
    table = services.table_create(host=players[0], mode="friends", rules=rules)
    for user in players[1:]:
        table.refresh_from_db()
        services.table_join(table_id=table.pk, user=user, version=table.version)
    table.refresh_from_db()
    services.table_start(table_id=table.pk, by=players[0], version=table.version)
    table.refresh_from_db()
    while not (r := load_match(table).round).over:
        services.move_submit(table_id=table.pk, user=players[r.turn],
                             move=str(rng.choice(r.legal_moves())), version=table.version)
        table.refresh_from_db()
    if len(r.line) >= 14:
        break
Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)
print(table.code)
"""

SIZES = {"360x640": {"width": 360, "height": 640}, "1280x800": {"width": 1280, "height": 800}}

#: The shown line's tiles (their drawings) and its box, in the page's pixels.
TILES = """() => {
  const line = document.querySelector('.replay-hand:not([hidden]) [data-line]');
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  return {line: box(line),
          tiles: [...line.querySelectorAll('.placed svg.tile')].map(box)};
}"""


def test_the_replays_line_is_the_tables_snake_turning_at_the_boards_edges(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    code = manage_last_line(live_site.env, "shell", "-c", LONG_HAND)
    errors: list[str] = []
    for size, viewport in SIZES.items():
        page = new_page(browser, viewport, errors)
        page.goto(f"{live_site.url}/t/{code}/replay/")
        page.wait_for_selector(".replay-controls:not([hidden])")
        hand = page.locator(".replay-hand").first
        page.keyboard.press("End")
        shown = shown_tiles(page)
        line, tiles = shown["line"], shown["tiles"]
        assert len(tiles) >= 14
        # one chain in rows that fill the board's width and turn at its edges
        rows = sorted({round(t["y"] + t["h"] / 2) for t in tiles})
        assert len(rows) >= 2, (size, rows)
        left = min(t["x"] for t in tiles)
        right = max(t["x"] + t["w"] for t in tiles)
        bottom = max(t["y"] + t["h"] for t in tiles)
        assert line["x"] - 1 <= left and right <= line["x"] + line["w"] + 1, size
        assert line["y"] - 1 <= min(t["y"] for t in tiles) and bottom <= line["y"] + line["h"] + 1
        # neighbours touch: each tile is next to the one before it, rows linked at the turns
        for before, after in itertools.pairwise(tiles):
            gap_x = max(before["x"], after["x"]) - min(
                before["x"] + before["w"], after["x"] + after["w"]
            )
            gap_y = max(before["y"], after["y"]) - min(
                before["y"] + before["h"], after["y"] + after["h"]
            )
            assert gap_x <= 2 and gap_y <= 2, (size, before, after)
        # as large as the board allows: the layout shown (the one laid out for boards of
        # about this shape) reaches within a tile of both its sides, or of its top and
        # bottom (a board a little longer than the layout's shape leaves room at the sides)
        longest = max(max(t["w"], t["h"]) for t in tiles)
        top = min(t["y"] for t in tiles)
        wide = right - left >= line["w"] - 2 * longest - 8
        tall = bottom - top >= line["h"] - longest - 8
        assert wide or tall, (size, left, right, top, bottom, line)
        shortest = min(max(t["w"], t["h"]) for t in tiles)
        with (artifacts / "tile-lengths.txt").open("a") as measured:
            measured.write(f"replay {len(tiles)} tiles {size}: {shortest:.1f} px\n")
        if size == "360x640":
            assert shortest >= 36, size
        assert page.locator(".replay-hand:not([hidden]) .open-end").count() == 2
        assert page.evaluate(FITS)
        page.screenshot(path=artifacts / f"replay-snake-{size}.png", full_page=True)
        # stepping back takes the last tile off; forward puts it back, in the same place
        count = len(tiles)
        page.keyboard.press("ArrowLeft")
        back = shown_tiles(page)["tiles"]
        assert len(back) in (count - 1, count)  # (the last move may have been a pass)
        while len(shown_tiles(page)["tiles"]) == count:
            page.keyboard.press("ArrowLeft")
        hand.locator('[data-go="next"]').click()
        while len(shown_tiles(page)["tiles"]) < count:
            hand.locator('[data-go="next"]').click()
        assert shown_tiles(page) == shown
        page.keyboard.press("Home")
        assert line_tiles(page) == 0
        page.context.close()
    assert errors == []


def test_a_line_that_cannot_come_says_so_rather_than_showing_the_last_one(
    browser: Any, live_site: LiveSite
) -> None:
    # the same match as above, between two other players (the live site is the worker's)
    duel = FINISHED_DUEL.replace('"rita_r"', '"rita_n"').replace('"ugo_r"', '"ugo_n"')
    code = manage_last_line(live_site.env, "shell", "-c", duel)
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    page.goto(f"{live_site.url}/t/{code}/replay/")
    page.wait_for_selector(".replay-controls:not([hidden])")
    page.keyboard.press("ArrowRight")
    assert line_tiles(page) == 1  # the opening, fetched
    page.route("**/line/**", lambda route: route.abort())  # the network gone
    page.keyboard.press("End")  # a step whose line is not here yet
    settled(page)
    line = page.locator(".replay-hand:not([hidden]) [data-line]")
    assert line.locator(".placed").count() == 0  # not the opening's line under the last step
    assert "Non è stato possibile caricare la linea" in line.inner_text()
    page.unroute("**/line/**")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("End")  # shown again: asked again, and drawn
    assert line_tiles(page) >= 2
