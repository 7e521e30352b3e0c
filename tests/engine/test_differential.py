"""The traces compared between the server's Python and Pyodide's
(``games.engine.differential``; the comparison itself is in tests/offline/)."""

from __future__ import annotations

import re

from games.engine import differential
from games.engine.differential import TABLES, difference, summary, trace

SUITE_DEALS = 4 * len(TABLES)  # as many as tests/offline compares


def test_the_suites_deals_cover_every_seating_hand_size_and_drawing_choice() -> None:
    starts = [trace(n)[0] for n in range(SUITE_DEALS)]
    tables = {line.split(" | ")[0].split(": ")[1] for line in starts}
    assert len(tables) == len(TABLES) == 13
    for setting in (
        *("blocco", "domino", "duello", "luciano"),
        *("players=2", "players=3", "players=4", "teams=yes", "teams=no"),
        *("hand_size=5", "hand_size=7", "draw=yes", "draw=no"),
    ):
        assert any(setting in table.split() for table in tables), setting
    # the opening tile is forced, or (a hand after a winner, in duello) any tile will do
    assert any("opener=any" in line for line in starts)
    assert any(re.search(r" opener=\d\|\d ", line) for line in starts)


def test_a_deal_plays_the_same_every_time_the_hard_bot_counting_deals_not_time() -> None:
    first = summary(len(TABLES))
    again = summary(len(TABLES))
    assert first["digests"] == again["digests"]
    assert len(set(first["digests"])) == len(TABLES)
    assert first["decisions"] == 3 * first["plies"]


def test_a_difference_is_named_by_its_deal_and_first_differing_line() -> None:
    ours = summary(3, first=20)
    assert difference(ours, ours, trace) is None
    theirs = {**ours, "python": "3.14.0", "digests": [*ours["digests"]]}
    theirs["digests"][1] = "0" * 16
    lines = trace(21)
    changed = lines[4].replace("hard=", "hard=(another) ")

    def their_trace(number: int) -> list[str]:
        assert number == 21
        return [*lines[:4], changed, *lines[5:]]

    message = difference(ours, theirs, their_trace)
    assert message is not None
    head, here, there = message.splitlines()
    assert head.startswith(f"deal 21 ({TABLES[21 % len(TABLES)].to_text()})")
    assert here == f"  {ours['python']}: {lines[4]}" and lines[4].startswith("ply 4 |")
    assert there == f"  3.14.0: {changed}"


def test_a_trace_cut_short_parts_where_it_ends() -> None:
    lines = trace(5)
    assert differential.first_difference(lines, lines[:-1]) == len(lines) - 1
    assert differential.first_difference(lines, list(lines)) is None
