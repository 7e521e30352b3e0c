"""The waiting screen, then the table and the home page, in a real browser (issue 28,
items 4 and 8): four in pairs with seven tiles is described as the block game the
table plays, on the waiting screen, at the table and on the home page's list, and the
game is named by its real mode (online, completed by simulated players)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite
from .pages import choose, log_in, make_players, new_page

pytestmark = pytest.mark.browser

SETTINGS = "4 giocatori in coppia · 7 tessere a testa · a blocco · a 100 punti"


def test_four_in_pairs_of_seven_is_a_block_game_from_the_queue_to_the_table(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    base, errors = live_site.url, []
    make_players(live_site, "ivo_words")
    page = new_page(browser, PHONE, errors)
    log_in(page, base, "ivo_words")
    page.goto(f"{base}/online/")
    choose(page, "preset", "domino")
    choose(page, "seating", "4p")
    choose(page, "hand_size", "7")
    page.click("#play-online")
    page.wait_for_url(f"{base}/online/queue/")
    label = page.locator("#queue-status .pool-label").inner_text()
    assert label == f"Domino · {SETTINGS}"
    page.screenshot(path=artifacts / "words-waiting-phone.png", full_page=True)

    page.wait_for_url(f"{base}/t/**", timeout=30_000)  # simulated players complete the room
    page.wait_for_selector("#board .line")
    assert page.locator("#table-head h1").inner_text() == "Online, con giocatori simulati · Domino"
    assert page.locator("#table-head .settings").inner_text() == SETTINGS
    page.screenshot(path=artifacts / "words-table-phone.png", full_page=True)

    home = new_page(browser, DESKTOP, errors)
    log_in(home, base, "ivo_words")
    title = home.locator("#in-progress .game-title").first.inner_text()
    assert title == "Online, con giocatori simulati · Domino"
    home.screenshot(path=artifacts / "words-my-games-desktop.png")
    page.context.close()
    home.context.close()
    assert [e for e in errors if "WebSocket" not in e] == []
