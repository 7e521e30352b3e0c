"""``python -m bench.load …``, or ``python bench/load …`` (the folder run as a script)."""

import sys
from pathlib import Path

if not __package__:  # run as a folder: the project on the path instead of the folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])

from bench.load.cli import main

sys.exit(main())
