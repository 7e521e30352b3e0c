"""The whole table in one screen: during play the line, every seat, the player's
hand and the prompt fit the viewport without scrolling, on two phones and a
desktop, with 2, 3 and 4 players, early in a hand and late (a long line).  The
positions are built through the engine (bots playing a dealt hand) and stored as
the hand's starting position, so each screen shows a real table at once."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.engine import ALL_TILES, PRESETS, Play, Round, make_bot

from .conftest import PHONE, LiveSite
from .pages import computer_tables_at, laid_out, log_in, new_page, play_if_my_turn

pytestmark = pytest.mark.browser

SIZES = {
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
    "1280x800": {"width": 1280, "height": 800},
}
#: (players, stage) -> tiles on the line: a hand's first moves, and late in a hand
LINE = {(2, "early"): 3, (3, "early"): 3, (4, "early"): 3}
LINE |= {(2, "late"): 22, (3, "late"): 17, (4, "late"): 20}
PLAYER = "tavola_piena"


def wanted(r: Round, stage: str) -> bool:
    plays = [m.tile for m in r.legal_moves() if isinstance(m, Play)]
    if stage == "early":
        return bool(plays) and len(r.hands[0]) >= 7
    return len(set(plays)) < len(plays)


def position(players: int, length: int, stage: str) -> str:
    """A position the engine's bots reached with `length` tiles on the line, seat 0 (the
    player) to move with a tile that fits.  Early, the player still holds a full hand;
    late, a tile of theirs fits both ends (its two buttons make the hand its tallest)."""
    rules = replace(PRESETS["domino"], players=players, hand_size=7)
    for seed in range(2000):
        r, bot = Round.deal(rules, rng=random.Random(seed)), make_bot("easy", seed=seed)
        while not r.over:
            if len(r.line) >= length and r.turn == 0:
                if wanted(r, stage):
                    return r.position()
                break
            r.play(bot.choose(r.view(r.turn)))
    raise AssertionError("no position found")


@pytest.fixture(scope="module")
def tables(live_site: LiveSite) -> dict[str, str]:
    """Table codes by "players-stage", for PLAYER."""
    deals = [(players, position(players, n, stage)) for (players, stage), n in LINE.items()]
    codes = computer_tables_at(live_site, PLAYER, deals)
    return {f"{players}-{stage}": code for (players, stage), code in zip(LINE, codes, strict=True)}


@pytest.fixture(scope="module")
def signed_in(browser: Any, live_site: LiveSite, tables: dict[str, str]) -> dict[str, Any]:
    """PLAYER's cookies, signed in once for every page of the module."""
    page = new_page(browser, SIZES["1280x800"], [])
    log_in(page, live_site.url, PLAYER)
    state: dict[str, Any] = page.context.storage_state()
    page.context.close()
    return state


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    """The boxes of what ``selector`` matches (each as the page lays it out now)."""
    found: list[dict[str, float]] = page.evaluate(
        "s => [...document.querySelectorAll(s)].map(e => e.getBoundingClientRect())"
        ".map(r => ({x: r.x, y: r.y, width: r.width, height: r.height}))",
        selector,
    )
    return found


def outside(box: dict[str, float], width: float, height: float) -> bool:
    """Whether any part of ``box`` lies outside a width × height viewport (or it is empty)."""
    return (
        box["width"] == 0
        or box["height"] == 0
        or box["x"] < -0.5
        or box["y"] < -0.5
        or box["x"] + box["width"] > width + 0.5
        or box["y"] + box["height"] > height + 0.5
    )


def assert_fits(page: Any, viewport: dict[str, int], critical: dict[str, str]) -> None:
    """Every play-critical box inside the viewport, the page at its top, no sideways scroll."""
    page.evaluate("window.scrollTo(0, 0)")
    width, height = viewport["width"], viewport["height"]
    for name, selector in critical.items():
        found = boxes(page, selector)
        assert found, f"{name}: nothing matches {selector}"
        off = [b for b in found if outside(b, width, height)]
        assert not off, f"{name} lies outside the {width}x{height} viewport: {off}"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def long_sides(page: Any, selector: str) -> list[float]:
    return [max(b["width"], b["height"]) for b in boxes(page, selector)]


@pytest.mark.parametrize("stage", ["early", "late"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_whole_table_fits_one_screen_at_every_size(
    browser: Any,
    live_site: LiveSite,
    tables: dict[str, str],
    signed_in: dict[str, Any],
    artifacts: Path,
    players: int,
    stage: str,
) -> None:
    code = tables[f"{players}-{stage}"]
    errors: list[str] = []
    for size, viewport in SIZES.items():
        page = new_page(browser, viewport, errors, storage_state=signed_in)
        page.goto(f"{live_site.url}/t/{code}/")
        page.wait_for_selector("#hand .my-tile")
        laid_out(page)
        placed = page.locator("#board .placed").count()
        assert placed >= LINE[players, stage]
        page.screenshot(path=artifacts / f"layout-{players}p-{stage}-{size}.png")
        assert_fits(
            page,
            viewport,
            {
                "the line": "#board .line",
                "each tile of the line": "#board .placed",
                "the seats": "#seats .seat",
                "the hand": "#hand .my-tile",
                "the prompt": "#status .your-turn",
            },
        )
        assert page.locator("#seats .seat").count() == players
        # beside compact seats the board keeps at least half the screen's width
        assert boxes(page, "#board")[0]["width"] >= viewport["width"] / 2, size
        # the line wraps within its box: no tile hidden in a scroll
        assert page.evaluate(
            "() => { const l = document.querySelector('#board .line');"
            " return l.scrollHeight <= l.clientHeight + 1 && l.scrollWidth <= l.clientWidth + 1; }"
        ), size
        assert page.locator("#seats svg.tile").count() == 0  # the others' tiles: a count only
        # the line's tiles: late in a hand at least 36 px long on a phone, 44 on a desktop;
        # early, as large as the board allows (the snake: games.view.snake)
        shortest = min(long_sides(page, "#board .placed svg.tile"))
        with (artifacts / "tile-lengths.txt").open("a") as measured:
            measured.write(f"{players}p {stage} {size}: {shortest:.1f} px\n")
        desktop = viewport["width"] >= 1000
        least = {"late": 44 if desktop else 36, "early": 80 if desktop else 64}[stage]
        assert shortest >= least, (size, shortest)
        if players > 2 and not desktop:
            # the seats in a row above the board, which takes the screen's width; each
            # name broken between its words if it must be, never inside one; the computer said
            assert boxes(page, "#board")[0]["width"] >= viewport["width"] - 20, size
            for seat in page.locator("#seats .seat:not(.pos-bottom)").all():
                name = seat.locator(".seat-name")
                words = name.evaluate(
                    """e => { const range = document.createRange(), lines = new Set();
                      const text = e.firstChild, words = [];
                      for (const m of text.data.matchAll(/\\S+/g)) {
                        range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
                        words.push([...range.getClientRects()].length); }
                      return words; }"""
                )
                assert words and all(rects == 1 for rects in words), (size, words)  # none split
                assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), size
                assert seat.locator(".tag.bot").is_visible(), size
        if size == "390x844":
            # a tall phone's board as tall as its players need: the hand well above the fold
            hand = boxes(page, "#hand")[0]
            assert hand["y"] + hand["height"] <= viewport["height"] - 60, (players, stage, hand)
        # the hand's tiles: a finger's width on their short side
        narrowest = min(
            min(b["width"], b["height"]) for b in boxes(page, "#hand .my-tile svg.tile")
        )
        assert narrowest >= 44, (size, narrowest)
        page.context.close()
    assert errors == []


@pytest.mark.parametrize("size", ["390x844", "1280x800"])
def test_a_spectator_sees_the_whole_table_and_no_tile_of_any_hand(
    browser: Any, live_site: LiveSite, tables: dict[str, str], artifacts: Path, size: str
) -> None:
    viewport = SIZES[size]
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    page.goto(f"{live_site.url}/t/{tables['4-late']}/")
    page.wait_for_selector("#board .placed")
    laid_out(page)
    page.screenshot(path=artifacts / f"layout-spectator-{size}.png")
    assert page.locator("#hand .my-tile, #seats svg.tile").count() == 0
    assert_fits(
        page,
        viewport,
        {"the line": "#board .line", "the seats": "#seats .seat", "the prompt": "#status p"},
    )
    page.context.close()
    assert errors == []


def full_line_position() -> str:
    """26 tiles on the line, the 27th (it fits) in seat 0's hand, the 28th in seat 1's.

    All 28 tiles form one chain (every number is on eight half-tiles: an Euler circuit).
    Seat 0 goes out with the 27th: the longest line a hand can end with, since
    whoever goes out leaves the others holding at least a tile each."""
    unused = {n: [t for t in ALL_TILES if t.has(n)] for n in range(7)}
    stack: list[tuple[int, Any]] = [(6, None)]
    circuit: list[tuple[int, Any]] = []
    used: set[Any] = set()
    while stack:
        number, _tile = stack[-1]
        options = [t for t in unused[number] if t not in used]
        if options:
            tile = options[0]
            used.add(tile)
            stack.append((tile.other_half(number), tile))
        else:
            circuit.append(stack.pop())
    circuit.reverse()
    chain = [(circuit[i][0], circuit[i + 1][0], circuit[i + 1][1]) for i in range(28)]
    line = ",".join(f"{a}|{b}" for a, b, _ in chain[:26])
    return f"hands={chain[26][2]}/{chain[27][2]} boneyard=- line={line} turn=0 dealer=1"


def test_the_longest_line_fits_a_phone_screen(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:

    [code] = computer_tables_at(live_site, "lina_b", [(2, full_line_position())])
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    log_in(page, live_site.url, "lina_b")
    page.goto(f"{live_site.url}/t/{code}/")
    assert page.locator("#board .placed").count() == 26
    play_if_my_turn(page)  # the 27th tile: Domino!
    page.wait_for_selector("#status .hand-result", timeout=15_000)
    assert page.locator("#board .placed").count() == 27
    fits = (
        "() => document.documentElement.scrollWidth <= window.innerWidth"
        " && document.querySelector('#board').getBoundingClientRect().right <= window.innerWidth"
    )
    assert page.evaluate(fits)
    # and the whole set, 28 tiles, still wraps inside the screen
    page.evaluate(
        "() => { const line = document.querySelector('#board .line');"
        " line.append(line.querySelector('.placed.double').cloneNode(true)); }"
    )
    assert page.locator("#board .placed").count() == 28 and page.evaluate(fits)
    page.locator("#board").screenshot(path=artifacts / "full-line-phone.png")
    page.context.close()
    assert errors == []
