"""A friends' table in real browsers, a desktop (anna, the host) and a phone
(bruno): the next hand waits for everyone (who is ready shows), the host hands
an absent friend's seat to the computer and the friend takes it back, a closed
tab shows "offline", an invitation appears on the home page as it arrives, and a
rematch in one step seats everyone again in the same seats."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite, wait_for
from .pages import (
    log_in,
    new_friends_table,
    new_page,
    play_if_my_turn,
    play_until_the_hand_ends,
    sign_up,
    table_version,
    two_friends_playing,
)

pytestmark = pytest.mark.browser

OFFLINE = "#seats .seat[data-seat='{n}'] .tag.offline"


def test_the_next_hand_waits_for_both_players_and_each_sees_who_is_ready(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    anna, bruno = two_friends_playing(browser, live_site.url, errors, "nh", "duello", "300")
    play_until_the_hand_ends([anna, bruno])
    countdown = "#status .hand-result .countdown .seconds"
    for page in (anna, bruno):
        page.wait_for_selector(countdown)
        assert 5 <= int(page.locator(countdown).inner_text()) <= 20  # the real 20 s delay
        assert page.locator("#status .ready-marks li.reading").count() == 2

    anna.click("#next-hand")
    anna.wait_for_selector("#status .ready-wait")
    # bruno still reads the result, and sees that anna is ready
    bruno.wait_for_selector("#status .ready-marks li.ready")
    assert "anna_nh" in bruno.locator("#status .ready-marks li.ready").inner_text()
    assert bruno.locator("#status .hand-result .revealed li").count() == 2
    assert bruno.locator("#next-hand").is_visible()
    shown = int(bruno.locator(countdown).inner_text())
    wait_for(
        bruno,
        "s => +document.querySelector('#status .hand-result .countdown .seconds').textContent < s",
        arg=shown,
        timeout=3000,
    )  # the countdown runs
    bruno.screenshot(path=artifacts / "next-hand-waiting-phone.png", full_page=True)
    anna.screenshot(path=artifacts / "next-hand-ready-desktop.png", full_page=True)

    started = time.monotonic()
    bruno.click("#next-hand")  # the last one ready: the hand starts now, not at the countdown
    for page in (anna, bruno):
        page.wait_for_selector("#status .hand-result", state="detached", timeout=5000)
        page.wait_for_selector("#board .line")
    assert time.monotonic() - started < 5
    anna.screenshot(path=artifacts / "next-hand-started-desktop.png", full_page=True)
    for page in (anna, bruno):
        page.context.close()
    assert errors == []


def test_the_host_lets_the_computer_play_for_a_friend_who_takes_the_seat_back(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    anna, bruno = two_friends_playing(browser, live_site.url, errors, "bot", "duello", "300")
    anna.click("#seats .seat[data-seat='1'] .hand-to-bot")
    anna.wait_for_selector("#seats .seat[data-seat='1'] .tag.away")
    bruno.wait_for_selector("#status .away-banner #im-back")
    assert bruno.locator("#seats .seat.you .tag.away").count() == 1

    # the computer plays bruno's turn: anna never waits for him (a move of seat 1 since
    # the hand-over, read from there: it may come while anna's own move is answered)
    before = table_version(anna)
    deadline = time.monotonic() + 30
    while play_if_my_turn(anna):
        assert time.monotonic() < deadline
    wait_for(
        anna,
        "v => { const head = document.querySelector('#table-head');"
        " return +head.dataset.version > v && head.dataset.lastSeat === '1'; }",
        arg=before,
        timeout=15_000,
    )
    anna.screenshot(path=artifacts / "seat-to-computer-desktop.png", full_page=True)
    bruno.screenshot(path=artifacts / "seat-to-computer-phone.png", full_page=True)

    bruno.click("#im-back")
    anna.wait_for_selector("#seats .seat[data-seat='1'] .tag.away", state="detached")
    bruno.wait_for_selector("#status .away-banner", state="detached")
    assert bruno.locator("#hand .my-tile").count() >= 1
    bruno.screenshot(path=artifacts / "seat-taken-back-phone.png", full_page=True)
    for page in (anna, bruno):
        page.context.close()
    assert errors == []


def test_a_player_who_closes_the_tab_is_shown_offline_within_seconds(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna, bruno = two_friends_playing(browser, base, errors, "off", "duello", "300")
    anna.wait_for_selector(OFFLINE.format(n=1), state="detached")
    bruno.wait_for_selector(OFFLINE.format(n=0), state="detached")
    table_url = bruno.url

    bruno.context.close()  # the tab is gone
    started = time.monotonic()
    anna.wait_for_selector(OFFLINE.format(n=1), timeout=10_000)
    assert time.monotonic() - started < 5
    assert anna.locator(OFFLINE.format(n=0)).count() == 0  # never yourself
    # the host may hand the absent player's seat to the computer: a readable button on the card
    hand_over = anna.locator("#seats .seat[data-seat='1'] .hand-to-bot")
    assert hand_over.evaluate("b => getComputedStyle(b).color") != "rgb(255, 255, 255)"
    anna.screenshot(path=artifacts / "offline-desktop.png", full_page=True)

    bruno = new_page(browser, PHONE, errors)  # back, on the phone
    log_in(bruno, base, "bruno_off")
    bruno.goto(table_url)
    bruno.wait_for_selector("#board .line")
    anna.wait_for_selector(OFFLINE.format(n=1), state="detached", timeout=10_000)
    # and from bruno's side: anna closes hers
    anna.context.close()
    bruno.wait_for_selector(OFFLINE.format(n=0), timeout=10_000)
    bruno.screenshot(path=artifacts / "offline-phone.png", full_page=True)
    bruno.context.close()
    assert errors == []


@pytest.mark.parametrize("name,viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_an_invitation_appears_on_the_home_pages_panel_as_it_arrives(
    browser: Any, live_site: LiveSite, artifacts: Path, name: str, viewport: dict[str, int]
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna, bruno = new_page(browser, DESKTOP, errors), new_page(browser, viewport, errors)
    sign_up(anna, base, f"anna_inv{name[0]}")
    sign_up(bruno, base, f"bruno_inv{name[0]}")  # bruno stays on the home page
    panel = bruno.locator("#my-invitations")
    assert panel.locator("li").count() == 0
    new_friends_table(anna, base, "blocco")
    anna.fill("#invite-username", f"bruno_inv{name[0]}")
    anna.click("#lobby .invite button")

    panel.locator("li").first.wait_for(timeout=10_000)  # no reload
    assert f"anna_inv{name[0]}" in panel.inner_text() and "Domino a blocco" in panel.inner_text()
    toast = bruno.locator("#invite-toast .toast")
    assert f"anna_inv{name[0]}" in toast.inner_text() and "Domino a blocco" in toast.inner_text()
    toast.evaluate("t => Promise.all(t.getAnimations({subtree: true}).map(a => a.finished))")
    bruno.screenshot(path=artifacts / f"invitation-live-{name}.png", full_page=True)

    panel.locator("button.primary").click()  # Join, from the panel that came by websocket
    bruno.wait_for_url(f"{base}/t/**")
    bruno.wait_for_selector("#lobby .lobby-seat.you[data-seat='1']")
    anna.wait_for_selector("#lobby .lobby-seat[data-seat='1']:not(.free)")
    for page in (anna, bruno):
        page.context.close()
    assert errors == []


def test_a_rematch_in_one_step_seats_both_players_again_in_the_same_seats(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna, bruno = two_friends_playing(browser, base, errors, "re", "blocco")
    old_url = anna.url
    play_until_the_hand_ends([anna, bruno])  # blocco: one hand is the game
    for page in (anna, bruno):
        page.wait_for_selector("#status .match-result #rematch")
    bruno.screenshot(path=artifacts / "rematch-offered-phone.png", full_page=True)

    anna.click("#rematch")
    anna.wait_for_url(lambda url: url != old_url and "/t/" in url)
    new_url = anna.url
    anna.wait_for_selector("#lobby .lobby-seat.you[data-seat='0']")
    assert anna.locator("#lobby .lobby-seat[data-seat='1'].free").count() == 1  # kept for bruno
    anna.screenshot(path=artifacts / "rematch-waiting-desktop.png", full_page=True)

    bruno.click("#rematch")  # still on the finished table: one press and he is back
    bruno.wait_for_url(new_url)
    for page in (anna, bruno):  # everyone back: it starts by itself
        page.wait_for_selector("#board .line", timeout=10_000)
    assert anna.locator("#seats .seat.you").get_attribute("data-seat") == "0"
    assert bruno.locator("#seats .seat.you").get_attribute("data-seat") == "1"
    anna.screenshot(path=artifacts / "rematch-started-desktop.png", full_page=True)
    bruno.screenshot(path=artifacts / "rematch-started-phone.png", full_page=True)
    for page in (anna, bruno):
        page.context.close()
    assert errors == []


def test_the_invite_box_keeps_what_is_typed_while_the_lobby_changes(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    """A friend sitting down redraws the lobby; a refused name stays to be corrected;
    a sent invitation empties the box."""
    errors: list[str] = []
    base = live_site.url
    anna, bruno = new_page(browser, DESKTOP, errors), new_page(browser, PHONE, errors)
    sign_up(anna, base, "anna_box")
    sign_up(bruno, base, "bruno_box")
    share = new_friends_table(anna, base, "blocco")
    box = anna.locator("#invite-username")

    box.fill("nobody_box")
    anna.click("#lobby .invite button")
    anna.wait_for_selector("#flash .flash.error")
    assert box.input_value() == "nobody_box"  # refused: there to be corrected

    box.fill("bruno_bo")  # half typed when a visitor sits down
    visitor = new_page(browser, PHONE, errors)
    visitor.goto(share)
    visitor.click("#take-seat")
    anna.wait_for_selector("#lobby .lobby-seat[data-seat='1']:not(.free)", timeout=10_000)
    assert box.input_value() == "bruno_bo"

    box.fill("bruno_box")
    anna.click("#lobby .invite button")
    anna.wait_for_selector("#lobby :text('bruno_box')", timeout=10_000)  # "Invited: bruno_box"
    wait_for(anna, "document.getElementById('invite-username').value === ''")
    anna.wait_for_timeout(300)  # nothing to wait for: later frames must not wipe the note
    note = anna.locator("#flash .flash.info")  # the note outlives the frame showing the invitation
    assert note.count() == 1 and "bruno_box" in note.inner_text()
    anna.screenshot(path=artifacts / "invite-sent.png", full_page=True)
    for page in (anna, bruno, visitor):
        page.context.close()
    assert errors == []


def test_two_players_meet_by_invitation_and_a_third_watches_by_link(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna = new_page(browser, DESKTOP, errors)
    bruno = new_page(browser, PHONE, errors)
    sign_up(anna, base, "anna_b")
    sign_up(bruno, base, "bruno_b")

    anna.goto(f"{base}/new/?mode=friends&preset=duello")
    anna.check("input[name=mode][value=friends]")
    anna.select_option("select[name=preset]", "duello")
    anna.click("#table-form button[type=submit]")
    anna.wait_for_selector("#lobby .invite")
    share_url = anna.locator("#share-link").input_value()

    bruno.goto(f"{base}/")  # bruno is on the home page when the invitation comes
    anna.fill("#invite-username", "BRUNO_B")
    anna.click("#lobby .invite button")
    toast = bruno.locator("#invite-toast .toast")
    toast.wait_for(timeout=10_000)
    assert "anna_b" in toast.inner_text()
    toast.locator("button").click()  # join
    bruno.wait_for_selector("#lobby")
    anna.wait_for_selector("#lobby .lobby-seat[data-seat='1']:not(.free)")
    anna.click("#start-game")
    for page in (anna, bruno):
        page.wait_for_selector("#board .line")

    watcher = new_page(browser, PHONE, errors)
    watcher.goto(share_url)
    watcher.wait_for_selector("#board .line")
    assert watcher.locator("#hand .my-tile").count() == 0  # no tiles for a spectator
    assert watcher.locator("#hand").inner_text().strip() != ""

    for _ in range(4):
        play_if_my_turn(anna) or play_if_my_turn(bruno)
    anna.screenshot(path=artifacts / "friends-desktop.png", full_page=True)
    bruno.screenshot(path=artifacts / "friends-phone.png", full_page=True)
    version = table_version(anna)
    wait_for(
        watcher, "v => +document.querySelector('#table-head').dataset.version >= v", arg=version
    )
    line_tiles = anna.locator("#board .placed").count()
    assert watcher.locator("#board .placed").count() == line_tiles
    watcher.screenshot(path=artifacts / "watcher-phone.png", full_page=True)

    play_until_the_hand_ends([anna, bruno])
    watcher.wait_for_selector("#status .hand-result")
    assert watcher.locator("#status .revealed li").count() == 2
    for page in (anna, bruno, watcher):
        page.context.close()
    assert errors == []
