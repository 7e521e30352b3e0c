"""A real browser at an online table: the turn clock counts down from the server's
deadline, a player who stops clicking goes away, and one click brings them back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import manage_last_line

from .conftest import DESKTOP, PHONE, LiveSite
from .test_play_in_the_browser import new_page, sign_up

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

# An online duello against a simulated player, with a 3-second turn clock.
SETUP = """
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
    return manage_last_line(live_site.env, "shell", "-c", SETUP.format(name=username))


def test_a_player_who_stops_clicking_goes_away_and_comes_back(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(browser, viewport, errors)
        username = f"clock_{name}"
        sign_up(page, live_site.url, username)
        code = online_table_for(live_site, username)
        page.goto(f"{live_site.url}/t/{code}/")
        # The filler is marked as a simulated player, and the clock counts down.
        assert page.locator("#seats .tag.filler").count() == 1
        page.wait_for_selector("#seats .countdown", timeout=15_000)
        page.screenshot(path=artifacts / f"clock-{name}.png", full_page=True)
        # Nobody clicks: the clock plays twice, then the seat is away.  Forced moves (a
        # lone legal opening, draws from the boneyard) are played for them at once and do
        # not count: with an unlucky deal that takes a while.
        page.wait_for_selector("#im-back", timeout=90_000)
        assert page.locator("#log .auto").count() >= 2
        page.screenshot(path=artifacts / f"away-{name}.png", full_page=True)
        page.click("#im-back")
        page.wait_for_selector("#im-back", state="detached", timeout=10_000)
        assert page.locator("#seats .tag.away").count() == 0
        page.context.close()
    assert errors == []
