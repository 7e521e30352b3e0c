"""The game against the computer with no connection, in Chromium: installed by one
visit (the service worker keeps the page, the engine and Pyodide), played with the
network off, resumed exactly after a reload, and drawn like the site's own table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite, wait_for
from .pages import MY_MOVES

pytestmark = pytest.mark.browser

READY = "document.documentElement.dataset.offlineReady === '1'"


def watch(page: Any, errors: list[str]) -> Any:
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def installed(browser: Any, base: str, viewport: dict[str, int], errors: list[str]) -> Any:
    """A page of a browser that visited the site once: its service worker holds the
    offline game's files."""
    context = browser.new_context(viewport=viewport, device_scale_factor=1, service_workers="allow")
    page = watch(context.new_page(), errors)
    page.goto(f"{base}/")
    wait_for(page, "navigator.serviceWorker.controller !== null", timeout=120_000)
    return page


def start_offline(page: Any, base: str, **choices: str) -> None:
    page.goto(f"{base}/offline/")
    wait_for(page, READY, timeout=120_000)  # Pyodide: seconds, more on a busy machine
    for name, value in choices.items():
        page.select_option(f"#offline-form [name={name}]", value)
    page.click("#offline-start")
    page.wait_for_selector("#offline-table #hand", state="attached", timeout=120_000)


def my_turn(page: Any) -> None:
    page.wait_for_selector('#table-head[data-your-turn="1"]', timeout=60_000)


def head_version(page: Any) -> int:
    return int(page.locator("#table-head").get_attribute("data-version"))


def position(page: Any) -> dict[str, str]:
    return {
        "version": page.locator("#table-head").get_attribute("data-version"),
        "hand": page.locator("#hand").inner_html(),
        "line": page.locator("#board .line").inner_html(),
        "seats": page.locator("#seats").inner_html(),
    }


def test_after_one_visit_a_game_is_played_and_resumed_with_the_network_off(
    browser: Any, live_site: LiveSite
) -> None:
    errors: list[str] = []
    base = live_site.url
    page = installed(browser, base, PHONE, errors)
    context = page.context
    # the player plays every move: none played for them between the look and the reload
    page.evaluate(
        "localStorage.setItem('domino.offline.choices',"
        " JSON.stringify({plays_forced_moves: false}))"
    )
    start_offline(page, base, preset="duello", bot_level="easy")
    reached: list[str] = []  # what the network answered, not the service worker
    context.on("response", lambda r: None if r.from_service_worker else reached.append(r.url))
    context.set_offline(True)
    page.reload()  # the page, the engine and Pyodide: all from the browser
    page.wait_for_selector("#offline-table #hand", state="attached", timeout=120_000)
    my_turn(page)
    before = head_version(page)
    while True:  # a move that hands the turn over (a draw keeps it: draw again)
        move = page.locator(MY_MOVES).first
        drawing = move.get_attribute("id") == "draw"
        seen = head_version(page)
        move.click()
        wait_for(
            page, f"+document.querySelector('#table-head').dataset.version > {seen}", timeout=30_000
        )
        if not drawing:
            break
        my_turn(page)
    my_turn(page)  # the computer answered, in the page's worker
    mid_hand = position(page)
    assert int(mid_hand["version"]) >= before + 2
    page.reload()
    page.wait_for_selector("#offline-table #hand .my-tile", timeout=120_000)
    assert position(page) == mid_hand  # exactly where it was
    assert (
        page.locator("#table-head h1")
        .inner_text()
        .lower()
        .startswith("contro il computer, senza connessione")
    )
    assert reached == []
    assert errors == []
    context.close()


def test_the_offline_table_looks_like_the_sites_own(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    """Screenshots of both tables at a phone's size and a desktop's, and the same
    regions in the same places (the same templates and style sheet draw both)."""
    errors: list[str] = []
    base = live_site.url
    for size, viewport in (("390x844", PHONE), ("1280x800", {**DESKTOP, "height": 800})):
        context = browser.new_context(viewport=viewport, device_scale_factor=1)
        online = watch(context.new_page(), errors)
        online.goto(f"{base}/")
        online.click("#quick-play")  # domino for two, 7 tiles, to 100, medium
        online.wait_for_selector("#hand .my-tile", timeout=30_000)
        # both players play their forced moves themselves: the two tables stay at their
        # start while the offline one loads (the deal's grace keeps the first one waiting)
        online.click('#forced-moves[aria-pressed="true"]')
        online.wait_for_selector('#forced-moves[aria-pressed="false"]')
        online.evaluate("window.scrollTo(0, 0)")  # the button is below: back to the top
        offline = watch(context.new_page(), errors)
        offline.goto(f"{base}/")
        offline.evaluate(
            "localStorage.setItem('domino.offline.choices',"
            " JSON.stringify({plays_forced_moves: false}))"
        )
        start_offline(offline, base, bot_level="medium")
        offline.wait_for_selector("#hand .my-tile", timeout=30_000)
        for page in (online, offline):
            # my turn: after the computer's opening, if it had the double
            page.wait_for_selector('#table-head[data-your-turn="1"]', timeout=30_000)
            page.mouse.move(0, 0)
        online.screenshot(path=str(artifacts / f"online-table-{size}.png"))
        offline.screenshot(path=str(artifacts / f"offline-table-{size}.png"))
        # where each region's middle is; the boxes sized by the layout, their widths too
        # (a seat's box and the prompt are as wide as the names and words they hold)
        for region in ("#table-head", "#board", "#status", "#hand", ".seat.pos-top", "#scores"):
            a = online.locator(region).bounding_box()
            b = offline.locator(region).bounding_box()
            assert a is not None and b is not None, region
            middle = abs(a["x"] + a["width"] / 2 - b["x"] - b["width"] / 2)
            assert middle < 24 and abs(a["y"] - b["y"]) < 90, (size, region)
            if region in ("#table-head", "#board", "#scores"):
                assert abs(a["width"] - b["width"]) < 24, (size, region)
        context.close()
    assert errors == []


def test_a_finished_game_is_kept_in_the_history_and_played_again(
    browser: Any, live_site: LiveSite
) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    page = watch(context.new_page(), errors)
    page.on("dialog", lambda dialog: dialog.accept())
    start_offline(page, live_site.url, preset="blocco", bot_level="easy")  # one hand
    for _ in range(40):
        page.wait_for_selector('#table-head[data-your-turn="1"], #rematch', timeout=60_000)
        if page.locator("#rematch").count():
            break
        version = page.locator("#table-head").get_attribute("data-version")
        page.locator(MY_MOVES).first.click()
        wait_for(
            page, "(v) => document.querySelector('#table-head').dataset.version !== v", arg=version
        )
    assert page.locator(".match-result h2").inner_text()  # won, lost or drawn, in words
    page.click("#rematch")  # the same settings, a new game
    page.wait_for_selector('#table-head[data-version="0"]', timeout=30_000)
    assert "blocco" in page.locator("#table-head h1").inner_text().lower()
    page.click("#offline-new")
    history = page.locator("#offline-history li")
    assert history.count() == 1
    assert history.first.inner_text().startswith("Domino a blocco · 2 giocatori")
    assert errors == []
    context.close()
