"""The engine under Pyodide against the engine on the server, deal by deal: the same
seeded hands of every table the site offers (``games.engine.differential``: every
position, every legal-move list and every bot decision) traced on this CPython and
under the fetched Pyodide in Node with the engine's zip the browser gets, their
digests compared.  The suite compares fewer deals
(``tests/offline/test_engine_under_pyodide.py``).

    .venv/bin/python bench/offline_engine.py [--deals 1000] [--json results.json]

It prints the counts, each side's seconds and the result, and exits with 1 when a
deal plays differently, naming it and the first line where the traces part.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import build_offline  # noqa: E402
import run_pyodide  # noqa: E402

from games.engine import differential  # noqa: E402


def under_pyodide(engine_zip: Path, *args: str) -> Any:
    """What ``python -m games.engine.differential *args`` prints under Pyodide, read."""
    output = run_pyodide.run_module(
        "games.engine.differential", *args, engine_zip=engine_zip, timeout=3600
    )
    return json.loads(output)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    engine_zip = build_offline.build()
    started = time.perf_counter()
    browser = under_pyodide(engine_zip, "--deals", str(args.deals))
    node_seconds = time.perf_counter() - started
    server = differential.summary(args.deals)
    mismatch = differential.difference(
        server, browser, lambda number: under_pyodide(engine_zip, "--trace", str(number))
    )
    counts = ("deals", "plies", "legal_move_lists", "decisions")
    pairs = zip(server["digests"], browser["digests"], strict=True)
    results = {
        "identical": mismatch is None,
        "deals_differing": sum(ours != theirs for ours, theirs in pairs),
        "mismatch": mismatch,
        **{name: server[name] for name in counts},
        "tables": len(differential.TABLES),
        "hard_iterations": differential.HARD_ITERATIONS,
        "server": {"python": server["python"], "seconds": round(server["seconds"], 2)},
        "pyodide": {
            "python": browser["python"],
            "platform": browser["platform"],
            "seconds": round(browser["seconds"], 2),
            "node_process_seconds": round(node_seconds, 2),  # Pyodide's start included
        },
    }
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")
    if mismatch is not None:
        print(mismatch, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
