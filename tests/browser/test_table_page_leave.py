"""A friend leaves a running friends' game from a phone: a dialog asks first, the
computer takes the seat (the host's screen says so in the log and on the seat), and
the friend is back on the home page with a message, only able to watch the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveSite
from .pages import two_friends_playing

pytestmark = pytest.mark.browser


def test_a_friend_leaves_a_running_game_and_the_computer_takes_the_seat(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna, bruno = two_friends_playing(browser, base, errors, "quit", "duello", "300")
    table_url = bruno.url
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if len(asked) == 1:
            dialog.dismiss()  # changed their mind: nothing happens
        else:
            dialog.accept()

    bruno.on("dialog", answer)
    bruno.click("#leave-game")
    bruno.wait_for_timeout(300)  # nothing to wait for: a dismissed dialog leaves nothing
    assert bruno.url == table_url and bruno.locator("#hand .my-tile").count() >= 1
    assert asked[0].startswith("Lasciare la partita?")  # Italian by default
    bruno.screenshot(path=artifacts / "leave-game-button-phone.png", full_page=True)

    bruno.click("#leave-game")
    bruno.wait_for_url(f"{base}/")
    assert "Hai lasciato il tavolo" in bruno.locator(".messages").inner_text()
    bruno.screenshot(path=artifacts / "leave-game-home-phone.png", full_page=True)

    seat = anna.locator("#seats .seat[data-seat='1']")
    seat.locator(".tag.left").wait_for(timeout=10_000)
    assert "bruno_quit" in seat.inner_text()
    assert anna.locator("#log-events .ev-left").count() == 1
    assert "bruno_quit" in anna.locator("#log-events .ev-left").inner_text()
    anna.screenshot(path=artifacts / "leave-game-host-desktop.png", full_page=True)

    bruno.goto(table_url)  # back at the table: only to watch
    bruno.wait_for_selector("#board .line")
    assert bruno.locator("#hand .my-tile").count() == 0
    assert bruno.locator("#leave-game").count() == 0
    for page in (anna, bruno):
        page.context.close()
    assert errors == []
