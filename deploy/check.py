"""The deploy recipe run as written (CI: ``.ci/run``): the commands of deploy/'s systemd
units, two server processes and the worker, behind deploy/'s nginx site, on PostgreSQL
and Redis; two players play a game through nginx over websockets, and each server is
restarted in turn mid-game (``systemctl restart domino@…``: SIGTERM, then started again).

    .venv/bin/python deploy/check.py

The units' ``ExecStart``, ``Environment`` and ``WorkingDirectory`` are read from the files
(``/srv/domino`` standing for this checkout, ``%i`` for a free port); their
``EnvironmentFile`` is ``domino.env.example`` with a database, a Redis database, a key
and this machine's address put in.  The nginx site is the file itself, its TLS taken
out (plain HTTP on a free port) and its upstream ports and static folder put in.
Needs PostgreSQL (``CHECK_DATABASE_URL``, default a ``domino_deploy_check`` database on
127.0.0.1, made afresh), Redis (``CHECK_REDIS_URL``, default db 14, flushed) and
nginx (installed with apt-get when missing and run as root).  Exit status 0: it works.
"""

from __future__ import annotations

import html
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "deploy"
sys.path.insert(0, str(ROOT))
INSTALLED = "/srv/domino"  # where the units and the site say the checkout is
DATABASE = os.environ.get(
    "CHECK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/domino_deploy_check"
)
REDIS = os.environ.get("CHECK_REDIS_URL", "redis://127.0.0.1:6379/14")
SERVICE_RESTART = 1012
VERSION = re.compile(r'data-version="(\d+)"')
BUTTON_VALS = re.compile(r"hx-vals='([^']*)'")


def service(unit: str) -> dict[str, list[str]]:
    """The ``[Service]`` section of a unit file: each key's values, in order."""
    found: dict[str, list[str]] = {}
    section = ""
    for line in (HERE / unit).read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def env_file(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
    return {k.strip(): v.strip() for k, v in pairs if not k.strip().startswith("#")}


def started(unit: str, env: dict[str, str], instance: str = "") -> subprocess.Popen[bytes]:
    """The unit's ``ExecStart`` as systemd starts it (its own ``Environment`` over the
    file's; ``%i`` its instance), in this checkout."""
    spec = service(unit)
    for assignment in spec.get("Environment", []):
        for pair in shlex.split(assignment):
            key, value = pair.split("=", 1)
            env = {**env, key: value}
    here = lambda text: text.replace(INSTALLED, str(ROOT)).replace("%i", instance)  # noqa: E731
    [command] = spec["ExecStart"]
    [workdir] = spec["WorkingDirectory"]
    return subprocess.Popen(shlex.split(here(command)), cwd=here(workdir), env=env)


def nginx_site(ports: list[int], listen: int, static_root: Path) -> str:
    """deploy/nginx-domino.conf on this machine: plain HTTP on ``listen``, no TLS."""
    site = (HERE / "nginx-domino.conf").read_text()
    site = re.sub(r"server \{\s*listen 80;.*?\n\}\n", "", site, count=1, flags=re.S)
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{listen};")
    site = re.sub(r"\s*ssl_certificate(_key)? [^;]+;", "", site)
    upstream = iter(ports)
    site = re.sub(r"server 127\.0\.0\.1:\d+", lambda _: f"server 127.0.0.1:{next(upstream)}", site)
    return site.replace(f"{INSTALLED}/staticfiles/", f"{static_root}/")


def nginx_main(work: Path, site: Path) -> str:
    temp = " ".join(
        f"{kind}_temp_path {work / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"daemon off; pid {work / 'nginx.pid'}; error_log {work / 'error.log'} warn;\n"
        "events { worker_connections 256; }\n"
        f"http {{ include /etc/nginx/mime.types; access_log {work / 'access.log'}; {temp}\n"
        f"  include {site}; }}\n"
    )


def ensure_nginx() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found:
        return found
    if os.geteuid() != 0:
        raise SystemExit("nginx is needed: apt-get install nginx-light")
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "nginx-light"]
    subprocess.run(install, check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    return "/usr/sbin/nginx"


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, dict(answer.headers), answer.read()


def wait_for(url: str) -> None:
    for _ in range(600):
        try:
            get(url)
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answers at {url}")


def first_move(frame: str) -> dict[str, Any] | None:
    for raw in BUTTON_VALS.findall(frame):
        vals = json.loads(html.unescape(raw))
        if vals.get("action") == "move":
            return vals  # type: ignore[no-any-return]
    return None


class Player:
    """A table page's socket through nginx; reconnects when its server restarts."""

    def __init__(self, url: str, cookie: str) -> None:
        self.url, self.cookie, self.frame, self.version = url, cookie, "", -1
        self.restarts = 0
        self.connect()

    def connect(self) -> None:
        from websockets.sync.client import connect

        self.ws = connect(
            self.url, additional_headers={"Origin": "http://127.0.0.1", "Cookie": self.cookie}
        )

    def send(self, move: dict[str, Any]) -> bool:
        from websockets.exceptions import ConnectionClosed

        try:
            self.ws.send(json.dumps(move))
        except ConnectionClosed:
            return False
        return True

    def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            frame = str(self.ws.recv(timeout=0.05))
        except TimeoutError:
            return
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            if code != SERVICE_RESTART:
                raise SystemExit(f"a socket closed with {code}, not {SERVICE_RESTART}") from None
            self.restarts += 1
            for _ in range(50):  # as the page does: again, until a process answers
                try:
                    self.connect()
                    return
                except Exception:  # refused, or nginx's 502 while no process answers
                    time.sleep(0.2)
            raise SystemExit("no server took the socket again") from None
        if found := VERSION.search(frame):
            self.frame, self.version = frame, int(found.group(1))


def play(site: str, servers: dict[int, subprocess.Popen[bytes]], env: dict[str, str]) -> None:
    """Two players through nginx; each server restarted in turn after a few moves."""
    from django.test import Client

    from accounts.models import User
    from games import services
    from games.engine import PRESETS
    from games.models import Move, Table

    def cookie(user: User) -> str:
        client = Client()
        client.force_login(user)
        return f"sessionid={client.cookies['sessionid'].value}; django_language=en"

    anna = User.objects.create_user(username="anna_deploy", password=secrets.token_hex(8))
    bruno = User.objects.create_user(username="bruno_deploy", password=secrets.token_hex(8))
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PRESETS["blocco"])
    version = lambda: Table.objects.values_list("version", flat=True).get(pk=table.pk)  # noqa: E731
    services.table_join(table_id=table.pk, user=bruno, version=version())
    services.table_start(table_id=table.pk, by=anna, version=version())
    url = site.replace("http://", "ws://") + f"/ws/table/{table.code}/"
    players = [Player(url, cookie(anna)), Player(url, cookie(bruno))]
    to_restart = list(servers)
    sent: set[tuple[int, int]] = set()  # (connection, version) a move was sent at
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        for player in players:
            player.read()
        if all("match-result" in p.frame for p in players):
            break
        for player in players:
            move = first_move(player.frame)
            # a move sent as its server stopped may not have been taken: on the next
            # connection, the page lets the player send it again
            at = (player.restarts, player.version)
            if move and int(move["version"]) == player.version and at not in sent:
                if not player.send(move):
                    continue  # closed meanwhile: the next read reconnects
                sent.add(at)
                if to_restart and len(sent) % 3 == 0:  # systemctl restart domino@<port>
                    port = to_restart.pop(0)
                    servers[port].send_signal(signal.SIGTERM)
                    if servers[port].wait(timeout=30) != 0:
                        raise SystemExit(f"the server on {port} did not stop cleanly")
                    servers[port] = started("domino@.service", env, str(port))
                    wait_for(f"http://127.0.0.1:{port}/healthz")  # then the next one
    else:
        raise SystemExit(f"the game did not end: versions {[p.version for p in players]}")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, table.status
    assert all(p.version == table.version for p in players)
    assert not to_restart, "both servers restarted mid-game"
    assert sum(p.restarts for p in players) >= 1
    print(
        f"a game through nginx: {Move.objects.filter(hand__table=table).count()} moves, "
        f"version {table.version}, {sum(p.restarts for p in players)} reconnections"
    )


def main() -> None:
    nginx = ensure_nginx()
    from domino_site.scaled import free_ports

    work = Path(tempfile.mkdtemp(prefix="domino-deploy-check-"))
    work.chmod(0o755)  # nginx's workers (nobody, under root) read the static files there
    first = free_ports(2)
    ports, listen = [first, first + 1], free_ports(1)
    database = DATABASE.rsplit("/", 1)
    maintenance = f"{database[0]}/postgres"
    subprocess.run(
        ["dropdb", "--if-exists", "--force", "--maintenance-db", maintenance, database[1]],
        check=True,
    )
    subprocess.run(["createdb", "--maintenance-db", maintenance, database[1]], check=True)
    subprocess.run(["redis-cli", "-u", REDIS, "FLUSHDB"], check=True, capture_output=True)
    env = {**os.environ, **env_file(HERE / "domino.env.example")}
    env.update(
        DATABASE_URL=DATABASE,
        REDIS_URL=REDIS,
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_HTTPS="0",  # plain HTTP here: nginx's TLS is taken out
        DJANGO_STATIC_ROOT=str(work / "staticfiles"),
        EMAIL_URL="console://",
    )
    os.environ.update(env)  # this process plays through the same database
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [*manage, "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    site = work / "site.conf"
    site.write_text(nginx_site(ports, listen, work / "staticfiles"))
    (work / "nginx.conf").write_text(nginx_main(work, site))
    subprocess.run([nginx, "-t", "-q", "-p", str(work), "-c", str(work / "nginx.conf")], check=True)
    servers = {port: started("domino@.service", env, str(port)) for port in ports}
    worker = started("domino-worker.service", env)
    proxy = subprocess.Popen([nginx, "-p", str(work), "-c", str(work / "nginx.conf")])
    try:
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/healthz")
        url = f"http://127.0.0.1:{listen}"
        wait_for(f"{url}/healthz")
        status, _, page = get(f"{url}/")
        assert status == 200, status
        stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
        assert stylesheet, "the page links the hashed stylesheet"
        status, headers, _ = get(url + stylesheet.group(1).decode())
        assert status == 200 and headers.get("Server", "").startswith("nginx"), headers
        assert "max-age=31536000" in headers.get("Cache-Control", ""), headers  # nginx's own
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
        django.setup()
        play(url, servers, env)
    finally:
        for child in (proxy, worker, *servers.values()):
            if child.poll() is None:
                child.terminate()
        for child in (proxy, worker, *servers.values()):
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
        from django.db import connections

        connections.close_all()
        subprocess.run(
            ["dropdb", "--if-exists", "--force", "--maintenance-db", maintenance, database[1]]
        )
        shutil.rmtree(work, ignore_errors=True)
    print("deploy/: the units and the nginx site work as written")


if __name__ == "__main__":
    main()
