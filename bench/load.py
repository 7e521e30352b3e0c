"""``python bench/load.py …`` as before: runs the load benchmark, now the package bench/load/."""

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the project, not bench/
from bench.load.cli import main  # noqa: E402

sys.exit(main())
