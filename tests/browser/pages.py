"""What the browser tests do on the site's pages, as a player would: open a page, sign up
or log in, choose a setting, play a legal move, sit at a stake table, start a friends'
game."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.fixtures import manage_last_line

from .conftest import DESKTOP, PHONE, ROOT, LiveSite, wait_for

MY_MOVES = "#hand .tile-button, #hand .ends-choice button, #hand #draw, #hand #pass"
PASSWORD = "tavolo-verde-42"
#: The sizes the table is tried at (issue 49): two phones and a desktop.
SIZES = {
    "360x640": {"width": 360, "height": 640},
    "390x844": {"width": 390, "height": 844},
    "1280x800": {"width": 1280, "height": 800},
}
#: Each size with the language its browser asks for: both languages, on a phone.
SIZES_IN_LANGUAGES = {
    "360x640": (SIZES["360x640"], "it-IT"),
    "390x844": (SIZES["390x844"], "en-GB"),
    "1280x800": (SIZES["1280x800"], "it-IT"),
}


@contextlib.contextmanager
def settled(page: Any, form: str) -> Iterator[None]:
    """Inside, the page makes an htmx request that redraws ``form`` (a selector); after,
    htmx has swapped the new form in, bound its triggers and settled it."""
    page.evaluate(
        """f => { window.settled = false; document.body.addEventListener('htmx:afterSettle',
        e => { if (e.target.closest && e.target.closest(f)) window.settled = true; }); }""",
        form,
    )
    yield
    wait_for(page, "() => window.settled")


def page_until(page: Any, condition: Callable[[], bool], what: str, within: float = 10) -> None:
    """Poll ``condition`` (fed by the page's events: Playwright delivers them while the
    page is waited on) until it holds, or fail."""
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(20)


def laid_out(page: Any) -> None:
    """Wait until the fonts are loaded and the page has been drawn twice since: what
    a screenshot or a measure sees is the settled layout."""
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise(done =>"
        " requestAnimationFrame(() => requestAnimationFrame(done))))"
    )


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


def moved_past(page: Any, before: int, timeout: float = 30_000) -> None:
    """Wait for the page to show the table past version ``before``."""
    wait_for(
        page,
        "v => +document.querySelector('#table-head').dataset.version > v",
        arg=before,
        timeout=timeout,
    )


def play_if_my_turn(page: Any) -> bool:
    """Click a legal move if the page offers one; True when it did, or when the table
    moved on while it tried: the site plays a player's only move for them after a
    moment, and a hand it ends takes the buttons away for good."""
    moves = page.locator(MY_MOVES)
    if moves.count() == 0:
        return False
    before = table_version(page)
    try:
        moves.first.click(timeout=5_000)
    except PlaywrightTimeoutError:
        return table_version(page) > before
    moved_past(page, before, timeout=10_000)
    return True


def play_until_the_hand_ends(pages: list[Any], limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(p.locator("#status .hand-result").count() for p in pages):
            return
        if not any(play_if_my_turn(p) for p in pages):
            time.sleep(0.2)  # a bot (or the other player) is thinking
    raise AssertionError("the hand did not end in time")


def sign_up(page: Any, base: str, username: str, email: str = "") -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", username)
    if email:
        page.fill("input[name=email]", email)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button")
    page.wait_for_url(f"{base}/")


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button")
    page.wait_for_url(f"{base}/")


def make_players(live_site: LiveSite, *names: str) -> None:
    """Claimed accounts, made directly (the sign-up form has its own tests and rate limit)."""
    script = (
        "from accounts.models import User\n"
        f"for name in {list(names)!r}:\n"
        f"    User.objects.create_user(name, password={PASSWORD!r})\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=live_site.env,
        check=True,
        capture_output=True,
    )


def computer_tables_at(
    live_site: LiveSite, username: str, deals: list[tuple[int, str]]
) -> list[str]:
    """New computer tables for a new account `username`, one per (players, position),
    seat 0 theirs; each hand starts at its position and nothing moves until they do.
    Each table is made in one transaction, so the site's deadline worker never plays a
    computer's first move of the original deal before the position replaces it."""
    script = f"""
import json
from dataclasses import replace
from django.db import transaction
from accounts.models import User
from games import services
from games.engine import PRESETS
user = User.objects.create_user({username!r}, password={PASSWORD!r})
codes = []
for players, position in {deals!r}:
    rules = replace(PRESETS["domino"], players=players, hand_size=7)
    with transaction.atomic():
        table = services.table_create(host=user, mode="computer", rules=rules, bot_level="easy")
        hand = table.hands.get()
        hand.initial_position = position
        hand.save()
        table.deadlines.all().delete()
    codes.append(table.code)
print(json.dumps(codes))
"""
    return json.loads(manage_last_line(live_site.env, "shell", "-c", script))


def choose(page: Any, field: str, value: str) -> None:
    """Pick a setting; the form is redrawn with what the new choice allows."""
    if field in ("preset", "seating"):  # the choices that redraw the form
        with settled(page, "#pool-form"):
            page.select_option(f"#pool-form select[name={field}]", value)
    else:
        page.select_option(f"#pool-form select[name={field}]", value)
    wait_for(
        page,
        "([f, v]) => document.querySelector(`#pool-form select[name=${f}]`).value === v"
        " && !document.querySelector('#pool-form.htmx-request')",
        arg=[field, value],
    )


def coins(page: Any, base: str) -> int:
    page.goto(f"{base}/coins/stakes/")
    text = page.locator("#stake-balance strong").inner_text()
    return int(re.sub(r"\D", "", text))


def sit_at_a_stake_table(page: Any, base: str) -> None:
    """Blocco, two players, 100 coins. The preset and the seating each redraw the form
    with what they allow: each redraw is waited for, or the click could send the old
    form's choices (a boneyard in blocco), which the site rightly refuses."""
    page.goto(f"{base}/coins/stakes/")
    for field, value in (("preset", "blocco"), ("seating", "2")):
        with settled(page, "#stake-form"):
            page.select_option(f"#stake-form select[name={field}]", value)
    page.select_option("#stake-form select[name=stake]", "100")
    page.click("#sit-stake")
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))


def new_friends_table(page: Any, base: str, preset: str, target: str | None = None) -> str:
    """Through the new-table form; the table's share link."""
    page.goto(f"{base}/new/?mode=friends&preset={preset}")
    page.wait_for_load_state("networkidle")
    page.check("input[name=mode][value=friends]")
    assert page.locator("select[name=preset]").input_value() == preset
    if target is not None:
        page.select_option("select[name=target]", target)
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("#lobby .invite")
    socket_open(page)
    return str(page.locator("#share-link").input_value())


def socket_open(page: Any) -> None:
    """Wait for the table's socket to be open.  Its first frame brings only what the
    page does not show yet: often nothing."""
    wait_for(page, "document.querySelector('.table-live').dataset.socket === 'open'")


def two_friends_playing(
    browser: Any, base: str, errors: list[str], tag: str, preset: str, target: str | None = None
) -> tuple[Any, Any]:
    """anna (desktop, host, seat 1) and bruno (phone, seat 2) start a friends' game."""
    anna, bruno = new_page(browser, DESKTOP, errors), new_page(browser, PHONE, errors)
    sign_up(anna, base, f"anna_{tag}")
    sign_up(bruno, base, f"bruno_{tag}")
    share_url = new_friends_table(anna, base, preset, target)
    bruno.goto(share_url)
    bruno.click("#take-seat")
    anna.wait_for_selector("#lobby .lobby-seat[data-seat='1']:not(.free)")
    anna.click("#start-game")
    for page in (anna, bruno):
        page.wait_for_selector("#board .line")
    return anna, bruno


class HeldFrames:
    """The table's socket through a relay that can hold the server's frames back until
    ``release()``: from the start (the page stays as the server first rendered it), or
    with ``from_first_move`` from the moment the page sends a move.  ``moves``: the moves
    the server received; ``last_frame``: the last frame the page got before holding."""

    def __init__(self, page: Any, from_first_move: bool = False) -> None:
        self.held: list[str | bytes] = []
        self.holding = not from_first_move
        self.hold_on_move = from_first_move
        self.moves: list[str | bytes] = []
        self.last_frame: str | bytes = ""
        self.to_page: Any = None
        page.route_web_socket(re.compile(r"/ws/table/"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.to_page = ws

        def from_page(message: str | bytes) -> None:
            if '"move"' in str(message):
                self.moves.append(message)
                self.holding = self.holding or self.hold_on_move
                self.hold_on_move = False
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if self.holding:
                self.held.append(message)
            else:
                self.last_frame = message
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def wait_for_first(self, page: Any) -> None:
        """Until a frame is held (with ``from_first_move``: the answer to the move)."""
        deadline = time.monotonic() + 10
        while not self.held:
            assert time.monotonic() < deadline, "the table's socket sent nothing"
            page.wait_for_timeout(50)

    def release(self) -> None:
        self.holding = self.hold_on_move = False
        for message in self.held:
            self.to_page.send(message)
        self.held.clear()

    def release_first(self) -> None:
        """Let the first held frame through (the answer to the move), hold the rest."""
        self.to_page.send(self.held.pop(0))
