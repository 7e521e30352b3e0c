"""The table's live templates (templates/regions/games/) as a player sees them: one move
where there is nothing to choose, the open ends, what just happened, the tab's title,
the scoreboard, and tiles drawn from the page's one set of bodies and pips."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import services
from games.engine import ALL_TILES, Tile
from games.models import Table
from games.selectors import table_view
from tests.fixtures import DUELLO, play_to_the_end, version_of

pytestmark = pytest.mark.django_db


def _position(line: str, mine: list[str], theirs: list[str]) -> str:
    used = set(mine) | set(theirs) | {str(Tile.parse(p)) for p in line.split(",")}
    rest = [str(t) for t in ALL_TILES if str(t) not in used]
    hands = f"{','.join(mine)}/{','.join(theirs)}"
    return f"hands={hands} boneyard={','.join(rest)} line={line} turn=0 dealer=1"


def _table_at(anna: User, bruno: User, position: str) -> Table:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, version=version_of(table), user=bruno)
    services.table_start(table_id=table.pk, version=version_of(table), by=anna)
    hand = table.hands.get()
    hand.initial_position = position
    hand.save()
    table.refresh_from_db()
    return table


def test_a_tile_that_fits_two_ends_showing_the_same_number_is_one_move(
    anna: User, bruno: User
) -> None:
    table = _table_at(anna, bruno, _position("3|3", ["5|3", "6|6"], ["1|1", "2|2"]))
    tv = table_view(table=table, user=anna)
    tile = next(h for h in tv.hand if h.tile == Tile(5, 3))
    assert tile.single_move == "5|3L"  # nothing to choose: no end buttons
    page = render_to_string("games/_hand.html", {"tv": tv})
    assert "ends-choice" not in page and page.count("tile-button") == 1
    assert "end-target" not in render_to_string("games/_board.html", {"tv": tv})


def test_a_real_choice_offers_both_buttons_and_the_open_ends_on_the_line(
    anna: User, bruno: User
) -> None:
    table = _table_at(anna, bruno, _position("2|3,3|3,3|4", ["4|2", "6|6"], ["1|1", "0|0"]))
    tv = table_view(table=table, user=anna)
    assert next(h for h in tv.hand if h.tile == Tile(4, 2)).single_move is None
    hand = render_to_string("games/_hand.html", {"tv": tv})
    assert "end-left" in hand and "end-right" in hand
    board = render_to_string("games/_board.html", {"tv": tv})
    assert 'data-end="left"' in board and 'data-end="right"' in board


def test_the_tile_just_played_is_highlighted_at_the_end_it_went_to(anna: User, bruno: User) -> None:
    table = _table_at(anna, bruno, _position("2|3,3|3,3|4", ["4|2", "6|6"], ["1|1", "0|0"]))
    services.move_submit(table_id=table.pk, user=anna, move="4|2R", version=version_of(table))
    tv = table_view(table=table, user=bruno)
    assert tv.last_move is not None
    assert (tv.last_move.seat, tv.last_move.kind, tv.last_move.end) == (0, "play", "right")
    board = render_to_string("games/_board.html", {"tv": tv})
    assert board.count(" last") == 2  # the line's class and the one tile
    last_tile = board.split('class="placed')[-1]  # the right end: the line's last tile
    assert last_tile.startswith(" last ") and 'data-tile="4|2"' in last_tile
    head = render_to_string("games/_head.html", {"tv": tv})
    assert f'data-last-move="{tv.last_move.key}"' in head and 'data-last-seat="0"' in head


def test_the_log_with_equal_ends_names_one_number_not_niente_0_ne_0(
    anna: User, bruno: User
) -> None:
    # bruno has nothing on 3 and must draw: the log said "niente 3 né 3"
    table = _table_at(anna, bruno, _position("3|3", ["6|6", "5|5"], ["1|1", "0|0"]))
    table.hands.update(
        initial_position=table.hands.get().initial_position.replace("turn=0", "turn=1")
    )
    services.move_submit(table_id=table.pk, user=bruno, move="draw", version=version_of(table))
    tv = table_view(table=table, user=anna)
    with translation.override("it"):
        log = render_to_string("games/_log.html", {"tv": tv})
    assert "niente 3" in log and "né" not in log


def test_the_tab_title_says_your_turn_and_starts_with_a_capital(anna: User, bruno: User) -> None:
    table = _table_at(anna, bruno, _position("3|3", ["5|3", "6|6"], ["1|1", "2|2"]))
    with translation.override("it"):
        mine = render_to_string("games/_head.html", {"tv": table_view(table=table, user=anna)})
        theirs = render_to_string("games/_head.html", {"tv": table_view(table=table, user=bruno)})
    assert 'data-title="● Tocca a te — Domino"' in mine
    title = theirs.split('data-title="')[1].split('"')[0]
    assert title.endswith(" · Domino") and title[0].isupper() and "Tocca" not in title


def test_the_scoreboard_shows_progress_to_the_target(friends_table: Table) -> None:
    tv = table_view(table=friends_table, user=friends_table.host)
    page = render_to_string("games/_scores.html", {"tv": tv})
    assert page.count("/ 100") == 2 and page.count('class="progress"') == 2


def test_tiles_are_drawn_from_the_pages_one_set_of_bodies_and_pips(
    anna: User, bruno: User, client: Client
) -> None:
    """A tile refers to the body and the pips the table page draws once, so that a
    frame, which carries tiles by the dozen, draws none of them."""
    table = _table_at(anna, bruno, _position("6|5,5|0", ["6|6", "4|3"], ["1|1", "2|2"]))
    client.force_login(anna)
    page = client.get(reverse("table", args=[table.code])).content.decode()
    assert page.count('class="tile-sprite"') == 1
    groups = dict(re.findall(r'<g id="((?:pips|tile)-\w+)">(.*?)</g>', page))
    # each number from 1 to 6, standing and lying, drawn once with its own pips
    pips = sorted(f"pips-{o}{n}" for o in "au" for n in range(1, 7))
    assert sorted(groups) == sorted([*pips, "tile-flat", "tile-upright"])
    assert all(groups[f"pips-{o}{n}"].count("<circle") == n for o in "au" for n in range(1, 7))
    for body in ("tile-flat", "tile-upright"):  # a face and a bar, coloured by the page's CSS
        assert groups[body].count("<rect") == 1 and groups[body].count("<line") == 1
        assert 'class="tile-face"' in groups[body] and 'class="tile-bar"' in groups[body]

    def drawn_from(label: str) -> list[str]:
        return re.findall(
            r'href="#([\w-]+)"', page.split(f'aria-label="{label}"')[1].split("</svg>")[0]
        )

    # named as they are said (Italian: the site's default)
    assert drawn_from("sei–cinque") == ["tile-flat", "pips-a6", "pips-a5"]  # on the line, lying
    assert drawn_from("doppio sei") == ["tile-upright", "pips-u6", "pips-u6"]  # in anna's hand
    assert drawn_from("cinque–zero") == ["tile-flat", "pips-a5"]  # a blank half: no pips
    tv = table_view(table=table, user=anna)
    for region in ("games/_board.html", "games/_hand.html", "games/_log.html"):
        html = render_to_string(region, {"tv": tv})
        assert "<circle" not in html and "<rect" not in html and "tile-sprite" not in html


def test_the_match_end_box_shows_the_final_score(friends_table: Table) -> None:
    play_to_the_end(friends_table)
    tv = table_view(table=friends_table.pk, user=friends_table.host)
    with translation.override("it"):
        status = render_to_string("games/_status.html", {"tv": tv})
        box = status.split('class="match-result')[1].split("</div>")[0]
        assert "Punteggio finale" in box
        for side in tv.scores:  # each side's names and points, in the box itself
            assert f"{side.names} <strong>{side.points}</strong>" in box
