"""A new deploy of the offline game, in Chromium: its files replace the kept ones on
the next online visit, but a game in progress goes on undisturbed with the files it
started with; the new version takes over at the next game.

The second deploy is a copy of this checkout with one offline file changed (the
page's script: a new hashed name, so a new service worker), served on the same
address after the first site stops."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures import static_files_collected

from .conftest import DESKTOP, ROOT, LiveSite, wait_for
from .pages import MY_MOVES
from .test_offline_game import READY, installed, my_turn, position, start_offline

pytestmark = pytest.mark.browser

SCRIPT = "document.querySelector('script[src*=\"offline/offline\"]').getAttribute('src')"
WAITING = "navigator.serviceWorker.getRegistration().then((r) => !!(r && r.waiting))"
KEPT = """async () => {
  const names = (await caches.keys()).filter((name) => name.startsWith("domino-offline-"));
  const cached = [];
  for (const name of names) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) cached.push(new URL(request.url).pathname);
  }
  return { names, cached };
}"""


def next_deploy(folder: Path) -> Path:
    """This checkout as the next deploy: the same, but the offline page's script changed."""
    copy = folder / "checkout"
    skipped = shutil.ignore_patterns(  # the sources only: daphne runs on this checkout's venv
        ".git", ".venv", ".*_cache", ".hypothesis", "artifacts", "staticfiles", "vendor",
        "__pycache__", "*.sqlite3",
    )  # fmt: skip
    shutil.copytree(ROOT, copy, ignore=skipped)
    (copy / "vendor").symlink_to(ROOT / "vendor")  # Pyodide and the engine's zip: as they are
    script = copy / "static" / "offline" / "offline.js"
    script.write_text(script.read_text() + "// the next deploy\n")
    return copy


@pytest.fixture
def first_deploy(tmp_path: Path) -> Iterator[LiveSite]:
    (tmp_path / "first").mkdir()
    site = LiveSite(tmp_path / "first")
    with static_files_collected():
        site.start()
    yield site
    site.stop()


def play_a_move(page: Any) -> None:
    my_turn(page)
    version = page.locator("#table-head").get_attribute("data-version")
    page.locator(MY_MOVES).first.click()
    wait_for(
        page, "(v) => document.querySelector('#table-head').dataset.version !== v", arg=version
    )
    my_turn(page)


def test_a_new_deploy_waits_for_the_game_in_progress_and_takes_over_at_the_next(
    browser: Any, first_deploy: LiveSite, tmp_path: Path
) -> None:
    errors: list[str] = []
    base = first_deploy.url
    page = installed(browser, base, DESKTOP, errors)
    # the player plays every move: none played for them between the look and the reload
    page.evaluate(
        "localStorage.setItem('domino.offline.choices',"
        " JSON.stringify({plays_forced_moves: false}))"
    )
    start_offline(page, base, preset="domino", bot_level="easy")
    play_a_move(page)
    old_script = page.evaluate(SCRIPT)
    mid_game = position(page)

    first_deploy.stop()  # the next deploy, at the same address
    (tmp_path / "second").mkdir()
    second = LiveSite(tmp_path / "second", root=next_deploy(tmp_path), port=first_deploy.port)
    second.env["DJANGO_STATIC_ROOT"] = str(tmp_path / "second" / "static")
    second.start()
    try:
        page.reload()  # the next online visit: the new version is fetched, and waits
        page.wait_for_selector("#offline-table #hand .my-tile", timeout=120_000)
        assert position(page) == mid_game  # the same game, where it was
        assert page.evaluate(SCRIPT) == old_script  # with the files it started with
        wait_for(page, WAITING, timeout=120_000, polling=100)
        play_a_move(page)  # and it goes on
        page.reload()
        page.wait_for_selector("#offline-table #hand .my-tile", timeout=120_000)
        assert page.evaluate(SCRIPT) == old_script
        played = int(page.locator("#table-head").get_attribute("data-version"))
        assert played >= 2  # two moves of mine at least, each answered

        page.on("dialog", lambda dialog: dialog.accept())
        page.click("#offline-new")  # the next game: the new version takes over
        wait_for(page, READY, timeout=120_000)
        page.click("#offline-start")
        wait_for(
            page,
            f"document.querySelector('script[src*=\"offline/offline\"]')"
            f".getAttribute('src') !== {old_script!r}",
            timeout=120_000,
        )
        # a new game: at most the computer's opening on it (its version may be past 0 by
        # the time a loaded machine looks), below the game played before
        wait_for(
            page,
            "n => +(document.querySelector('#table-head') || {dataset: {version: n}})"
            ".dataset.version < n",
            arg=played,
            timeout=120_000,
        )
        new_script = page.evaluate(SCRIPT)
        assert page.evaluate(WAITING) is False
        kept = page.evaluate(KEPT)
        assert len(kept["names"]) == 1  # the old deploy's files are gone
        assert new_script in kept["cached"] and old_script not in kept["cached"]
    finally:
        second.stop()
    assert errors == []
