"""Ratings in real browsers, a desktop and a phone: two players meet in the online pool,
play a rated duel to its end and both see each person's rating change on the end screen;
the phone's player then finds the rating chart (and its table) on their profile."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite
from .pages import choose, new_page, play_if_my_turn, sign_up

pytestmark = pytest.mark.browser


def join_the_blocco_duel_pool(page: Any, base: str) -> None:
    page.goto(f"{base}/online/")
    assert page.locator("#your-ratings [data-format=duel]").inner_text() == "1500?"
    choose(page, "preset", "blocco")
    choose(page, "seating", "2")
    page.click("#play-online")


def test_a_rated_duel_shows_both_changes_and_the_profile_charts_the_rating(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna, bruno = new_page(browser, DESKTOP, errors), new_page(browser, PHONE, errors)
    sign_up(anna, base, "anna_rated")
    sign_up(bruno, base, "bruno_rated")
    join_the_blocco_duel_pool(anna, base)
    anna.wait_for_url(f"{base}/online/queue/")
    join_the_blocco_duel_pool(bruno, base)
    for page in (anna, bruno):
        page.wait_for_url(re.compile(r"/t/[\w-]+/$"), timeout=15_000)
        page.wait_for_selector("#board .line", timeout=15_000)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if all(p.locator("#status .match-result").count() for p in (anna, bruno)):
            break
        if not any(play_if_my_turn(p) for p in (anna, bruno)):
            time.sleep(0.2)
    else:
        raise AssertionError("the rated game did not end")
    changes = {}
    for name, page in (("anna", anna), ("bruno", bruno)):
        page.wait_for_selector("#status #rating-changes")
        rows = page.locator("#rating-changes tbody tr")
        assert rows.count() == 2
        changes[name] = [
            (row.locator("th").inner_text(), row.locator(".change").inner_text())
            for row in rows.all()
        ]
        assert all(re.fullmatch(r"[+−±]\d+", change) for _, change in changes[name])
    # each sees both people's changes, their own under "Tu" (Italian, the default)
    assert {n for n, _ in changes["anna"]} == {"Tu", "bruno_rated"}
    assert sorted(c for _, c in changes["anna"]) == sorted(c for _, c in changes["bruno"])
    anna.screenshot(path=artifacts / "ratings-end-desktop.png", full_page=True)
    bruno.locator("#rating-changes").scroll_into_view_if_needed()
    bruno.screenshot(path=artifacts / "ratings-end-phone.png", full_page=True)

    bruno.goto(f"{base}/accounts/me/")
    chart = bruno.locator("#chart-duel svg")
    chart.wait_for()
    box = chart.bounding_box()
    assert box is not None and box["x"] > 0 and box["x"] + box["width"] <= PHONE["width"]
    assert chart.locator("circle.point").count() == 2  # from 1500 to after the game
    listed = bruno.locator("#chart-duel-table td.value").all_inner_texts()
    drawn = [c.get_attribute("data-value") for c in chart.locator("circle.point").all()]
    assert [re.sub(r"\D", "", v) for v in listed] == drawn
    assert bruno.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bruno.locator("#ratings").scroll_into_view_if_needed()
    bruno.screenshot(path=artifacts / "ratings-profile-phone.png", full_page=True)
    bruno.goto(f"{base}/ratings/duel/")
    bruno.screenshot(path=artifacts / "ratings-leaderboard-phone.png", full_page=True)
    for page in (anna, bruno):
        page.context.close()
    assert [e for e in errors if "WebSocket" not in e] == []
