"""Where the site overrides a library's insides for speed, and nowhere else.

Each module here replaces or reaches into something a library does not promise to
keep (a private name, Channels' consumer loop), kept only
while removing it costs more than 10% under load — the p99 at human pace (250
tables) or the server's CPU at 200 moves a second, in alternating runs of
``python -m bench.load`` (docs/performance.md has the figures).  Each names the
library version it was written against; tests/overrides/test_written_against.py
fails when one of those libraries changes underneath it: re-read the module against
the new version, and measure again whether it still earns its place.

Nothing here imports the site's own apps.
"""
