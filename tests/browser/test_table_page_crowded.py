"""What a crowded table still shows whole on a phone and a desktop: the end targets
(the two buttons on the line for a tile that fits both ends) beside the line's other
tiles, never over them; a long one-word name on a seat card, whole or visibly cut with
the full name at hand; the final score beside the log of a long hand, as large as ever."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveSite
from .pages import SIZES as THREE_SIZES
from .pages import computer_tables_at, laid_out, log_in, new_page

pytestmark = pytest.mark.browser

SIZES = {
    **THREE_SIZES,
    "640x360": {"width": 640, "height": 360},  # a phone turned sideways: the smallest tiles
}


def doubles_at_both_ends(players: int, length: int, seed: int) -> str:
    """A position with ``length`` tiles on the line, a double at each end (the
    narrowest end tiles: a target beside one reaches furthest past it), seat 0 to move
    holding the tile that joins the two ends' numbers, which fits both."""
    rng = random.Random(seed)
    tiles = {(a, b) for a in range(7) for b in range(a, 7)}
    while True:
        a, b = rng.sample(range(7), 2)
        joining = (min(a, b), max(a, b))
        line, used, number = [(a, a)], {(a, a), (b, b), joining}, a
        while len(line) < length - 1:
            options = sorted(t for t in tiles - used if number in t)
            if not options:
                break
            tile = rng.choice(options)
            used.add(tile)
            line.append((number, tile[1] if tile[0] == number else tile[0]))
            number = line[-1][1]
        if len(line) == length - 1 and number == b:
            line.append((b, b))
            break
    rest = sorted(tiles - used)
    hands: list[list[tuple[int, int]]] = [[joining]] + [[] for _ in range(players - 1)]
    for i, tile in enumerate(rest):
        hands[1 + i % (players - 1) if players > 1 else 0].append(tile)
    said = "/".join(",".join(f"{high}|{low}" for low, high in hand) for hand in hands)
    placed = ",".join(f"{x}|{y}" for x, y in line)
    return f"hands={said} boneyard=- line={placed} turn=0 dealer=1"


#: end-target boxes that overlap a tile of the line other than the end each marks
OVER_OTHER_TILES = """() => {
  const placed = [...document.querySelectorAll('#board .placed')];
  const found = [];
  for (const target of document.querySelectorAll('#board .end-target')) {
    const r = target.getBoundingClientRect();
    const own = target.dataset.end === 'left' ? placed[0] : placed[placed.length - 1];
    placed.forEach((tile, i) => {
      if (tile === own) return;
      const q = tile.getBoundingClientRect();
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 0.5 && h > 0.5)
        found.push(`${target.dataset.end} over tile ${i} ${tile.dataset.tile}: ${w | 0}x${h | 0}`);
    });
  }
  return found;
}"""

#: (players, tiles on the line, seed) of the positions the targets are tried on
CROWDED = [(4, 24, 1), (4, 20, 2), (4, 16, 3), (3, 22, 4), (2, 26, 5), (2, 20, 6), (2, 12, 7)]


@pytest.fixture(scope="module")
def crowded_tables(live_site: LiveSite) -> list[str]:
    deals = [(players, doubles_at_both_ends(players, n, seed)) for players, n, seed in CROWDED]
    return computer_tables_at(live_site, "ettore_bersagli", deals)


@pytest.mark.parametrize("size", ["360x640", "390x844", "640x360"])
def test_the_end_targets_cover_no_tile_but_the_ends_they_mark(
    browser: Any, live_site: LiveSite, crowded_tables: list[str], artifacts: Path, size: str
) -> None:
    viewport = SIZES[size]
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    log_in(page, live_site.url, "ettore_bersagli")
    for (players, length, _), code in zip(CROWDED, crowded_tables, strict=True):
        page.goto(f"{live_site.url}/t/{code}/")
        page.wait_for_selector("#hand .tile-select")
        assert page.locator("#board .placed").count() == length
        page.locator("#hand .tile-select").click()
        page.wait_for_selector("#board .end-target", state="visible")
        laid_out(page)
        shot = artifacts / f"end-targets-{size}-{players}p-{length}.png"
        page.locator("#board").screenshot(path=shot)
        assert page.evaluate(OVER_OTHER_TILES) == [], (size, players, length)
        # each a finger's target, inside the screen
        for target in page.locator("#board .end-target").all():
            box = target.bounding_box()
            assert box and box["width"] >= 43.5 and box["height"] >= 43.5, box
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    page.context.close()
    assert errors == []


#: Four players at a friends' table, two of them with a name of one long word each:
#: twenty characters (whole on a card, in two lines) and thirty (cut, visibly).
NAMES = ["nina_nomi", "massimiliano_bertoni", "costantinopolitanissimo_grand", "ada"]
FRIENDS_TABLE = f"""
from dataclasses import replace
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.models import Table
from tests.browser.pages import PASSWORD
users = [User.objects.create_user(name, password=PASSWORD) for name in {NAMES!r}]
table = services.table_create(host=users[0], mode="friends",
                              rules=replace(PRESETS["domino"], players=4))
version = lambda: Table.objects.get(pk=table.pk).version
for user in users[1:]:
    services.table_join(table_id=table.pk, user=user, version=version())
services.table_start(table_id=table.pk, by=users[0], version=version())
print(table.code)
"""
#: Each side seat's name: its box, its card's, its text's lines, and what it says.
NAME_BOXES = """() => [...document.querySelectorAll('#seats .seat:not(.pos-bottom) .seat-name')]
  .map(name => { const range = document.createRange(); range.selectNodeContents(name);
    const box = r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
    return {text: name.textContent.trim(), title: name.title,
            box: box(name.getBoundingClientRect()),
            card: box(name.closest('.seat').getBoundingClientRect()),
            lines: [...range.getClientRects()].map(box),
            clamped: name.scrollHeight > name.clientHeight + 1}; })"""


def test_a_long_name_of_one_word_is_whole_on_a_phone_or_visibly_cut_with_the_full_name(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    from tests.fixtures import manage_last_line

    code = manage_last_line(live_site.env, "shell", "-c", FRIENDS_TABLE)
    viewport = SIZES["360x640"]
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    log_in(page, live_site.url, NAMES[0])
    page.goto(f"{live_site.url}/t/{code}/")
    page.wait_for_selector("#seats .seat.pos-left")
    laid_out(page)
    page.screenshot(path=artifacts / "long-names-360x640.png")
    seats = page.evaluate(NAME_BOXES)
    assert sorted(s["text"] for s in seats) == sorted(NAMES[1:])
    for seat in seats:
        # nothing of the name beyond its card's edges: no letter cut off sideways
        for line in seat["lines"]:
            assert line["left"] >= seat["card"]["left"] - 0.5, seat
            assert line["right"] <= seat["card"]["right"] + 0.5, seat
        # the full name is at hand (a long press, a pointer, a screen reader)
        assert seat["title"] == seat["text"], seat
        if len(seat["text"]) <= 20:  # shown whole: every line of it inside its box
            assert not seat["clamped"], seat
            assert all(line["bottom"] <= seat["box"]["bottom"] + 0.5 for line in seat["lines"])
    # the longest is cut after two lines, and the cut is seen (an ellipsis), not a clip
    longest = next(s for s in seats if len(s["text"]) == len(NAMES[2]))
    if longest["clamped"]:
        name = page.locator("#seats .seat-name", has_text=NAMES[2])
        assert name.evaluate("e => getComputedStyle(e).webkitLineClamp") == "2"
        assert name.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
      .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
      .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 40))""")
    assert wide == [] and page.evaluate("document.documentElement.scrollWidth <= innerWidth"), wide
    page.screenshot(path=artifacts / "long-names-360x640-page.png", full_page=True)
    page.context.close()
    assert errors == []


#: A friends' match of four played to its end (one hand of blocco: every tile dealt, so
#: many passes), its log the longest a hand makes; the players' names.
LONG_LOG = """
import random
from dataclasses import replace
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.models import Table
from games.records import load_match
from games.view.errors import GameError
from tests.browser.pages import PASSWORD
names = ("pia_log", "leo_log", "eva_log", "ugo_log")
users = [User.objects.create_user(n, password=PASSWORD) for n in names]
rng = random.Random(3)
best = None
for attempt in range(12):
    rules = replace(PRESETS["blocco"], players=4)
    table = services.table_create(host=users[0], mode="friends", rules=rules)
    version = lambda: Table.objects.get(pk=table.pk).version
    for user in users[1:]:
        services.table_join(table_id=table.pk, user=user, version=version())
    services.table_start(table_id=table.pk, by=users[0], version=version())
    moves = 0
    while Table.objects.get(pk=table.pk).status != "finished":
        now = Table.objects.get(pk=table.pk)
        r = load_match(now).round
        try:
            services.move_submit(table_id=now.pk, user=users[r.turn],
                                 move=str(rng.choice(r.legal_moves())), version=now.version)
            moves += 1
        except GameError:  # the site played a forced move meanwhile
            pass
    if best is None or moves > best[1]:
        best = (table.code, moves)
    if moves >= 40:
        break
print(best[0])
"""

#: The final score's card and the log beside it, as laid out now.
SIDE = """() => { const box = e => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height, bottom: r.bottom}; };
  const scores = document.querySelector('#scores'), events = document.querySelector('#log .events');
  return {scores: box(scores), table: box(scores.querySelector('.scoreboard')),
          rows: [...scores.querySelectorAll('.scoreboard tr')].map(box),
          squeezed: scores.scrollHeight > scores.clientHeight + 1,
          log: box(document.querySelector('#log')), lines: events.children.length,
          scrolls: events.scrollHeight > events.clientHeight + 1}; }"""


def test_the_final_score_keeps_its_size_beside_a_long_log_on_a_desktop(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    from tests.fixtures import manage_last_line

    code = manage_last_line(live_site.env, "shell", "-c", LONG_LOG)
    viewport = SIZES["1280x800"]
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    log_in(page, live_site.url, "pia_log")
    page.goto(f"{live_site.url}/t/{code}/")
    page.wait_for_selector("#status .match-result")
    laid_out(page)
    page.screenshot(path=artifacts / "end-long-log-1280x800.png")
    side = page.evaluate(SIDE)
    assert side["lines"] >= 25, side  # a long log indeed (it scrolls: below)
    # the score card as tall as what it holds, the side column's whole width, every
    # row of the score inside it and on the screen; the log is what scrolls
    assert not side["squeezed"], side
    assert side["scores"]["width"] >= side["log"]["width"] - 0.5, side
    assert side["table"]["width"] >= side["scores"]["width"] - 40, side
    assert len(side["rows"]) == 2  # two sides of two partners
    for row in side["rows"]:
        assert row["height"] >= 20, side
        assert side["scores"]["y"] <= row["y"] and row["bottom"] <= side["scores"]["bottom"], side
        assert row["bottom"] <= viewport["height"], side
    assert side["scrolls"], side
    assert side["log"]["bottom"] <= viewport["height"] + 0.5, side
    page.context.close()
    assert errors == []
