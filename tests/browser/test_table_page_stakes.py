"""The table page at a 100-coin stake table in real browsers, a desktop and a phone: the
stake and the pot in the tab's title and the table's header while two players play it to
the end, what the end paid each of them in words and in their wallets, "another table at
this stake", and, nobody coming to that one, its cancellation and the stake refunded."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite, wait_for
from .pages import coins, new_page, play_if_my_turn, sign_up, sit_at_a_stake_table

pytestmark = pytest.mark.browser


def header_coins(page: Any) -> int:
    return int(re.sub(r"\D", "", page.locator("#header-coins").inner_text()))


def coins_paid(page: Any) -> int:
    """The coins the end screen says it paid this player (the pot, a refund, rewards)."""
    shown = page.locator("#payouts .payout:is(.pot, .refund, .coins) .amount").all_inner_texts()
    return sum(int(text.strip("+")) for text in shown)


def test_two_players_play_a_stake_table_to_the_end_and_a_table_nobody_joins_is_refunded(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    """One match played for both: what it shows while played and at its end, the wallets
    after it, and the next table's refund (each was a test playing a match of its own)."""
    errors: list[str] = []
    base = live_site.url
    anna, bruno = new_page(browser, DESKTOP, errors), new_page(browser, PHONE, errors)
    sign_up(anna, base, "anna_stake")
    sign_up(bruno, base, "bruno_stake")
    start = {"anna": coins(anna, base), "bruno": coins(bruno, base)}
    assert header_coins(anna) == start["anna"]  # the header, on every page
    anna.screenshot(path=artifacts / "stakes-lobby-desktop.png", full_page=True)
    sit_at_a_stake_table(anna, base)
    anna.wait_for_selector("#stake-info")
    anna.screenshot(path=artifacts / "stake-waiting-desktop.png", full_page=True)
    sit_at_a_stake_table(bruno, base)
    assert bruno.url == anna.url  # the same table
    for page in (anna, bruno):
        page.wait_for_selector("#board .line", timeout=15_000)
        # Italian, the site's default: "Stake 100 · pot 200"
        assert re.search(r"Posta\s+100\s+·\s+piatto\s+200", page.locator("#stake-pot").inner_text())
    playing = {"anna": header_coins(anna), "bruno": header_coins(bruno)}  # the stakes paid
    waiting = next(p for p in (anna, bruno) if p.locator("#status .your-turn").count() == 0)
    wait_for(waiting, "() => document.title.includes('Posta 100 · piatto 200')")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if all(p.locator("#status .match-result").count() for p in (anna, bruno)):
            break
        if not any(play_if_my_turn(p) for p in (anna, bruno)):
            time.sleep(0.2)
    else:
        raise AssertionError("the stake game did not end")
    for name, page in (("anna", anna), ("bruno", bruno)):
        page.wait_for_selector("#status #payouts")
        # the header's balance follows what the end paid, without a reload
        expected = playing[name] + coins_paid(page)
        wait_for(
            page,
            "n => document.querySelector('#header-coins').innerText.replace(/\\D/g, '') == n",
            arg=expected,
        )
    anna.screenshot(path=artifacts / "stake-end-desktop.png", full_page=True)
    bruno.screenshot(path=artifacts / "stake-end-phone.png", full_page=True)
    bruno.screenshot(path=artifacts / "stake-result-phone.png", full_page=True)
    won = {
        name: p.locator("#status .match-result.won").count() == 1
        for name, p in (("anna", anna), ("bruno", bruno))
    }
    said = {
        "anna": anna.locator("#payouts").inner_text(),
        "bruno": bruno.locator("#payouts").inner_text(),
    }
    if won["anna"] == won["bruno"]:  # a drawn hand: both stakes back
        for name in ("anna", "bruno"):
            assert "Le tue 100 monete sono tornate nel tuo portafoglio." in said[name]
    else:
        winner = "anna" if won["anna"] else "bruno"
        loser = "bruno" if winner == "anna" else "anna"
        assert "+200" in said[winner] and "Hai vinto 200 monete dal piatto." in said[winner]
        assert "+200" not in said[loser] and "Hai vinto" not in said[loser]
        assert "XP" in said[loser] and "punti lega" in said[loser]
    # the wallets: the winner's coins rose by the other's stake (a drawn hand: as before)
    end = {"anna": header_coins(anna), "bruno": coins(bruno, base)}
    for name in ("anna", "bruno"):
        if won["anna"] == won["bruno"]:
            assert end[name] == start[name]
        else:
            assert end[name] == start[name] + (100 if won[name] else -100), name

    # "Another table at this stake": one click, a new table at the same stake, the stake
    # paid; nobody comes: it is cancelled when its time runs out, and the stake is back.
    finished = anna.url
    anna.click("#sit-again")
    anna.wait_for_url(lambda url: url != finished and re.search(r"/t/[\w-]+/$", url) is not None)
    anna.wait_for_selector("#stake-info")
    assert re.search(r"Posta\s+100\s+·\s+piatto\s+100", anna.locator("#stake-pot").inner_text())
    assert coins(anna, base) == end["anna"] - 100
    anna.go_back()
    anna.wait_for_selector("#stake-info .countdown")
    anna.screenshot(path=artifacts / "stake-alone-desktop.png", full_page=True)
    anna.wait_for_selector("#lobby .payout.refund", timeout=30_000)  # nobody came: cancelled
    assert anna.locator("#lobby .flash.info").count() == 1  # time ran out
    assert (
        "Le tue 100 monete sono tornate nel tuo portafoglio." in anna.locator("#lobby").inner_text()
    )
    anna.screenshot(path=artifacts / "stake-cancelled-desktop.png", full_page=True)
    assert anna.locator("#sit-again").count() == 1  # and another try is one click away
    assert coins(anna, base) == end["anna"]
    assert header_coins(anna) == end["anna"]
    for page in (anna, bruno):
        page.context.close()
    assert errors == []
