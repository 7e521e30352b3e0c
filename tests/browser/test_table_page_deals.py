"""The table page's deals in a real browser: the deal's commitment is on the board
before the first move, the browser adds its seed to the next deal, the seed is revealed
when the hand is over and the hand's verify page checks it."""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import manage_last_line

from .conftest import PHONE, LiveSite, wait_for
from .pages import new_page, play_until_the_hand_ends

pytestmark = pytest.mark.browser

HEX64 = re.compile(r"[0-9a-f]{64}")
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def seeds_received(env: dict[str, str], code: str) -> str:
    """The seeds the server holds for the table's next deal, or mixed into its second hand."""
    query = f"""
from games.models import ClientSeed, Hand
sent = list(ClientSeed.objects.filter(table__code="{code}").values_list("seed", flat=True))
second = Hand.objects.filter(table__code="{code}", number=1).first()
print(",".join(sent + ([s for _seat, s in second.client_seeds] if second else [])) or "-")
"""
    return manage_last_line(env, "shell", "-c", query)


def test_the_commitment_is_shown_before_the_first_move_and_the_seed_after_the_end(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    page.goto(live_site.url)
    page.select_option("select[name=level]", "easy")
    page.click("#quick-play")
    page.wait_for_selector("#deal [data-commitment]")
    code = re.search(r"/t/([\w-]+)/$", page.url).group(1)  # type: ignore[union-attr]
    shown = page.locator("#deal [data-commitment]").get_attribute("data-commitment")
    assert HEX64.fullmatch(shown) and page.locator("[data-seed]").count() == 0
    assert "Impegno della distribuzione" in page.locator("#deal").inner_text()
    assert page.evaluate(FITS)  # the long hex does not widen the phone's page

    # The browser adds a seed of its own to the next deal, and the server has it.
    upcoming = page.locator("#deal").get_attribute("data-next-commitment")
    assert HEX64.fullmatch(upcoming) and upcoming != shown
    wait_for(page, "c => !!localStorage.getItem('domino-seed:' + c)", arg=upcoming)
    mine = page.evaluate("c => localStorage.getItem('domino-seed:' + c)", upcoming)
    for _ in range(50):
        if mine in seeds_received(live_site.env, code):
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the server did not receive the browser's seed")

    play_until_the_hand_ends([page])
    seed = page.locator("#status [data-seed]").get_attribute("data-seed")
    assert HEX64.fullmatch(seed)
    assert hashlib.sha256(f"domino-commit-v1:{code}:1:{seed}".encode()).hexdigest() == shown
    page.locator("#status .deal-reveal").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "deal-revealed-phone.png", full_page=True)

    page.click("#status .deal-reveal a")
    page.wait_for_selector("#verdict.ok")
    page.wait_for_load_state("domcontentloaded")  # verify.js is deferred: it has run by then
    assert page.locator("[data-seen]").is_visible()  # this browser saw that commitment
    assert seed in page.locator(".proof").inner_text()
    assert page.evaluate(FITS)
    page.screenshot(path=artifacts / "hand-verified-phone.png", full_page=True)
    assert errors == []
