"""daphne on uvloop: ``python -m domino_site.serve`` takes daphne's own arguments.

daphne makes its event loop (and installs Twisted's asyncio reactor on it) as its
module is imported, from the event loop policy in force: setting uvloop's first
makes that loop uvloop's, a faster implementation of the same asyncio loop (Twisted's
asyncio reactor accepts it since Twisted 21.7).  Under load it carried 4% more moves
a second than the standard loop (docs/performance.md).  ``make run``, ``make serve-scaled``, the
browser tests and the load benchmark start daphne this way.
"""

from __future__ import annotations

import asyncio

import uvloop


def use_uvloop() -> None:
    """Event loops made from now on are uvloop's (before daphne is imported)."""
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def main() -> None:
    use_uvloop()
    from daphne.cli import CommandLineInterface  # type: ignore[import-untyped]  # loop made here

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
