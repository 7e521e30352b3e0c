"""The offline game plays the player's only move for them after a second, as the site's
tables do (``games.forced``: the same decision, the same countdown), and the player's
choice to play them themselves is kept in this browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveSite, wait_for
from .pages import MY_MOVES
from .test_offline_game import head_version, start_offline, watch

pytestmark = pytest.mark.browser

SIZES = {"360x640": {"width": 360, "height": 640}, "1280x800": {"width": 1280, "height": 800}}
COUNTDOWN = "#status .countdown.forced"
CHOICES = "JSON.parse(localStorage.getItem('domino.offline.choices'))"


def to_a_forced_turn(page: Any) -> int:
    """Play (the first move offered, the next hand) until the player's turn comes with
    a single legal move; that turn's version."""
    for _ in range(200):
        page.wait_for_selector(
            '#table-head[data-your-turn="1"], #next-hand, #rematch', timeout=60_000
        )
        seen = head_version(page)
        if page.locator(COUNTDOWN).count():
            return seen
        if page.locator("#rematch").count():
            page.click("#rematch")
        elif page.locator("#next-hand").count():
            page.click("#next-hand")
        else:
            page.locator(MY_MOVES).first.click()
        wait_for(
            page,
            f"+document.querySelector('#table-head').dataset.version > {seen}",
            timeout=30_000,
        )
    raise AssertionError("no forced turn in 200 moves")


def test_offline_the_players_only_move_is_played_for_them_after_a_second(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=SIZES["360x640"], device_scale_factor=1)
    page = watch(context.new_page(), errors)
    start_offline(page, live_site.url, preset="domino", bot_level="easy")
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        version = to_a_forced_turn(page)
        countdown = page.locator(COUNTDOWN)
        assert "La tua unica mossa: giocata per te tra" in countdown.inner_text()
        assert page.locator("#forced-moves").get_attribute("aria-pressed") == "true"
        page.screenshot(path=artifacts / f"offline-forced-{size}.png")
        # nobody clicks: the move is played all the same, and the log says how
        wait_for(
            page,
            f"+document.querySelector('#table-head').dataset.version > {version}",
            timeout=15_000,
        )
        assert "giocata in automatico" in page.locator("#log").inner_text()
    # turned off, it stays off in this browser (the worker then sets no countdown:
    # tests/offline/test_offline_table.py)
    page.click("#forced-moves")
    wait_for(page, "document.querySelector('#forced-moves').ariaPressed === 'false'")
    assert page.evaluate(CHOICES)["plays_forced_moves"] is False
    page.reload()
    page.wait_for_selector("#offline-table #forced-moves", timeout=120_000)
    assert page.locator("#forced-moves").get_attribute("aria-pressed") == "false"
    assert page.evaluate(CHOICES)["plays_forced_moves"] is False
    context.close()
    assert errors == []


def test_offline_the_table_as_text_takes_typed_commands(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=SIZES["360x640"], device_scale_factor=1)
    page = watch(context.new_page(), errors)
    page.goto(f"{live_site.url}/offline/")
    page.evaluate(
        "localStorage.setItem('domino.offline.choices',"
        " JSON.stringify({plays_forced_moves: false}))"
    )
    start_offline(page, live_site.url, preset="duello", bot_level="easy")
    page.wait_for_selector('#table-head[data-your-turn="1"]', timeout=60_000)
    page.click("#text-mode")
    box = page.locator("#command")
    box.wait_for(timeout=30_000)
    assert page.evaluate(CHOICES)["text_mode"] is True
    box.fill("mano")
    box.press("Enter")
    page.wait_for_selector("#flash .flash.info", timeout=30_000)
    assert "Le tue tessere:" in page.locator("#flash").inner_text()
    assert box.input_value() == ""  # emptied for the next command
    # a move typed: the first the hand offers, in words
    seen = head_version(page)
    offered = page.locator("#hand .tile-button, #hand .tile-select, #hand #draw, #hand #pass")
    first = offered.first
    if first.get_attribute("id") in ("draw", "pass"):
        words = "pesca" if first.get_attribute("id") == "draw" else "passo"
    else:
        tile = first.locator("xpath=ancestor::li[1]").get_attribute("data-tile")
        high, low = tile.split("|")
        ends = first.locator("xpath=ancestor::li[1]").locator(".ends-choice button").count()
        words = f"gioca {high} {low}" + (" sinistra" if ends > 1 else "")
    box.fill(words)
    box.press("Enter")
    wait_for(
        page, f"+document.querySelector('#table-head').dataset.version > {seen}", timeout=30_000
    )
    page.screenshot(path=artifacts / "offline-text-360x640.png", full_page=True)
    context.close()
    assert errors == []
