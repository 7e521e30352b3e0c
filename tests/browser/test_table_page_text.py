"""The table as text with typed commands, in a real browser on two phones and a desktop,
in the player's language: chosen at the table, the text read, a bad command refused with
a clear message and nothing changed, a move typed (in the page's words) and played, the
box keeping the focus across the frames and in view, nothing scrolled sideways."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveSite, wait_for
from .pages import SIZES_IN_LANGUAGES as SIZES
from .pages import moved_past, new_page, table_version

pytestmark = pytest.mark.browser

#: What the page says and what the player types, in each language.
WORDS = {
    "en-GB": {
        "title": "The table as text",
        "tiles": "Your tiles:",
        "bad": "Say the tile and the end",
        "hand": "hand",
        "play": "play",
        "left": "left",
        "pass": "pass",
        "passed": r"You: passed on",
        "played": r"You: (opening|on the (left|right))",
    },
    "it-IT": {
        "title": "Il tavolo come testo",
        "tiles": "Le tue tessere:",
        "bad": "Indica la tessera e l'estremità",
        "hand": "mano",
        "play": "gioca",
        "left": "sinistra",
        "pass": "passo",
        "passed": r"Tu: passo su",
        "played": r"Tu: (apertura|a (sinistra|destra))",
    },
}


def command(page: Any, text: str) -> None:
    page.locator("#command").fill(text)
    page.keyboard.press("Enter")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_move_typed_is_played_and_a_bad_one_changes_nothing(
    browser: Any, live_site: LiveSite, artifacts: Path, size: str
) -> None:
    viewport, locale = SIZES[size]
    words = WORDS[locale]
    errors: list[str] = []
    page = new_page(browser, viewport, errors, locale=locale)
    page.goto(f"{live_site.url}/new/?preset=blocco")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("#board .line")
    # the player's moves are all typed here; clicked at once, wherever the button is
    # (the computer's first moves may be sliding the page: a move would wait for them)
    page.locator("#forced-moves").dispatch_event("click")
    page.wait_for_selector('#forced-moves[aria-pressed="false"]')
    page.click("#text-mode")
    page.wait_for_selector("#text #command")
    text = page.locator("#text").inner_text()
    assert words["title"] in text and words["tiles"] in text, text
    page.locator("#command").focus()
    command(page, words["hand"])
    page.wait_for_selector("#flash .flash.info")
    assert page.locator("#flash .flash").inner_text().startswith(words["tiles"])
    page.wait_for_selector('#table-head[data-your-turn="1"]', timeout=30_000)
    before = table_version(page)
    command(page, f"{words['play']} 9 9 {words['left']}")
    page.wait_for_selector("#flash .flash.error")
    assert words["bad"] in page.locator("#flash .flash").inner_text()
    assert table_version(page) == before  # nothing changed
    if page.locator("#hand #pass").count():
        typed, said = words["pass"], words["passed"]
    else:
        tile = page.locator("#hand .my-tile.playable").first.get_attribute("data-tile")
        high, low = tile.split("|")
        ends = page.locator(f'#hand .my-tile[data-tile="{tile}"] .ends-choice button').count()
        typed = f"{words['play']} {high} {low}" + (f" {words['left']}" if ends else "")
        said = words["played"]
    command(page, typed)
    moved_past(page, before)
    lines = page.locator("#log .events li").all_inner_texts()
    assert any(re.match(said, " ".join(line.split())) for line in lines), (typed, lines)
    # the box is where the player types: still focused, empty, after the frames, and
    # whole on the screen (the page scrolled to it, nothing beyond the screen's sides)
    wait_for(page, "() => document.activeElement?.id === 'command'")
    assert page.locator("#command").input_value() == ""
    # read in one step in the page: the computer's next move may swap the region (and
    # the box with it) between a locator's finding the box and its measuring it
    box = page.evaluate(
        """() => { const r = document.getElementById('command').getBoundingClientRect();
                   return {x: r.x, width: r.width, height: r.height}; }"""
    )
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    assert box["height"] >= 44, box
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=artifacts / f"text-mode-{size}.png", full_page=True)
    page.context.close()
    assert errors == []
