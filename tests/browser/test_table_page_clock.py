"""The table page's turn clock in a real browser at an online table: it counts down
from the server's deadline, a player who stops clicking goes away and a click brings
them back; players who arrive late still have the whole turn to open (the forced
opening was played for them after two seconds, the clock showing "0 s")."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.fixtures import manage_last_line

from .conftest import DESKTOP, PHONE, LiveSite
from .pages import new_page, sign_up

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

# An online duello against a simulated player, with a 3-second turn clock.
AGAINST_A_FILLER = """
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.services.online import Filler
user = User.objects.get(username="{name}")
table = services.online_table_create(
    rules=PRESETS["duello"], people=[user], fillers=[Filler("rosa_1975", "easy")], turn_seconds=3
)
print(table.code)
"""


def online_table_for(live_site: LiveSite, username: str) -> str:
    return manage_last_line(live_site.env, "shell", "-c", AGAINST_A_FILLER.format(name=username))


def test_a_player_who_stops_clicking_goes_away_and_comes_back(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    pages = {}
    # A table for each size, both clocks running at once: their waits overlap.
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = pages[name] = new_page(browser, viewport, errors)
        username = f"clock_{name}"
        sign_up(page, live_site.url, username)
        code = online_table_for(live_site, username)
        page.goto(f"{live_site.url}/t/{code}/")
        # The filler is marked as a simulated player, and the clock counts down.
        assert page.locator("#seats .tag.filler").count() == 1
        page.wait_for_selector("#seats .countdown", timeout=15_000)
        page.screenshot(path=artifacts / f"clock-{name}.png", full_page=True)
    for name, page in pages.items():
        # Nobody clicks: the clock plays twice, then the seat is away.  Forced moves (a
        # lone legal opening, draws from the boneyard) are played for them at once and do
        # not count: with an unlucky deal that takes a while.
        page.wait_for_selector("#im-back", timeout=90_000)
        assert page.locator("#log .auto").count() >= 2
        page.screenshot(path=artifacts / f"away-{name}.png", full_page=True)
        click_until_gone(page, "#im-back")
        assert page.locator("#seats .tag.away").count() == 0
        page.context.close()
    assert errors == []


def click_until_gone(page: Any, selector: str, tries: int = 3) -> None:
    """Click the button until it goes, as a player taps again: the stand-in keeps playing
    the seat, and a frame may redraw the button between the press and the release."""
    for _ in range(tries):
        with contextlib.suppress(PlaywrightTimeoutError):
            page.locator(selector).click(timeout=5_000)
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_selector(selector, state="detached", timeout=10_000)
            return
    raise AssertionError(f"{selector} stayed after {tries} clicks")


#: How late the players arrive: a slow phone, longer than a forced move's pause (they play
#: their forced moves themselves here: the whole turn is theirs).
LATE = 2.5

# An online duello between two people, with the online turn clock (20 s), dealt LATE
# seconds ago: its times are moved back, as the clock would have moved on (no waiting).
DEALT_LATE = """
from datetime import timedelta
from django.db.models import F
from accounts.models import User
from deadlines.models import Deadline
from games import services
from games.engine import PRESETS
from games.models import Hand, Table
people = [User.objects.get(username=n) for n in ("{a}", "{b}")]
User.objects.filter(pk__in=[p.pk for p in people]).update(plays_forced_moves=False)
table = services.online_table_create(rules=PRESETS["duello"], people=people)
earlier = timedelta(seconds={late})
Table.objects.filter(pk=table.pk).update(started_at=F("started_at") - earlier)
Hand.objects.filter(table=table).update(created_at=F("created_at") - earlier)
Deadline.objects.filter(table=table).update(due_at=F("due_at") - earlier)
dealt = Hand.objects.filter(table=table).values_list("created_at", flat=True).get()
print(table.code, dealt.timestamp())
"""


def test_players_who_arrive_late_still_have_the_whole_turn_to_open(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    anna, bruno = new_page(browser, PHONE, errors), new_page(browser, DESKTOP, errors)
    sign_up(anna, base, "anna_late")
    sign_up(bruno, base, "bruno_late")
    setup = DEALT_LATE.format(a="anna_late", b="bruno_late", late=LATE)
    code, dealt = manage_last_line(live_site.env, "shell", "-c", setup).split()
    for page in (anna, bruno):  # the site's worker has had every chance to play
        page.goto(f"{base}/t/{code}/")
        page.wait_for_selector("#board .line")
    for page in (anna, bruno):
        assert page.locator("#board .placed").count() == 0  # nobody opened for anyone
        assert page.locator("#log .auto").count() == 0
        left = int(page.locator("#seats .seat.turn .countdown .seconds").inner_text())
        waited = time.time() - float(dealt)  # since the deal, by the server's clock
        assert waited >= LATE and left >= 20 + 3 - waited - 1, (left, waited)
    opener = anna if anna.locator("#hand .my-tile.playable").count() else bruno
    assert opener.locator("#status .your-turn .countdown").count() == 1
    anna.screenshot(path=artifacts / "late-arrival-phone.png", full_page=True)
    bruno.screenshot(path=artifacts / "late-arrival-desktop.png", full_page=True)
    opener.locator("#hand .my-tile.playable button").first.click()
    for page in (anna, bruno):
        page.wait_for_selector("#board .placed")
    assert opener.locator("#log .auto").count() == 0  # the player's own opening
    for page in (anna, bruno):
        page.context.close()
    assert errors == []
