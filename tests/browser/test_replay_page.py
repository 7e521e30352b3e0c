"""The replay page in a real browser: a finished match's replay steps move by move on a
phone with the buttons, the arrow keys and the slider."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import manage_last_line

from .conftest import PHONE, LiveSite
from .pages import new_page

pytestmark = pytest.mark.browser

FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


FINISHED_DUEL = """
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.models import Hand, MoveReview
from games.records import load_match
import random
rita = User.objects.create_user("rita_r", password="tavolo-verde-42")
ugo = User.objects.create_user("ugo_r", password="tavolo-verde-42")
rng = random.Random(4)
# A blocco hand can end blocked at its opening (every other tile of the opening
# double's number asleep, about once in a hundred deals): play until one has a few moves.
while True:
    table = services.table_create(host=rita, mode="friends", rules=PRESETS["blocco"])
    services.table_join(table_id=table.pk, user=ugo, version=0)
    services.table_start(table_id=table.pk, by=rita, version=1)
    table.refresh_from_db()
    while table.status != "finished":
        r = load_match(table).round
        services.move_submit(table_id=table.pk, user=(rita, ugo)[r.turn],
                             move=str(rng.choice(r.legal_moves())), version=table.version)
        table.refresh_from_db()
    hand = Hand.objects.get(table=table, number=0)
    if hand.moves.count() >= 3:
        break
# The coach's verdict on the hand's second move, as the worker writes one.
# (update_or_create: the site's worker may have reviewed the hand already)
MoveReview.objects.update_or_create(hand=hand, ply=1, defaults=dict(
    seat=hand.moves.get(ply=1).seat, loss=20.0, mark="blunder", preferred="6|6L",
    reason="heavy_double", params={"tile": "6|6"}))
print(table.code)
"""


def line_tiles(page: Any) -> int:
    return int(page.locator(".replay-hand:not([hidden]) [data-line] .placed").count())


def test_a_finished_match_replays_move_by_move_on_a_phone(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    code = manage_last_line(live_site.env, "shell", "-c", FINISHED_DUEL)
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    page.goto(f"{live_site.url}/t/{code}/replay/")
    page.wait_for_selector(".replay-controls:not([hidden])")
    hand = page.locator(".replay-hand").first
    last = int(hand.locator("[data-slider]").get_attribute("max"))
    assert last >= 2 and line_tiles(page) == 0
    for seat in range(2):  # both hands face up as dealt: 7 tiles each
        assert hand.locator(f'[data-seat="{seat}"] svg.tile').count() == 7
    assert "0 di" in hand.locator(".replay-at").inner_text()

    page.keyboard.press("ArrowRight")  # the opening
    assert line_tiles(page) == 1 and "1 di" in hand.locator(".replay-at").inner_text()
    assert hand.locator('[data-seat="0"] svg.tile, [data-seat="1"] svg.tile').count() == 13
    assert hand.locator(".replay-log li:visible").count() == 1
    assert not hand.locator("[data-coach]").is_visible()
    hand.locator('[data-go="next"]').click()
    assert hand.locator(".replay-log li:visible").count() == 2
    # The second move is marked: the coach's line shows under the board, and in the log.
    coach = hand.locator("[data-coach]")
    assert coach.is_visible() and "Errore grave. Meglio: 6|6 a sinistra" in coach.inner_text()
    assert "??" in hand.locator(".replay-log li.current").inner_text()
    page.keyboard.press("End")
    final = line_tiles(page)
    assert final >= 2 and hand.locator(".replay-log li:visible").count() == last
    page.keyboard.press("ArrowLeft")
    assert hand.locator(".replay-log li:visible").count() == last - 1
    hand.locator("[data-slider]").evaluate(
        "(s) => { s.value = '1'; s.dispatchEvent(new Event('input', { bubbles: true })); }"
    )
    assert line_tiles(page) == 1
    page.keyboard.press("Home")
    assert line_tiles(page) == 0
    page.keyboard.press("End")
    assert page.evaluate(FITS)
    # The log scrolls in its own box: the last move, the one shown, is in sight.
    assert hand.locator(".replay-log").evaluate(
        "(box) => { const li = box.querySelector('li.current').getBoundingClientRect();"
        " const b = box.getBoundingClientRect();"
        " return li.top >= b.top && li.bottom <= b.bottom + 1; }"
    )
    assert "Punteggio finale" in page.locator(".replay-final").inner_text()
    page.screenshot(path=artifacts / "replay-phone.png", full_page=True)

    record = page.request.get(f"{live_site.url}/t/{code}/record.txt")
    assert record.ok and record.text().startswith("blocco players=2")
    assert errors == []
