"""A match against the computer played with the keyboard alone (Tab and Enter: the
settings, every tile and end, draws and passes, the next hand), the focus kept where
it was as frames replace regions, and what the polite live region says after a move,
in the player's language; with reduced motion asked for, nothing animates."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, LiveSite, wait_for
from .pages import new_page

pytestmark = pytest.mark.browser

#: What the player's turn offers the keyboard.
MOVES = "#hand .tile-button, #hand .ends-choice button, #hand #draw, #hand #pass"
#: Every text the live region has said, from now on.
LISTEN = """() => {
  window.said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => window.said.push(region.textContent))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


def focused(page: Any, selector: str) -> bool:
    return bool(page.evaluate("s => !!document.activeElement?.matches(s)", selector))


def tab_to(page: Any, selector: str, tries: int = 120) -> bool:
    """Press Tab until the focus is on an element matching ``selector``; False if the
    page offers none (any more: the computer may have moved meanwhile)."""
    for _ in range(tries):
        if focused(page, selector):
            return True
        if page.locator(selector).count() == 0:
            return False
        page.keyboard.press("Tab")
    return focused(page, selector)


def version(page: Any) -> int:
    return int(page.locator("#table-head").get_attribute("data-version"))


def press_enter_on(page: Any, selector: str) -> bool:
    """Tab to ``selector`` and press Enter; True once the table moved on."""
    before = version(page)
    if not tab_to(page, selector):
        return False
    page.keyboard.press("Enter")
    wait_for(page, "v => +document.querySelector('#table-head').dataset.version > v", before)
    return True


def test_a_match_played_with_the_keyboard_alone_to_its_end(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors, locale="en-GB", reduced_motion="reduce")
    page.goto(f"{live_site.url}/new/?preset=duello")
    page.wait_for_load_state("networkidle")
    assert tab_to(page, "select[name=target]")
    page.keyboard.press("Home")  # the shortest match the game allows: 50 points
    assert page.locator("select[name=target]").input_value() == "50"
    assert tab_to(page, "#table-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/\w+/$"))
    page.wait_for_selector("#board .line")
    # the forced moves too are the player's here: draws and passes by the keyboard
    assert tab_to(page, "#forced-moves")
    page.keyboard.press("Enter")
    page.wait_for_selector('#forced-moves[aria-pressed="false"]')
    page.evaluate(LISTEN)
    kinds: set[str] = set()
    kept, lost = 0, 0
    heard: list[str] = []
    deadline = time.monotonic() + 240
    while not page.locator("#status .match-result").count():
        assert time.monotonic() < deadline, "the match did not end"
        if page.locator("#im-back").count():
            press_enter_on(page, "#im-back")
            kinds.add("back")
        elif page.locator("#next-hand").count():
            if press_enter_on(page, "#next-hand"):
                kinds.add("next")
        elif page.locator(MOVES).count() and tab_to(page, MOVES):
            target = page.evaluate(
                "() => document.activeElement.id || document.activeElement.className"
            )
            if "tile-select" in target:  # a tile that fits both ends: Enter, then an end
                page.keyboard.press("Enter")
                if press_enter_on(page, "#hand .my-tile.selected .ends-choice button"):
                    kinds.add("end")
                continue
            before = version(page)
            page.keyboard.press("Enter")
            wait_for(
                page, "v => +document.querySelector('#table-head').dataset.version > v", before
            )
            kinds.add("draw" if target == "draw" else "pass" if target == "pass" else "tile")
            laid = page.evaluate("() => window.said.slice()")
            heard += [s for s in laid if s.startswith("You:")]
            # the frame replaced the hand: the focus is still in the table, not on the page
            inside = page.evaluate("() => !!document.activeElement.closest('.table-live')")
            kept, lost = kept + inside, lost + (not inside)
        else:
            page.wait_for_timeout(100)
        animating = page.evaluate(
            "() => document.getAnimations().filter(a => a.playState === 'running').length"
        )
        assert animating == 0  # reduced motion: the last tile does not fly in
    page.screenshot(path=artifacts / "keyboard-match-end.png", full_page=True)
    assert {"tile", "next"} <= kinds, kinds
    assert lost == 0 and kept > 0
    # the live region said the player's own moves, tiles by name, and the open ends
    assert heard, page.evaluate("() => window.said")
    assert any(
        re.search(r"You: (opening|on the (left|right)) (\w+–\w+|double \w+)\.", s) for s in heard
    )
    assert any("Open ends:" in s or "Both ends:" in s for s in page.evaluate("() => window.said"))
    assert errors == []
