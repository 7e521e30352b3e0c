"""What other apps say about each seat of a finished match, for everyone at the table.

Games knows nothing of ratings: an app that keeps something per seat of a finished
match (a rating's change) registers here a function (``@notes``) that reads its own
records of one table.  A table's state reads them once, when the match is over
(``games.states``), as it reads the payouts (``games.hooks.payouts``); unlike payouts,
notes are public: every viewer of the end screen sees every seat's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from games.models import Table


class SeatNote(NamedTuple):
    """A figure of one seat that the match moved: ``before`` -> ``after``."""

    seat: int
    kind: str  # "rating"
    before: int
    after: int
    mark: str = ""  # shown after the figure: "?" for a provisional rating

    @property
    def change(self) -> int:
        return self.after - self.before


Reader = Callable[[Table], Iterable[SeatNote]]
_readers: list[Reader] = []


def notes(reader: Reader) -> Reader:
    """Register a function that reads the notes of a finished ``table``."""
    if reader not in _readers:
        _readers.append(reader)
    return reader


def notes_of(table: Table) -> tuple[SeatNote, ...]:
    """Every seat's notes, by seat then in the readers' order (none until the match
    is finished)."""
    if table.status != Table.Status.FINISHED:
        return ()
    found = [note for reader in _readers for note in reader(table)]
    return tuple(sorted(found, key=lambda n: n.seat))
