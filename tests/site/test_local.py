"""domino_site/local.py, what ``make run`` starts (issue 28, item 2): ``make run`` served
with debug on, and a stale link showed Django's technical 404 with every URL pattern.
``make run`` starts ``python -m domino_site.local``: debug off, the site's own pages,
static files through WhiteNoise, plain HTTP on 127.0.0.1, a secret key made and kept
on the first run.  ``make dev`` adds ``--dev``: debug on.  Each case starts the server
exactly so, in a fresh process, on a fresh database."""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from domino_site import scaled
from domino_site.local import BUILT, local_environment
from tests.fixtures import COLLECTED_STATIC, static_files_collected

ROOT = Path(__file__).resolve().parents[2]


class Served:
    def __init__(self, url: str, log: Path, key_file: Path) -> None:
        self.url, self.log, self.key_file = url, log, key_file

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()


def fresh_environment(workdir: Path) -> dict[str, str]:
    """A machine with nothing configured, but the database and the kept key in
    ``workdir`` rather than in the checkout, and the tests' collected static files
    (``COLLECTED_STATIC``: collected again only when a source changed)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("REDIS_URL", None)
    env["DATABASE_URL"] = f"sqlite:///{workdir / 'db.sqlite3'}"
    env["DJANGO_STATIC_ROOT"] = str(COLLECTED_STATIC)
    env["DJANGO_SECRET_KEY_FILE"] = str(workdir / "secret_key")
    return env


def serve(workdir: Path, *options: str) -> Iterator[Served]:
    """The site started as the Makefile starts it (``make run``: no option)."""
    port = scaled.free_ports()
    log = workdir / "server.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "domino_site.local", *options, "-b", "127.0.0.1", "-p", str(port)],
        cwd=ROOT,
        env=fresh_environment(workdir),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    served = Served(f"http://127.0.0.1:{port}", log, workdir / "secret_key")
    try:
        deadline = time.monotonic() + 120  # migrations and collectstatic on a busy machine
        while time.monotonic() < deadline and server.poll() is None:
            try:
                urllib.request.urlopen(f"{served.url}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the site did not start:\n" + log.read_text())
        yield served
    finally:
        server.terminate()  # with --meanwhile, it stops its children
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture(scope="module")
def make_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    started = serve(tmp_path_factory.mktemp("make-run"))
    with static_files_collected():  # collected by this start if a source changed
        served = next(started)
    yield served
    started.close()


@pytest.fixture
def make_dev(tmp_path: Path) -> Iterator[Served]:
    yield from serve(tmp_path, "--dev")


def test_a_stale_link_under_make_run_shows_the_sites_own_404_page(make_run: Served) -> None:
    status, _, page = make_run.get("/t/gone-since-yesterday/")
    assert status == 404
    assert "Questa pagina non è sul tavolo" in page
    assert "URLconf" not in page and "admin/" not in page  # no list of URL patterns


def test_make_run_serves_hashed_static_files_over_plain_http(make_run: Served) -> None:
    status, _, home = make_run.get("/")  # plain http: no redirect to https
    assert status == 200
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', home)
    assert stylesheet, "the page links the collected, hashed stylesheet"
    status, headers, css = make_run.get(stylesheet.group(1))
    assert status == 200 and "max-age=315360000" in headers["Cache-Control"]
    assert ".topbar" in css


def test_make_run_makes_a_secret_key_once_and_keeps_it(make_run: Served) -> None:
    key = make_run.key_file.read_text().strip()
    assert len(key) >= 50
    assert stat.S_IMODE(make_run.key_file.stat().st_mode) == 0o600  # its owner's only
    again = local_environment(fresh_environment(make_run.key_file.parent), dev=False)
    assert again["DJANGO_SECRET_KEY"] == key  # sessions outlive a restart


def test_make_dev_turns_debug_on(make_dev: Served) -> None:
    status, _, page = make_dev.get("/t/gone-since-yesterday/")
    assert status == 404
    assert "Using the URLconf defined in" in page  # Django's page, for developers


def django_settings(env: dict[str, str]) -> list[str]:
    show = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.SECRET_KEY)"
    )
    env = {**env, "DJANGO_SETTINGS_MODULE": "domino_site.settings"}
    done = subprocess.run(
        [sys.executable, "-c", show], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_settings_as_make_run_and_make_dev_read_them(tmp_path: Path) -> None:
    nothing_set = fresh_environment(tmp_path)
    kept = local_environment(nothing_set, dev=False)["DJANGO_SECRET_KEY"]
    assert django_settings(local_environment(nothing_set, dev=False)) == [
        "False",
        "False",
        "False",
        kept,
    ]
    assert django_settings(local_environment(nothing_set, dev=True))[0] == "True"
    # an operator's own key and debug left over in the shell do not change the mode
    told = {**nothing_set, "DJANGO_SECRET_KEY": "k" * 50, "DJANGO_DEBUG": "1"}
    assert django_settings(local_environment(told, dev=False)) == [
        "False",
        "False",
        "False",
        "k" * 50,
    ]


def wait_for_log(served: Served, text: str) -> None:
    deadline = time.monotonic() + 60
    while text not in served.log.read_text():
        if time.monotonic() > deadline:
            pytest.fail(f"{text!r} never logged:\n" + served.log.read_text())
        time.sleep(0.2)


def test_make_run_serves_before_the_slow_steps_then_restarts_once_to_use_them(
    tmp_path: Path,
) -> None:
    """``make run`` serves first, builds the engine and the offline game meanwhile
    (``--meanwhile 'make -s built'``), then restarts the server to use them."""
    manifest = BUILT[0]  # the engine's: what a build writes (its time only, here)
    if not manifest.exists():
        pytest.skip("the engine was never built (make setup)")
    started = serve(tmp_path, "--meanwhile", f"sleep 1 && touch -c {shlex.quote(str(manifest))}")
    with static_files_collected():
        served = next(started)
    try:
        wait_for_log(served, "the engine and the offline game are built: restarting")
        deadline = time.monotonic() + 60
        while served.log.read_text().count("Listening on TCP address") < 2:
            assert time.monotonic() < deadline, served.log.read_text()
            time.sleep(0.2)
        status, _, home = served.get("/")
        assert status == 200 and "Domino" in home
    finally:
        started.close()


def test_make_run_keeps_serving_when_the_slow_steps_fail(tmp_path: Path) -> None:
    started = serve(tmp_path, "--meanwhile", "exit 3")
    with static_files_collected():
        served = next(started)
    try:
        wait_for_log(served, "the slow steps of the set-up failed: serving without them")
        assert served.get("/")[0] == 200
    finally:
        started.close()
