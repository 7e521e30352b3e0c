"""Real browsers at a 100-coin stake table: two players play it to the end and the
winner's coins rise by the pot; a third sits alone and gets the stake back."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite
from .test_play_in_the_browser import new_page, play_if_my_turn, sign_up

pytestmark = pytest.mark.browser


def coins(page: Any, base: str) -> int:
    page.goto(f"{base}/coins/stakes/")
    text = page.locator("#stake-balance strong").inner_text()
    return int(re.sub(r"\D", "", text))


def sit_at_a_stake_table(page: Any, base: str) -> None:
    page.goto(f"{base}/coins/stakes/")
    page.select_option("select[name=preset]", "blocco")
    page.wait_for_selector("select[name=seating] option[value='2']", state="attached")
    page.select_option("select[name=seating]", "2")
    page.select_option("select[name=stake]", "100")
    page.click("#sit-stake")
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))


def test_two_players_play_a_stake_table_to_the_end_and_a_third_is_refunded(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna, bruno = new_page(browser, DESKTOP, errors), new_page(browser, PHONE, errors)
    sign_up(anna, base, "anna_stake")
    sign_up(bruno, base, "bruno_stake")
    start = {"anna": coins(anna, base), "bruno": coins(bruno, base)}
    anna.screenshot(path=artifacts / "stakes-lobby-desktop.png", full_page=True)
    sit_at_a_stake_table(anna, base)
    anna.wait_for_selector("#stake-info")
    anna.screenshot(path=artifacts / "stake-waiting-desktop.png", full_page=True)
    sit_at_a_stake_table(bruno, base)
    assert bruno.url == anna.url  # the same table
    for page in (anna, bruno):
        page.wait_for_selector("#board .line", timeout=15_000)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if all(p.locator("#status .match-result").count() for p in (anna, bruno)):
            break
        if not any(play_if_my_turn(p) for p in (anna, bruno)):
            time.sleep(0.2)
    else:
        raise AssertionError("the stake game did not end")
    bruno.screenshot(path=artifacts / "stake-result-phone.png", full_page=True)
    won = {"anna": anna.locator("#status .match-result.won").count() == 1}
    won["bruno"] = bruno.locator("#status .match-result.won").count() == 1
    end = {"anna": coins(anna, base), "bruno": coins(bruno, base)}
    for name in ("anna", "bruno"):
        if won["anna"] == won["bruno"]:  # a drawn hand gives the stakes back
            assert end[name] == start[name]
        else:
            assert end[name] == start[name] + (100 if won[name] else -100), name

    carla = new_page(browser, PHONE, errors)
    sign_up(carla, base, "carla_stake")
    before = coins(carla, base)
    sit_at_a_stake_table(carla, base)
    assert coins(carla, base) == before - 100
    carla.go_back()
    carla.wait_for_selector("#stake-info .countdown")
    carla.screenshot(path=artifacts / "stake-alone-phone.png", full_page=True)
    carla.wait_for_selector("#lobby .flash.info", timeout=30_000)  # cancelled: time ran out
    assert coins(carla, base) == before
    for page in (anna, bruno, carla):
        page.context.close()
    assert errors == []
