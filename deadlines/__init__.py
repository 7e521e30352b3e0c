"""Time-based work: deadlines are rows, claimed by a worker and applied exactly once.

Each app registers the kinds it owns and their handlers (``deadlines.services.handles``);
this app knows none of them.  The worker runs as ``manage.py run_worker`` or, for the
embedded default, inside each daphne process (``deadlines.clock``).
"""
