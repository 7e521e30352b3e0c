"""Several daphne processes and the deadline worker, sharing PostgreSQL and Redis.

``python -m domino_site.scaled --processes 4 --port 8001`` (``make serve-scaled``)
migrates the database, collects the static files, then starts daphne on ports
8001…8004 (each without its in-process worker) and one ``run_worker`` process,
and stops them all together.  Put the ports behind one address with a proxy
(docs/proxy.md; deploy/nginx-domino.conf has an nginx upstream block).  Scale-out
is configuration: ``DATABASE_URL`` and ``REDIS_URL`` must be set.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASGI_APP = "domino_site.asgi:application"


def scaled_env(base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    if not env.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database (postgres://…)")
    if not env.get("REDIS_URL"):
        raise SystemExit("set REDIS_URL (redis://…): the processes share its channel layer")
    env["GAME_CLOCK_ENABLED"] = "0"  # the worker runs as its own process
    return env


def free_ports(count: int = 1, host: str = "127.0.0.1") -> int:
    """The first of ``count`` consecutive ports free to listen on.

    They are taken below the range the kernel hands to outgoing connections: a port
    from that range that is free now can become the local end of a connection to
    PostgreSQL or Redis before the server binds it, and the server then fails with
    "address already in use" (it happened on CI).
    """
    below = _outgoing_ports_start()
    chooser = random.Random()  # not the seeded one tests and benches share
    for _ in range(200):
        first = chooser.randrange(10000, below - count)
        if all(_bindable(host, port) for port in range(first, first + count)):
            return first
    raise RuntimeError(f"no {count} consecutive free ports below {below}")


def _outgoing_ports_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def _bindable(host: str, port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def start(
    env: dict[str, str],
    *,
    processes: int,
    port: int,
    host: str,
    workers: int = 1,
    application: str = ASGI_APP,
) -> list[subprocess.Popen[bytes]]:
    """Start the daphne processes and the worker(s); returns them, to stop later.
    (The load benchmark serves its own ``application``, the site's plus its yardsticks.)"""
    serve = [sys.executable, "-m", "domino_site.serve"]
    children = [
        subprocess.Popen(
            [*serve, "-b", host, "-p", str(port + n), application],
            cwd=ROOT,
            env=env,
        )
        for n in range(processes)
    ]
    children += [
        subprocess.Popen([sys.executable, "manage.py", "run_worker"], cwd=ROOT, env=env)
        for _ in range(workers)
    ]
    return children


def stop(children: Sequence[subprocess.Popen[bytes]]) -> None:
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    env = scaled_env()
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    children = start(
        env, processes=args.processes, port=args.port, host=args.host, workers=args.workers
    )
    last = args.port + args.processes - 1
    print(f"daphne on {args.host}:{args.port}…{last}, {args.workers} worker(s); Ctrl-C stops")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        print("a process stopped: stopping the others", file=sys.stderr)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        stop(children)


if __name__ == "__main__":
    main()
