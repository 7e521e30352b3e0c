"""Serve a ``--rev`` or ``--site`` tree alone (``bench/load/server.py`` puts this folder on
its ``PYTHONPATH``): the checkout's editable install (setuptools' finder, on
``sys.meta_path``) would otherwise supply every module that tree lacks from the
checkout, and an older tree would run with the newer one's modules mixed in."""

import sys

sys.meta_path[:] = [
    finder
    for finder in sys.meta_path
    if not getattr(finder, "__module__", "").startswith("__editable__")
]
