"""Real browsers: a guest plays a hand against the computer; two players meet
through an invitation by username; a third watches through the share link."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import manage_last_line

from .conftest import DESKTOP, PHONE, LiveSite

pytestmark = pytest.mark.browser

MY_MOVES = "#hand .tile-button, #hand .ends-choice button, #hand #draw, #hand #pass"


def new_page(browser: Any, viewport: dict[str, int], errors: list[str], **options: Any) -> Any:
    """A page of a browser context of its own (``options``: the context's, such as a
    ``storage_state`` to start signed in)."""
    context = browser.new_context(viewport=viewport, device_scale_factor=1, **options)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def table_version(page: Any) -> int:
    return int(page.locator("#table-head").get_attribute("data-version"))


def play_if_my_turn(page: Any) -> bool:
    """Click a legal move if the page offers one; True when it did."""
    moves = page.locator(MY_MOVES)
    if moves.count() == 0:
        return False
    before = table_version(page)
    moves.first.click()
    page.wait_for_function(
        "v => +document.querySelector('#table-head').dataset.version > v",
        arg=before,
        timeout=10_000,
    )
    return True


def play_until_the_hand_ends(pages: list[Any], limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(p.locator("#status .hand-result").count() for p in pages):
            return
        if not any(play_if_my_turn(p) for p in pages):
            time.sleep(0.2)  # a bot (or the other player) is thinking
    raise AssertionError("the hand did not end in time")


def test_a_guest_plays_a_full_hand_against_the_computer(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    pages: dict[str, Any] = {}
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = pages[name] = new_page(browser, viewport, errors)
        page.goto(live_site.url)
        assert page.locator("html").get_attribute("lang") == "it"
        page.select_option("select[name=level]", "easy")
        page.click("#quick-play")
        page.wait_for_selector("#board .line")
        assert re.search(r"/t/[\w-]+/$", page.url)
        page.wait_for_selector(f"{MY_MOVES}, #seats .seat.turn")
        for _ in range(3):  # a few moves in, the board has something to show
            if not play_if_my_turn(page):
                page.wait_for_timeout(1200)
        page.screenshot(path=artifacts / f"game-{name}.png", full_page=True)
        assert page.locator("#hand .my-tile").count() >= 1
        if name == "phone":  # the server dies mid-game and comes back: nothing is lost
            line = page.locator("#board .placed").count()
            live_site.restart()
            page.reload()
            page.wait_for_selector("#board .line")
            # the open socket failing while the server was down is expected
            errors[:] = [e for e in errors if "WebSocket" not in e and "object Event" not in e]
            assert page.locator("#board .placed").count() >= line
    # Both hands played out at once (the computer thinks at both tables meanwhile), each
    # page's result looked at as soon as its hand ends.
    deadline = time.monotonic() + 120
    while pages:
        assert time.monotonic() < deadline, "the hands did not end in time"
        for name, page in list(pages.items()):
            if page.locator("#status .hand-result").count():
                the_result_stays_on_a_reload(page, artifacts / f"result-{name}.png")
                page.context.close()
                del pages[name]
        if not any(play_if_my_turn(p) for p in pages.values()):
            time.sleep(0.2)  # a bot is thinking
    assert errors == []


def the_result_stays_on_a_reload(page: Any, screenshot: Path) -> None:
    result = page.locator("#status .hand-result")
    assert result.locator(".revealed li").count() == 2  # every hand shown
    page.screenshot(path=screenshot, full_page=True)
    # reloading loses nothing: the same result, the same version, the same log (each
    # move's line was put on top of those shown; the page renders the log whole)
    version = table_version(page)
    moves = page.locator("#log-events li").all_inner_texts()
    assert len(moves) >= 4
    page.reload()
    page.wait_for_selector("#status .hand-result")
    assert table_version(page) >= version
    if table_version(page) == version:  # the next hand not dealt in between
        assert page.locator("#log-events li").all_inner_texts() == moves


def sign_up(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", "tavolo-verde-42")
    page.fill("input[name=password2]", "tavolo-verde-42")
    page.click("main form button")
    page.wait_for_url(f"{base}/")


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "tavolo-verde-42")
    page.click("main form button")
    page.wait_for_url(f"{base}/")


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
    watcher.wait_for_function(
        "v => +document.querySelector('#table-head').dataset.version >= v", arg=version
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


def full_line_position() -> str:
    """26 tiles on the line, the 27th (it fits) in seat 0's hand, the 28th in seat 1's.

    All 28 tiles form one chain (every number is on eight half-tiles: an Euler circuit).
    Seat 0 goes out with the 27th: the longest line a hand can end with, since
    whoever goes out leaves the others holding at least a tile each."""
    from games.engine import ALL_TILES

    unused = {n: [t for t in ALL_TILES if t.has(n)] for n in range(7)}
    stack: list[tuple[int, Any]] = [(6, None)]
    circuit: list[tuple[int, Any]] = []
    used: set[Any] = set()
    while stack:
        number, _tile = stack[-1]
        options = [t for t in unused[number] if t not in used]
        if options:
            tile = options[0]
            used.add(tile)
            stack.append((tile.other_half(number), tile))
        else:
            circuit.append(stack.pop())
    circuit.reverse()
    chain = [(circuit[i][0], circuit[i + 1][0], circuit[i + 1][1]) for i in range(28)]
    line = ",".join(f"{a}|{b}" for a, b, _ in chain[:26])
    return f"hands={chain[26][2]}/{chain[27][2]} boneyard=- line={line} turn=0 dealer=1"


def test_the_longest_line_fits_a_phone_screen(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:

    setup = f"""
from accounts.models import User
from games import services
from games.engine import PRESETS
user = User.objects.create_user("lina_b", password="tavolo-verde-42")
table = services.table_create(host=user, mode="computer", rules=PRESETS["domino"], bot_level="easy")
hand = table.hands.get()
hand.initial_position = "{full_line_position()}"
hand.save()
table.deadlines.all().delete()
print(table.code)
"""
    code = manage_last_line(live_site.env, "shell", "-c", setup)
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    log_in(page, live_site.url, "lina_b")
    page.goto(f"{live_site.url}/t/{code}/")
    assert page.locator("#board .placed").count() == 26
    play_if_my_turn(page)  # the 27th tile: Domino!
    page.wait_for_selector("#status .hand-result", timeout=15_000)
    assert page.locator("#board .placed").count() == 27
    fits = (
        "() => document.documentElement.scrollWidth <= window.innerWidth"
        " && document.querySelector('#board').getBoundingClientRect().right <= window.innerWidth"
    )
    assert page.evaluate(fits)
    # and the whole set, 28 tiles, still wraps inside the screen
    page.evaluate(
        "() => { const line = document.querySelector('#board .line');"
        " line.append(line.querySelector('.placed.double').cloneNode(true)); }"
    )
    assert page.locator("#board .placed").count() == 28 and page.evaluate(fits)
    page.locator("#board").screenshot(path=artifacts / "full-line-phone.png")
    page.context.close()
    assert errors == []
