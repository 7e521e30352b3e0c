"""League weeks run Monday 00:00 to Sunday 24:00 in Rome, across both daylight-saving changes."""

from __future__ import annotations

import doctest
from datetime import UTC, date, datetime, timedelta

import pytest

from league import weeks
from league.weeks import Week, week_of


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def test_a_week_starts_on_monday_at_midnight_in_rome_not_in_utc() -> None:
    # Sunday 29 November 2026, 23:59 in Rome (winter: UTC+1) is still week 48.
    assert week_of(utc(2026, 11, 29, 22, 59, 59)).key == "2026-W48"
    assert week_of(utc(2026, 11, 29, 23, 0, 0)).key == "2026-W49"
    week = Week.parse("2026-W49")
    assert week.starts_at == utc(2026, 11, 29, 23)
    assert week.ends_at == utc(2026, 12, 6, 23)
    assert week.monday == date(2026, 11, 30) and week.sunday == date(2026, 12, 6)


def test_the_week_of_the_march_change_to_summer_time_lasts_167_hours() -> None:
    # Last Sunday of March 2026 is the 29th: clocks go from 02:00 to 03:00.
    week = week_of(utc(2026, 3, 29, 1, 30))  # 03:30 in Rome, just after the change
    assert week.key == "2026-W13"
    assert week.starts_at == utc(2026, 3, 22, 23)  # Monday 23 March, 00:00 CET
    assert week.ends_at == utc(2026, 3, 29, 22)  # Monday 30 March, 00:00 CEST
    assert week.ends_at - week.starts_at == timedelta(hours=167)
    assert week_of(utc(2026, 3, 29, 21, 59, 59)).key == "2026-W13"  # Sunday 23:59:59 CEST
    assert week_of(utc(2026, 3, 29, 22)).key == "2026-W14"


def test_the_week_of_the_october_change_back_lasts_169_hours() -> None:
    # Last Sunday of October 2026 is the 25th: 03:00 goes back to 02:00.
    week = week_of(utc(2026, 10, 25, 0, 30))  # 02:30 CEST, the first of the two
    assert week == week_of(utc(2026, 10, 25, 1, 30))  # 02:30 CET, the repeated hour
    assert week.key == "2026-W43"
    assert week.starts_at == utc(2026, 10, 18, 22)  # Monday 19 October, 00:00 CEST
    assert week.ends_at == utc(2026, 10, 25, 23)  # Monday 26 October, 00:00 CET
    assert week.ends_at - week.starts_at == timedelta(hours=169)
    assert week_of(utc(2026, 10, 25, 22, 59, 59)).key == "2026-W43"  # Sunday 23:59:59 CET
    assert week_of(utc(2026, 10, 25, 23)).key == "2026-W44"


def test_weeks_follow_each_other_across_the_new_year() -> None:
    last = week_of(utc(2027, 1, 1, 12))  # a Friday; 2026 has 53 ISO weeks
    assert last.key == "2026-W53"
    assert last.next.key == "2027-W01" and last.next.previous == last
    assert Week.parse(last.key) == last and str(last) == "2026-W53"
    assert last.next.starts_at == last.ends_at


@pytest.mark.parametrize("bad", ["", "2026", "2026-49", "2026-Wxx", "W49"])
def test_a_week_key_that_is_not_one_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        Week.parse(bad)


def test_a_moment_without_a_timezone_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        week_of(datetime(2026, 11, 30, 12))
    with pytest.raises(ValueError, match="Monday"):
        Week(date(2026, 12, 1))


def test_the_examples_in_the_weeks_module_hold() -> None:
    failed, attempted = doctest.testmod(weeks)
    assert attempted >= 3 and failed == 0
