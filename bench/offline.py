"""The offline game's numbers, measured in Debian's Chromium (headless, desktop size)
against the site as ``make run`` serves it (a fresh SQLite file, hashed and
compressed static files):

- first visit: what the browser downloads for the offline game (compressed bytes on
  the wire), and that it starts only after the page is usable (its load event);
- a first offline game after one online visit (the start-up snapshot made during
  that visit, once the page is usable): from opening ``/offline/`` with the network
  off to the first playable hand, each run in a new browser profile;
- with the network off, from opening the installed app (``/offline/``) to the first
  playable hand, a new game (the form's "start" pressed as soon as it can be) and a
  reload in the middle of a hand: the median of 5 each, read from the page's clock;
- a move applied and drawn (the click to the frame on the screen), and how long the
  computer thinks at each level (its decisions, in the worker).

    .venv/bin/python bench/offline.py [--runs 5] [--first-open] [--json bench/results/offline.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domino_site import scaled  # noqa: E402

CHROMIUM = "/usr/bin/chromium-headless-shell"  # as the browser tests (make test installs it)
DESKTOP = {"width": 1280, "height": 800}
READY = "document.documentElement.dataset.offlineReady === '1'"
MOVES = "#hand .tile-button, #hand .ends-choice button, #hand #draw, #hand #pass"
#: When each step of the start happened, on the page's clock: the worker's marks
#: (static/offline/worker.js, sent with "ready" on its own clock) and the page's.
STEPS = """() => {
  const ready = performance.getEntriesByName("offline-ready")[0];
  const steps = {script: performance.getEntriesByName("offline-script")[0]?.startTime};
  for (const [name, at] of Object.entries(ready ? ready.detail.marks : {})) {
    steps[name] = ready.detail.origin + at - performance.timeOrigin;
  }
  steps.drawn = performance.getEntriesByName("offline-drawn")[0]?.startTime;
  return steps;
}"""
FIRST_FRAME = """() => {
  const frame = performance.getEntriesByName("offline-drawn")[0];
  return frame && document.querySelector("#hand .my-tile") ? frame.startTime : null;
}"""


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = scaled.free_ports()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-offline-" + "x" * 40,
        "DJANGO_HTTPS": "0",
        "DJANGO_STATIC_ROOT": str(folder / "static"),
    }
    env.pop("REDIS_URL", None)
    log = (folder / "daphne.log").open("a")
    server = subprocess.Popen(
        [sys.executable, "-m", "domino_site.local", "-b", "127.0.0.1", "-p", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1)
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the site did not start: see " + str(folder / "daphne.log"))


# Every context bypasses the site's Content-Security-Policy: Playwright's
# wait_for_function polls its string predicates with an eval the policy refuses, and
# the benchmark's fine polling (5 ms) needs it (the tests poll from Python instead).


def first_visit(browser: Any, base: str) -> dict[str, Any]:
    """Bytes on the wire for everything the offline game needs, and when they came."""
    context = browser.new_context(viewport=DESKTOP, service_workers="allow", bypass_csp=True)
    page = context.new_page()
    got: list[tuple[float, str, int]] = []

    def finished(request: Any) -> None:
        sizes = request.sizes()
        response = request.response()
        from_cache = response is not None and response.from_service_worker
        if not from_cache:
            got.append(
                (
                    time.perf_counter(),
                    request.url,
                    sizes["responseBodySize"] + sizes["responseHeadersSize"],
                )
            )

    context.on("requestfinished", finished)
    started = time.perf_counter()
    page.goto(f"{base}/", wait_until="load")
    usable = time.perf_counter()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=300_000)
    installed = time.perf_counter()
    page.wait_for_timeout(500)
    context.close()
    wasm = [t for t, url, _ in got if url.endswith(".wasm")]
    before_usable = sum(size for t, _, size in got if t <= usable)
    return {
        "page_usable_ms": round((usable - started) * 1000),
        "offline_files_kept_ms": round((installed - started) * 1000),
        "bytes_total": sum(size for _, _, size in got),
        "bytes_before_page_usable": before_usable,
        "pyodide_started_after_page_usable": bool(wasm) and min(wasm) > usable,
        "requests": len(got),
    }


def offline_openings(browser: Any, base: str, runs: int) -> dict[str, Any]:
    """Opening the installed app with the network off: a new game, and a reload mid-hand."""
    context = browser.new_context(viewport=DESKTOP, service_workers="allow", bypass_csp=True)
    page = context.new_page()
    page.goto(f"{base}/")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=300_000)
    context.set_offline(True)
    new_game, mid_hand = [], []
    steps: dict[str, list[float]] = {}
    for _ in range(runs):
        page.evaluate("localStorage.removeItem('domino.offline.game')")
        page.goto(f"{base}/offline/")
        page.wait_for_function(READY, timeout=60_000, polling=5)
        page.click("#offline-start")
        page.wait_for_function(FIRST_FRAME, timeout=60_000, polling=5)
        new_game.append(page.evaluate(FIRST_FRAME))
        for name, at in page.evaluate(STEPS).items():
            if at is not None:
                steps.setdefault(name, []).append(at)
        page.wait_for_selector('#table-head[data-your-turn="1"]', timeout=30_000)
        page.locator(MOVES).first.click()  # now in the middle of a hand
        page.wait_for_timeout(300)
        page.reload()
        page.wait_for_function(FIRST_FRAME, timeout=60_000, polling=5)
        mid_hand.append(page.evaluate(FIRST_FRAME))
    context.close()
    return {
        "new_game_ms": [round(v) for v in new_game],
        "new_game_median_ms": round(statistics.median(new_game)),
        "reload_mid_hand_ms": [round(v) for v in mid_hand],
        "reload_mid_hand_median_ms": round(statistics.median(mid_hand)),
        # a new game's start, step by step (a restored start has "restored", the
        # first one "engine-imported"): medians, ms after the page was asked for
        "new_game_steps_ms": {
            name: round(statistics.median(times))
            for name, times in sorted(steps.items(), key=lambda item: min(item[1]))
        },
    }


PREPARED = "localStorage.getItem('domino.offline.prepared') !== null"
#: Where the preparation's time went, ms after the page was asked for: the page's
#: marks (static/js/install.js) and the preparing worker's (static/offline/worker.js).
PREPARATION = """() => {
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
  const steps = {load: performance.getEntriesByType("navigation")[0].loadEventEnd,
    "sw-ready": at("offline-sw-ready"), "prepare-start": at("offline-prepare-start")};
  const prepared = performance.getEntriesByName("offline-prepared")[0];
  for (const [name, when] of Object.entries(prepared ? prepared.detail.marks : {})) {
    steps[name] = prepared.detail.origin + when - performance.timeOrigin;
  }
  return steps;
}"""


def first_offline_open(browser: Any, base: str, runs: int) -> dict[str, Any]:
    """A browser's first offline game after one online visit to the home page (as long
    as the page needs to prepare the start-up snapshot, in the background once it is
    usable): opening the installed app with the network off to the first playable
    hand, each run in a new browser profile."""
    opened, prepared, restored = [], [], []
    preparation: dict[str, list[float]] = {}
    for _ in range(runs):
        context = browser.new_context(viewport=DESKTOP, service_workers="allow", bypass_csp=True)
        page = context.new_page()
        page.goto(f"{base}/", wait_until="load")
        usable = page.evaluate("performance.now()")
        page.wait_for_function(PREPARED, timeout=300_000, polling=50)
        prepared.append(page.evaluate("performance.now()") - usable)
        for name, at in page.evaluate(PREPARATION).items():
            if at is not None:
                preparation.setdefault(name, []).append(at)
        context.set_offline(True)
        page.goto(f"{base}/offline/")
        page.wait_for_function(READY, timeout=60_000, polling=5)
        page.click("#offline-start")
        page.wait_for_function(FIRST_FRAME, timeout=60_000, polling=5)
        opened.append(page.evaluate(FIRST_FRAME))
        restored.append("restored" in page.evaluate(STEPS))
        context.close()
    return {
        "first_open_ms": [round(v) for v in opened],
        "first_open_median_ms": round(statistics.median(opened)),
        "restored": restored,
        "prepared_after_usable_ms": [round(v) for v in prepared],
        # the visit's preparation step by step (the first start of CPython, its
        # snapshot made and kept): medians, ms after the page was asked for
        "preparation_steps_ms": {
            name: round(statistics.median(times))
            for name, times in sorted(preparation.items(), key=lambda item: min(item[1]))
        },
    }


def moves_and_decisions(browser: Any, base: str, moves: int) -> dict[str, Any]:
    """The player's moves, click to screen; the computer's decisions per level."""
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    drawn: list[float] = []
    thought: dict[str, list[float]] = {}
    for level in ("easy", "medium", "hard"):
        page.goto(f"{base}/offline/")
        page.evaluate("localStorage.clear()")
        # every move the player's click: none played for them meanwhile (a forced one)
        page.evaluate(
            "localStorage.setItem('domino.offline.choices',"
            " JSON.stringify({plays_forced_moves: false}))"
        )
        page.reload()
        page.wait_for_function(READY, timeout=60_000)
        page.select_option("#offline-form [name=preset]", "domino")
        page.select_option("#offline-form [name=seating]", "4p")
        page.select_option("#offline-form [name=bot_level]", level)
        page.click("#offline-start")
        played = 0
        while played < moves:
            page.wait_for_selector(
                '#table-head[data-your-turn="1"], #next-hand, #rematch', timeout=60_000
            )
            if page.locator("#rematch").count() or page.locator("#next-hand").count():
                version = page.locator("#table-head").get_attribute("data-version")
                page.click("#rematch, #next-hand")
                page.wait_for_function(  # the next hand, or the next game, is on the screen
                    "(v) => document.querySelector('#table-head')?.dataset.version !== v"
                    " && document.querySelector('#hand .my-tile')",
                    arg=version,
                    polling=20,
                )
                continue
            marks = page.evaluate("performance.getEntriesByName('offline-drawn').length")
            page.evaluate(
                "document.querySelector('#offline-table').addEventListener('click',"
                " () => { window.clickedAt = performance.now(); }, {capture: true, once: true})"
            )
            page.locator(MOVES).first.click()
            page.wait_for_function(
                f"performance.getEntriesByName('offline-drawn').length > {marks}", polling=5
            )
            drawn.append(
                page.evaluate(
                    "performance.getEntriesByName('offline-drawn').at(-1).startTime"
                    " - window.clickedAt"
                )
            )
            played += 1
        decisions = page.evaluate(
            "performance.getEntriesByName('offline-frame')"
            ".filter(m => m.detail && m.detail.asked === 'computer')"
            ".map(m => [m.detail.thought, m.detail.forced])"
        )
        thought[level] = [ms for ms, _ in decisions]
        thought[f"{level}_with_a_choice"] = [ms for ms, forced in decisions if not forced]
    context.close()

    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        if not ordered:
            return {"n": 0}
        return {
            "n": len(ordered),
            "median_ms": round(statistics.median(ordered), 1),
            "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1], 1),
            "max_ms": round(ordered[-1], 1),
        }

    return {
        "move_drawn": summary(drawn),
        **{f"decision_{level}": summary(values) for level, values in thought.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=15, help="the player's moves per level")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--first-open", action="store_true", help="only the first offline open after one visit"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server, base = serve(Path(folder))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                if args.first_open:
                    results = {"first_open": first_offline_open(browser, base, args.runs)}
                else:
                    results = {
                        "first_visit": first_visit(browser, base),
                        "first_open": first_offline_open(browser, base, args.runs),
                        "offline": offline_openings(browser, base, args.runs),
                        "play": moves_and_decisions(browser, base, args.moves),
                    }
                browser.close()
        finally:
            server.kill()
            server.wait()
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
