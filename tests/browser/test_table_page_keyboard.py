"""A match against the computer played with the keyboard alone (Tab and Enter: the
settings, every tile and end, draws and passes, the next hand), on two phones and a
desktop: the focus kept where it was as frames replace regions, and what the polite
live region says after each of the player's moves, in the player's language (the tile
by name, the end it went on); with reduced motion asked for, nothing animates."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from realtime.constants import WS_COMMANDS_PER_SECOND

from .conftest import LiveSite
from .pages import SIZES_IN_LANGUAGES as SIZES
from .pages import moved_past, new_page, table_version

pytestmark = pytest.mark.browser

#: What the live region says, in each language (locale/it's words for the English).
WORDS = {
    "en-GB": {
        "you": "You",
        "left": "on the left",
        "right": "on the right",
        "opening": "opening",
        "numbers": ("zero", "one", "two", "three", "four", "five", "six"),
        "double": "double {}",
        "your turn": "Your turn.",
        "ends": ("Open ends:", "Both ends:"),
    },
    "it-IT": {
        "you": "Tu",
        "left": "a sinistra",
        "right": "a destra",
        "opening": "apertura",
        "numbers": ("zero", "uno", "due", "tre", "quattro", "cinque", "sei"),
        "double": "doppio {}",
        "your turn": "Tocca a te.",
        "ends": ("Estremità aperte:", "Entrambe le estremità:"),
    },
}
#: What the player's turn offers the keyboard.
MOVES = "#hand .tile-button, #hand .ends-choice button, #hand #draw, #hand #pass"
#: What the page offers now, in one look: the match's end, "I'm back", the next hand, moves.
SHOWN = """moves => ({over: !!document.querySelector('#status .match-result'),
  back: !!document.querySelector('#im-back'), next: !!document.querySelector('#next-hand'),
  moves: !!document.querySelector(moves)})"""
#: Every text the live region has said, from now on.
LISTEN = """() => {
  window.said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => window.said.push(region.textContent.replace(/\\s+/g, ' ').trim()))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


def focused(page: Any, selector: str) -> bool:
    return bool(page.evaluate("s => !!document.activeElement?.matches(s)", selector))


#: Whether the focus is on an element matching the selector, and whether the page has one.
WHERE = "s => [!!document.activeElement?.matches(s), !!document.querySelector(s)]"


def tab_to(page: Any, selector: str, tries: int = 120) -> bool:
    """Press Tab until the focus is on an element matching ``selector``; False if the
    page offers none (any more: the computer may have moved meanwhile).  One look at
    the page a press: a match is some thousand presses."""
    for _ in range(tries):
        there, offered = page.evaluate(WHERE, selector)
        if there:
            return True
        if not offered:
            return False
        page.keyboard.press("Tab")
    return focused(page, selector)


class Commands:
    """Enter on what sends a command, at a player's pace: within the site's limit
    (``WS_COMMANDS_PER_SECOND``), however fast the test's computer answers; past it,
    the site says "slow down" and takes nothing (six draws in a row and a tile did)."""

    def __init__(self) -> None:
        self.sent = 0.0

    def enter(self, page: Any) -> None:
        wait = self.sent + 1 / WS_COMMANDS_PER_SECOND - time.monotonic()
        if wait > 0:
            page.wait_for_timeout(wait * 1000)
        page.keyboard.press("Enter")
        self.sent = time.monotonic()


def press_enter_on(page: Any, selector: str, commands: Commands) -> bool:
    """Tab to ``selector`` and press Enter; True once the table moved on."""
    before = table_version(page)
    if not tab_to(page, selector):
        return False
    commands.enter(page)
    moved_past(page, before)
    return True


def moved_on(page: Any, before: int, shot: Path, pressed: str) -> None:
    """Wait for the table to move past ``before``; if it does not, say what the page
    showed (its note, its live region, where the focus was), with a screenshot."""
    try:
        moved_past(page, before)
    except Exception:
        page.screenshot(path=shot, full_page=True)
        shown = page.evaluate(
            """() => ({flash: document.getElementById('flash')?.textContent.trim(),
                said: (window.said || []).slice(-3),
                focus: document.activeElement?.outerHTML.slice(0, 200),
                version: document.querySelector('#table-head').dataset.version,
                turn: !!document.querySelector('#hand .my-turn')})"""
        )
        raise AssertionError(f"Enter on {pressed!r} did not move the table on: {shown}") from None


def tile_names(tile: str, words: dict[str, Any]) -> set[str]:
    """How the live region may name ``tile`` ("6|4"): either half first, a double once."""
    a, b = (words["numbers"][int(n)] for n in tile.split("|"))
    return {words["double"].format(a)} if a == b else {f"{a}–{b}", f"{b}–{a}"}


def said_since(page: Any, start: int) -> list[str]:
    found: list[str] = page.evaluate("n => window.said.slice(n)", start)
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_a_match_played_with_the_keyboard_alone_to_its_end(
    browser: Any, live_site: LiveSite, artifacts: Path, size: str
) -> None:
    viewport, locale = SIZES[size]
    words = WORDS[locale]
    errors: list[str] = []
    page = new_page(browser, viewport, errors, locale=locale, reduced_motion="reduce")
    page.goto(f"{live_site.url}/new/?preset=duello")
    page.wait_for_load_state("networkidle")
    assert tab_to(page, "select[name=target]")
    page.keyboard.press("Home")  # the shortest match the game allows: 50 points
    assert page.locator("select[name=target]").input_value() == "50"
    assert tab_to(page, "#table-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))
    page.wait_for_selector("#board .line")
    # the forced moves too are the player's here: draws and passes by the keyboard
    assert tab_to(page, "#forced-moves")
    page.keyboard.press("Enter")
    page.wait_for_selector('#forced-moves[aria-pressed="false"]')
    page.evaluate(LISTEN)
    kinds: set[str] = set()
    kept: list[str] = []  # where the focus was after each move of the player's
    heard: list[tuple[str, str]] = []  # (what the player played, what the region said)
    commands = Commands()
    deadline = time.monotonic() + 240
    while not (shown := page.evaluate(SHOWN, MOVES))["over"]:
        assert time.monotonic() < deadline, "the match did not end"
        if shown["back"]:
            press_enter_on(page, "#im-back", commands)
            kinds.add("back")
        elif shown["next"]:
            if press_enter_on(page, "#next-hand", commands):
                kinds.add("next")
        elif shown["moves"] and tab_to(page, MOVES):
            target = page.evaluate(
                "() => document.activeElement.id || document.activeElement.className"
            )
            tile = page.evaluate(
                "() => document.activeElement.closest('[data-tile]')?.dataset.tile || ''"
            )
            start = len(said_since(page, 0))
            if "tile-select" in target:  # a tile that fits both ends: Enter, then an end
                page.keyboard.press("Enter")
                end = "#hand .my-tile.selected .ends-choice button"
                if not tab_to(page, end):
                    continue
                side = "left" if focused(page, ".end-left") else "right"
                before = table_version(page)
                commands.enter(page)
                kinds.add("end")
            else:
                side = ""
                before = table_version(page)
                commands.enter(page)
                kinds.add("draw" if target == "draw" else "pass" if target == "pass" else "tile")
            moved_on(page, before, artifacts / f"keyboard-stuck-{size}.png", target)
            if tile:
                mine = [s for s in said_since(page, start) if s.startswith(f"{words['you']}:")]
                heard += [(f"{tile} {side}", mine[0])] if mine else []
                # it says the tile by name, and the end it went on (the first: an opening)
                if mine:
                    ways = {words[w] for w in ((side,) if side else ("left", "right", "opening"))}
                    assert any(
                        mine[0].startswith(f"{words['you']}: {way} {name}.")
                        for way in ways
                        for name in tile_names(tile, words)
                    ), (tile, side, mine)
            # the frame replaced the hand: the focus is where the player was (the hand,
            # or what the table says once the hand is over), not back at the page's top
            kept.append(
                page.evaluate(
                    "() => document.activeElement.closest('#hand, #status')?.id"
                    " || document.activeElement.tagName"
                )
            )
        else:
            page.wait_for_timeout(100)
        animating = page.evaluate(
            "() => document.getAnimations().filter(a => a.playState === 'running').length"
        )
        assert animating == 0  # reduced motion: the last tile does not fly in
    page.screenshot(path=artifacts / f"keyboard-match-end-{size}.png", full_page=True)
    # the next hand by the keyboard too, unless the first hand alone reached the 50 points
    hands = int(re.sub(r"\D", "", page.locator("#board .hand-no").inner_text()))
    assert "tile" in kinds and ("next" in kinds or hands == 1), (kinds, hands)
    assert kept and set(kept) <= {"hand", "status"}, kept
    # the live region said the player's own moves, and whose turn, and the open ends
    assert heard, page.evaluate("() => window.said")
    everything = page.evaluate("() => window.said")
    assert any(words["your turn"] in s for s in everything), everything
    assert any(s.find(e) >= 0 for s in everything for e in words["ends"]), everything
    # the end screen is in view and names the match's end in the player's language
    result = page.locator("#status .match-result")
    assert result.is_visible()
    page.context.close()
    assert errors == []
