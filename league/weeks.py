"""League weeks: Monday 00:00 to Sunday 24:00, Italian time (a plain value, no database).

A week is named by its ISO week, ``"2026-W49"``; its Monday at midnight in
Rome is where it starts, the next Monday's midnight where it ends, so the week
of the March change to summer time lasts 167 hours and October's 169.

>>> from datetime import datetime, timezone
>>> week = week_of(datetime(2026, 11, 29, 22, 59, tzinfo=timezone.utc))
>>> week.key, week.next.key
('2026-W48', '2026-W49')
>>> week_of(datetime(2026, 11, 29, 23, 0, tzinfo=timezone.utc)).key  # Monday, 00:00 in Rome
'2026-W49'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from economy.numbers import LEAGUE_ZONE


@dataclass(frozen=True, order=True)
class Week:
    """One league week, known by its Monday (a date in Rome)."""

    monday: date

    def __post_init__(self) -> None:
        if self.monday.weekday() != 0:
            raise ValueError(f"a league week starts on a Monday, not on {self.monday}")

    @classmethod
    def parse(cls, key: str) -> Week:
        """``"2026-W49"`` -> that week; ValueError for anything else."""
        year, sep, number = key.partition("-W")
        if not sep or not year.isdigit() or not number.isdigit():
            raise ValueError(f"not a league week: {key!r}")
        return cls(date.fromisocalendar(int(year), int(number), 1))

    @property
    def key(self) -> str:
        year, number, _day = self.monday.isocalendar()
        return f"{year}-W{number:02d}"

    @property
    def starts_at(self) -> datetime:
        """Monday's midnight in Rome, in UTC (so that differences count real hours)."""
        return datetime.combine(self.monday, time(0), tzinfo=LEAGUE_ZONE).astimezone(UTC)

    @property
    def ends_at(self) -> datetime:
        """The next Monday's midnight in Rome (exclusive)."""
        return self.next.starts_at

    @property
    def sunday(self) -> date:
        return self.monday + timedelta(days=6)

    @property
    def next(self) -> Week:
        return Week(self.monday + timedelta(days=7))

    @property
    def previous(self) -> Week:
        return Week(self.monday - timedelta(days=7))

    def __str__(self) -> str:
        return self.key


def week_of(moment: datetime) -> Week:
    """The league week a moment (timezone-aware) falls in."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("a league week needs a timezone-aware moment")
    local = moment.astimezone(LEAGUE_ZONE).date()
    return Week(local - timedelta(days=local.weekday()))
