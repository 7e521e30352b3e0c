"""axe-core (Deque's accessibility checker: the pinned npm release ``make setup``
fetches, tools/fetch_axe.py) on every kind of page, at a phone's size and a desktop's:
no violation of serious or critical impact.  The report of each page is printed
(``pytest -s``) and written to tests/artifacts/axe-<size>.json."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import manage_last_line

from .conftest import ROOT, LiveSite, wait_for
from .pages import PASSWORD, new_page

pytestmark = pytest.mark.browser

sys.path.insert(0, str(ROOT / "tools"))
try:
    import fetch_axe
finally:
    sys.path.remove(str(ROOT / "tools"))

SIZES = {"360x640": {"width": 360, "height": 640}, "1280x800": {"width": 1280, "height": 800}}
SERIOUS = ("serious", "critical")

#: A player with a finished game with a friend (its end screen, replay and proofs)
#: and a game against the computer in play.
WORLD = f"""
import json, random
from accounts.models import User
from games import services
from games.engine import PRESETS
from games.models import Hand
from games.records import load_match
ada = User.objects.create_user("ada_axe", password={PASSWORD!r})
ivo = User.objects.create_user("ivo_axe", password={PASSWORD!r})
rng = random.Random(7)
while True:
    done = services.table_create(host=ada, mode="friends", rules=PRESETS["blocco"])
    services.table_join(table_id=done.pk, user=ivo, version=0)
    services.table_start(table_id=done.pk, by=ada, version=1)
    done.refresh_from_db()
    while done.status != "finished":
        r = load_match(done).round
        services.move_submit(table_id=done.pk, user=(ada, ivo)[r.turn],
                             move=str(rng.choice(r.legal_moves())), version=done.version)
        done.refresh_from_db()
    if Hand.objects.get(table=done, number=0).moves.count() >= 3:
        break
playing = services.table_create(host=ada, mode="computer", rules=PRESETS["domino"])
print(json.dumps([done.code, playing.code]))
"""


def axe_run(page: Any) -> list[dict[str, Any]]:
    """axe's violations of serious or critical impact on the page as it is now."""
    if not page.evaluate("() => !!window.axe"):
        # through the browser's debugger, as Playwright evaluates: not a script the
        # page's Content-Security-Policy would have to allow
        page.evaluate(f"() => {{ {fetch_axe.SCRIPT.read_text()}\n }}")
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
          .map(v => ({id: v.id, impact: v.impact, help: v.help,
                      nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5),
                      why: v.nodes.slice(0, 2).map(n => n.failureSummary),
                      count: v.nodes.length}))"""
    )
    return [v for v in found if v["impact"] in SERIOUS]


@pytest.fixture(scope="module")
def world(live_site: LiveSite) -> tuple[str, str]:
    """The finished game's code and the game in play's, made once a site (a worker's)."""
    done, playing = json.loads(manage_last_line(live_site.env, "shell", "-c", WORLD))
    return done, playing


# A size each: two workers can audit at once.
@pytest.mark.parametrize("size", list(SIZES))
def test_no_page_has_a_serious_accessibility_violation(
    browser: Any, live_site: LiveSite, artifacts: Path, world: tuple[str, str], size: str
) -> None:
    if not fetch_axe.SCRIPT.is_file():
        pytest.fail("axe-core is not fetched: make setup (tools/fetch_axe.py)")
    done, playing = world
    base = live_site.url
    pages = {
        "home": "/",
        "lobby": "/online/",
        "table in play": f"/t/{playing}/",
        "table as text": f"/t/{playing}/",
        "table at the end": f"/t/{done}/",
        "replay": f"/t/{done}/replay/",
        "verify": f"/t/{done}/hands/1/verify/",
        "coins": "/coins/",
        "stakes": "/coins/stakes/",
        "league": "/league/",
        "profile": "/accounts/me/",
        "new table": "/new/",
        "rules": "/rules/domino/",
        "offline": "/offline/",
        "not found": "/t/nope0000/",
    }
    report: dict[str, list[dict[str, Any]]] = {}
    errors: list[str] = []
    page = new_page(browser, SIZES[size], errors)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "ada_axe")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button")
    page.wait_for_url(f"{base}/")
    for name, path in pages.items():
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        if name.startswith("table") and name != "table at the end":
            wait_for(page, "() => document.querySelector('#hand .my-tile')")
        if name == "table as text" and not page.locator("#command").count():
            page.click("#text-mode")
            page.wait_for_selector("#command")
        found = axe_run(page)
        if found:
            report[name] = found
    page.context.close()
    text = json.dumps(report, indent=1, ensure_ascii=False)
    (artifacts / f"axe-{size}.json").write_text(text)
    for where, found in report.items():
        for v in found:
            print(f"{where}: {v['impact']} {v['id']} ×{v['count']}: {v['nodes'][:2]} {v['why']}")
    kinds = sum(len(v) for v in report.values())
    elements = sum(x["count"] for v in report.values() for x in v)
    print(
        f"axe-core {fetch_axe.VERSION} at {size}: {kinds} kinds of serious or critical"
        f" violation, {elements} elements, on {len(report)} of {len(pages)} pages"
    )
    assert report == {}
    assert [e for e in errors if "404 (Not Found)" not in e] == []  # the 404 page's own
