"""What a player sees at the table: who is who, what just happened, one move
where there is nothing to choose, the error pages and the new-table form."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone, translation
from django.views.defaults import server_error

from accounts.models import User
from deadlines.services import run_due
from games import services
from games.bot_names import BOT_NAMES
from games.engine import ALL_TILES, Tile
from games.models import Table
from games.records import load_match
from games.selectors import table_view
from tests.fixtures import DUELLO, PAIRS, version_of

pytestmark = pytest.mark.django_db


def _bot_names(table: Table) -> list[str]:
    return [s.bot_name for s in table.seats.order_by("number") if s.is_bot]


def test_every_bot_at_a_four_player_table_has_its_own_name_from_its_levels_list(
    anna: User,
) -> None:
    for level in BOT_NAMES:
        table = services.table_create(
            host=anna, mode=Table.Mode.COMPUTER, rules=PAIRS, bot_level=level
        )
        names = _bot_names(table)
        assert len(names) == 3 and len(set(names)) == 3
        assert set(names) <= set(BOT_NAMES[level])
        assert table.seats.get(number=0).bot_name == ""  # the host is a person


def test_bots_the_host_adds_get_names_distinct_at_the_table_and_lose_them_when_removed(
    anna: User,
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=PAIRS)
    services.table_set_bot(
        table_id=table.pk, by=anna, seat_number=1, level="hard", version=version_of(table)
    )
    services.table_fill_with_bots(
        table_id=table.pk, by=anna, level="hard", version=version_of(table)
    )
    names = _bot_names(table)
    assert len(set(names)) == 3 and set(names) <= set(BOT_NAMES["hard"])
    swapped = table.seats.get(number=1).bot_name
    services.table_swap_seats(table_id=table.pk, by=anna, a=0, b=1, version=version_of(table))
    assert table.seats.get(number=0).bot_name == swapped  # the name goes with the bot
    services.table_set_bot(
        table_id=table.pk, by=anna, seat_number=3, level="", version=version_of(table)
    )
    assert table.seats.get(number=3).bot_name == ""


def _play_the_hand_out(table: Table, person: User) -> None:
    """The person plays their first legal move; the bots play when their time comes."""
    for _ in range(200):
        table.refresh_from_db()
        match = load_match(table)
        if match.round.over:
            return
        if match.round.turn == 0:
            services.move_submit(
                table_id=table.pk,
                user=person,
                move=str(match.round.legal_moves()[0]),
                version=table.version,
            )
        else:
            run_due(now=timezone.now() + timedelta(minutes=5))
    raise AssertionError("the hand did not end")


def test_a_bots_name_is_the_same_on_its_seat_the_log_the_result_and_the_scoreboard(
    anna: User,
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=PAIRS)
    bots = set(_bot_names(table))
    _play_the_hand_out(table, anna)
    tv = table_view(table=table, user=anna)
    assert {s.name for s in tv.seats} == bots | {"You"}
    assert {line.name for line in tv.log} <= bots | {"You"}
    assert {line.name for line in tv.log} & bots  # the bots moved, under their names
    assert {r.name for r in tv.revealed} == bots | {"You"}
    partner = table.seats.get(number=2).bot_name
    assert any(s.names == f"You & {partner}" for s in tv.scores)
    page = render_to_string("games/_live.html", {"tv": tv, "share_url": ""})
    for name in bots:
        assert page.count(name) >= 3  # seat card, log or result, scoreboard


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
    assert last_tile.startswith(' last"') and 'data-tile="4|2"' in last_tile
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


@pytest.fixture
def no_debug(settings: Any) -> None:
    settings.DEBUG = False


@pytest.mark.usefixtures("no_debug")
def test_a_mistyped_table_link_shows_the_sites_404_page_in_both_languages(
    english: Client,
) -> None:
    italian = Client().get("/t/nessuno/")
    assert italian.status_code == 404
    assert "Questa pagina non è sul tavolo" in italian.content.decode()
    assert 'name="viewport"' in italian.content.decode()
    page = english.get("/t/nobody/").content.decode()
    assert "This page is not on the table" in page and 'class="topbar"' in page


def test_the_500_page_is_the_sites_and_needs_nothing_that_could_fail(rf: RequestFactory) -> None:
    for language, text in (("it", "Qualcosa è andato storto"), ("en", "Something went wrong")):
        with translation.override(language):
            response = server_error(rf.get("/"))
        assert response.status_code == 500
        page = response.content.decode()
        assert text in page and "site.css" in page and 'name="viewport"' in page


def _form(client: Client, **data: str) -> str:
    response = client.get(reverse("table_new"), data, headers={"HX-Request": "true"})
    return str(response.content.decode())


def _selected(page: str, field: str) -> str:
    select = page.split(f'name="{field}"')[1].split("</select>")[0]
    return select.split(" selected>")[0].rsplit('value="', 1)[1].split('"')[0]


def test_changing_the_game_resets_the_target_to_that_games_default(english: Client) -> None:
    page = _form(english, preset="luciano", shown_preset="domino", target="150", mode="computer")
    assert _selected(page, "target") == "100"
    same = _form(english, preset="luciano", shown_preset="luciano", target="150", mode="computer")
    assert _selected(same, "target") == "150"  # a change of something else keeps the choice


def test_four_players_with_seven_tiles_say_there_is_no_boneyard(english: Client) -> None:
    page = _form(english, preset="domino", shown_preset="domino", seating="4p", hand_size="7")
    draw = page.split('name="draw"')[1].split("</select>")[0]
    assert "no boneyard" in draw and "draw from the boneyard" not in draw
    five = _form(english, preset="domino", shown_preset="domino", seating="4p", hand_size="5")
    assert "draw from the boneyard" in five.split('name="draw"')[1].split("</select>")[0]


def test_the_profile_hides_an_xp_bar_with_no_xp(
    client: Client, make_user: Callable[..., User]
) -> None:
    carla = make_user("carla")
    client.force_login(carla)
    page = client.get(reverse("accounts:me")).content.decode()
    assert "<progress" not in page
    carla.xp = 150
    carla.save()
    assert "<progress" in client.get(reverse("accounts:me")).content.decode()


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
        assert "var(--tile-face)" in groups[body]

    def drawn_from(label: str) -> list[str]:
        return re.findall(
            r'href="#([\w-]+)"', page.split(f'aria-label="{label}"')[1].split("</svg>")[0]
        )

    assert drawn_from("6|5") == ["tile-flat", "pips-a6", "pips-a5"]  # on the line, lying
    assert drawn_from("6|6") == ["tile-upright", "pips-u6", "pips-u6"]  # in anna's hand
    assert drawn_from("5|0") == ["tile-flat", "pips-a5"]  # a blank half: no pips
    tv = table_view(table=table, user=anna)
    for region in ("games/_board.html", "games/_hand.html", "games/_log.html"):
        html = render_to_string(region, {"tv": tv})
        assert "<circle" not in html and "<rect" not in html and "tile-sprite" not in html
