"""A real site for the browser: daphne in a subprocess on a fresh SQLite file,
the game clock running, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domino_site import scaled
from tests.fixtures import COLLECTED_STATIC, copy_migrated_database, static_files_collected

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
#: Debian's build of Chromium's headless shell (what Playwright itself runs headless):
#: the browser without its desktop, half the CPU of ``/usr/bin/chromium`` run headless
#: over the browser tests, which is most of the suite's.
CHROMIUM = "/usr/bin/chromium-headless-shell"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


class LiveSite:
    """daphne serving the site from a fresh SQLite file (a copy of one migrated once for
    every site: ``copy_migrated_database``); ``restart()`` as after a crash."""

    def __init__(self, workdir: Path, *, root: Path = ROOT, port: int | None = None) -> None:
        self.root = root  # the checkout it serves (a test's copy: another deploy)
        self.database = workdir / "browser.sqlite3"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.database}",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "GAME_CLOCK_ENABLED": "1",
            "MATCHMAKING_FILL_SECONDS": "6",  # simulated players come quickly in tests
            "STAKE_FILL_SECONDS": "8",  # an unfilled stake table is refunded quickly in tests
            "BOT_DELAY_SCALE": "0.2",  # the computer thinks a fifth of its while in tests…
            "DEADLINE_TICK_SECONDS": "0.05",  # …and its move is made on time, not a tick late
            "DJANGO_RATELIMIT": "0",  # every browser test signs players up from 127.0.0.1
            "DJANGO_SETTINGS_MODULE": "tests.browser.site_settings",  # passwords hashed quickly
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "browser-tests-only-" + "x" * 40,
            "DJANGO_HTTPS": "0",  # plain http on 127.0.0.1: no redirect, no secure-only cookies
            "DJANGO_STATIC_ROOT": str(COLLECTED_STATIC),  # hashed, compressed, as in production
            "EMAIL_URL": f"file://{workdir / 'mail'}",  # a file per message: ``mails()``
        }
        self.env.pop("REDIS_URL", None)
        self.log = (workdir / "daphne.log").open("a")
        self.port = port or scaled.free_ports()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """As ``make run`` serves the site: migrate, collect the static files, daphne."""
        if not self.database.exists():
            copy_migrated_database(self.database, self.env)
        self.server = subprocess.Popen(
            [sys.executable, "-m", "domino_site.local", "-b", "127.0.0.1", "-p", str(self.port)],
            cwd=self.root,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        for _ in range(600):  # the first start may collect the static files
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail("daphne did not start")

    def stop(self, *, gracefully: bool = False) -> None:
        """As if the machine went down (no goodbye), or ``gracefully`` as a restart
        stops it (SIGTERM: the sockets closed with 1012, domino_site/serve.py)."""
        if self.server is not None:
            if gracefully:
                self.server.terminate()
            else:
                self.server.kill()
            self.server.wait(timeout=30)
            self.server = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def mails(self) -> list[str]:
        """The messages the site has sent, oldest first (Django's file backend)."""
        folder = Path(self.env["EMAIL_URL"].removeprefix("file://"))
        files = sorted(folder.glob("*.log"), key=lambda f: f.stat().st_mtime_ns)
        return [f.read_text() for f in files]


def wait_for(
    page: Any, predicate: str, arg: Any = None, *, timeout: float = 30_000, polling: float = 20
) -> Any:
    """``page.wait_for_function`` without its ``eval``: Playwright polls a predicate
    that does not hold at once with ``new Function`` inside the page, which the site's
    Content-Security-Policy refuses ('unsafe-eval').  Here the predicate's source is
    sent once, inside the function the browser's debugger runs (outside the page's
    policy), and that function polls it in the page every ``polling`` ms: one round
    trip per wait, not one per poll (polling from Python kept Python, Playwright's
    driver and Chromium busy while a test waited).  As Playwright's wait does, it goes
    on across a navigation; the predicate's truthy value is returned.  Times in
    milliseconds, as Playwright's."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    poll_in_page = f"""async ([arg, left, polling]) => {{
        const until = Date.now() + left;
        const predicate = () => ({predicate});  // a function, or an expression
        for (;;) {{
            let value = predicate();
            value = await (typeof value === "function" ? value(arg) : value);
            if (value || Date.now() > until) return [!!value, value];
            await new Promise(done => setTimeout(done, polling));
        }}
    }}"""
    deadline = time.monotonic() + timeout / 1000
    while True:
        left = deadline - time.monotonic()
        try:
            held, value = page.evaluate(poll_in_page, [arg, max(left, 0) * 1000, polling])
            if held:
                return value
        except PlaywrightError as error:  # the page navigated while it was asked
            if "context was destroyed" not in error.message:
                raise
            page.wait_for_timeout(polling)
        if time.monotonic() > deadline:
            raise PlaywrightTimeoutError(f"{predicate!r} did not hold within {timeout:.0f} ms")


@pytest.fixture(scope="session")
def live_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveSite]:
    site = LiveSite(tmp_path_factory.mktemp("site"))
    with static_files_collected():
        site.start()  # collects them first, if they are not as their sources
    yield site
    site.stop()


#: Every page and frame reports what its Content-Security-Policy refused.
CSP_LISTENER = """
window.addEventListener("securitypolicyviolation", (e) => window.__cspViolation(
  `${e.effectiveDirective} refused ${e.blockedURI || "inline"}` +
  ` in ${e.sourceFile || e.documentURI}:${e.lineNumber} (${(e.sample || "").slice(0, 60)})`
), true);
"""


class ItalianBrowser:
    """Chromium whose pages ask for Italian (``Accept-Language: it-IT``) unless a
    test gives another ``locale``: the site follows the browser's language, and
    the tests read the site's default.  Service workers are blocked unless a test
    allows them: every page registers the site's, which would fetch the offline
    game's files (Pyodide: megabytes) in every test's fresh browser.  Pages ask for
    reduced motion unless a test asks otherwise (one that checks the motion itself):
    a page animating (the pulsing dot of whose turn it is) keeps Chromium drawing
    frames, some 3.5% of a core a page, while the test waits.

    Whatever a page's Content-Security-Policy refuses is recorded (``violations``:
    its ``securitypolicyviolation`` events, and the console's word for a worker's),
    and the test that caused it fails (``pytest_runtest_call``)."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.contexts: list[Any] = []  # the running test's, for a failure's report
        self.violations: list[str] = []  # the running test's

    def new_context(self, **options: Any) -> Any:
        context = self.chromium.new_context(
            **{
                "locale": "it-IT",
                "service_workers": "block",
                "reduced_motion": "reduce",
                **options,
            }
        )
        context.expose_binding("__cspViolation", lambda _source, said: self.violations.append(said))
        context.add_init_script(CSP_LISTENER)
        context.on("console", self._console)
        self.contexts.append(context)
        return context

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(f"console: {message.text[:300]}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.chromium, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (make test installs it when run as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield ItalianBrowser(chromium)
        chromium.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


#: The browser modules, the longest first (their tests' seconds added up, as measured;
#: a module of one long test counts as long): a worker takes the next test whenever it
#: is free, so the run ends on short tests instead of one worker waiting on the other's
#: long last one.  A module left out runs after these: a new module of long tests
#: belongs in this list.  The league page's goes before all: it counts the week's
#: league rows, which the matches other tests play on the same site would add to.
LONGEST_FIRST = (
    "test_table_page_keyboard",
    "test_league_page",
    "test_accessibility",
    "test_table_page_end",
    "test_table_page_crowded",
    "test_table_page_text",
    "test_offline_forced",
    "test_offline_update",
    "test_table_page_friends",
    "test_table_page_layout",
    "test_offline_game",
    "test_table_page",
    "test_table_page_clock",
    "test_account_page",
    "test_table_page_forms",
    "test_table_page_stakes",
    "test_targets",
    "test_lobby_page",
    "test_queue_page",
    "test_table_page_deals",
    "test_offline_first_open",
    "test_replay_page",
    "test_ratings_pages",
    "test_table_page_leave",
    "test_table_page_visitors",
    "test_error_pages",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's session keeps an event loop running in
    the main thread, and an async test after it could not start its own.  Among them,
    the longest modules first (``LONGEST_FIRST``)."""

    def order(item: pytest.Item) -> tuple[bool, int]:
        if item.get_closest_marker("browser") is None:
            return False, 0
        module = item.path.stem
        return True, LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=order)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A browser test fails on anything the pages' Content-Security-Policy refused."""
    browser = getattr(item, "funcargs", {}).get("browser")
    if isinstance(browser, ItalianBrowser):
        browser.violations.clear()
    result = yield
    if isinstance(browser, ItalianBrowser) and browser.violations:
        found, browser.violations[:] = list(browser.violations), []
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(found), pytrace=False)
    return result


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A browser test that failed reports what its open pages showed (the address, the
    messages and the lobby or status, and a screenshot in tests/artifacts/failed/) and
    the end of the site's log: a failure seen once, under load, can be read afterwards."""
    outcome = yield
    fixtures = getattr(item, "funcargs", {})
    browser = fixtures.get("browser")
    if call.when != "call" or not isinstance(browser, ItalianBrowser):
        return
    report = outcome.get_result()
    if report.failed:
        report.sections.append(("what the pages showed", _pages_shown(item, browser)))
        site = fixtures.get("live_site")
        if isinstance(site, LiveSite):
            tail = Path(site.log.name).read_text(errors="replace")[-4000:]  # daphne's own writes
            report.sections.append(("the end of the site's log", tail))
    browser.contexts.clear()


def _pages_shown(item: pytest.Item, browser: ItalianBrowser) -> str:
    folder = ARTIFACTS / "failed"
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    pages = [page for context in browser.contexts for page in context.pages]
    for number, page in enumerate(pages):
        try:
            page.screenshot(path=folder / f"{item.name}-{number}.png", full_page=True)
            seen = page.evaluate(
                """() => ['.messages', '#flash', '#lobby', '#status']
                    .map(s => document.querySelector(s))
                    .filter(e => e).map(e => e.innerText.trim())
                    .concat(document.querySelector('.table-live.offline')
                        ? ['CONNECTION LOST (its socket closed)'] : [])
                    .join(' | ')"""
            )
            lines.append(f"page {number}: {page.url}\n  {seen[:1500]}")
        except Exception as error:  # a page closing or gone: say so, report the others
            lines.append(f"page {number}: {type(error).__name__}")
    return "\n".join(lines)
