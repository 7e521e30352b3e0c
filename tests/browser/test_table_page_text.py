"""The table as text with typed commands, in a real browser: chosen at the table, the
text read, a bad command refused with a clear message and nothing changed, a move typed
and played, the box keeping the focus across the frames."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, LiveSite, wait_for
from .pages import new_page

pytestmark = pytest.mark.browser


def version(page: Any) -> int:
    return int(page.locator("#table-head").get_attribute("data-version"))


def command(page: Any, text: str) -> None:
    page.locator("#command").fill(text)
    page.keyboard.press("Enter")


def test_a_move_typed_is_played_and_a_bad_one_changes_nothing(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors, locale="en-GB")
    page.goto(f"{live_site.url}/new/?preset=blocco")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("#board .line")
    page.click("#forced-moves")  # the player's moves are all typed here
    page.wait_for_selector('#forced-moves[aria-pressed="false"]')
    page.click("#text-mode")
    page.wait_for_selector("#text #command")
    text = page.locator("#text").inner_text()
    assert "The table as text" in text and "Your tiles:" in text
    page.locator("#command").focus()
    command(page, "hand")
    page.wait_for_selector("#flash .flash.info")
    assert page.locator("#flash .flash").inner_text().startswith("Your tiles:")
    page.wait_for_selector('#table-head[data-your-turn="1"]', timeout=30_000)
    before = version(page)
    command(page, "play 9 9 left")
    page.wait_for_selector("#flash .flash.error")
    assert "Say the tile and the end" in page.locator("#flash .flash").inner_text()
    assert version(page) == before  # nothing changed
    if page.locator("#hand #pass").count():
        typed, said = "pass", r"You: passed on"
    else:
        tile = page.locator("#hand .my-tile.playable").first.get_attribute("data-tile")
        high, low = tile.split("|")
        ends = page.locator(f'#hand .my-tile[data-tile="{tile}"] .ends-choice button').count()
        typed, said = f"play {high} {low}" + (" left" if ends else ""), r"You: (opening|on the)"
    command(page, typed)
    wait_for(page, "v => +document.querySelector('#table-head').dataset.version > v", before)
    lines = page.locator("#log .events li").all_inner_texts()
    assert any(re.match(said, " ".join(line.split())) for line in lines), (typed, lines)
    # the box is where the player types: still focused, empty, after the frames
    wait_for(page, "() => document.activeElement?.id === 'command'")
    assert page.locator("#command").input_value() == ""
    page.screenshot(path=artifacts / "text-mode-desktop.png", full_page=True)
    assert errors == []
