"""One snapshot per version: the public parts of a table are rendered once and
reused by every viewer, while each viewer still reads their own view."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from accounts.models import User
from games import services
from games.engine import PASS
from games.live import fragments, frames
from games.live.fragments import region_html
from games.models import Table
from games.records import load_match
from games.selectors import table_view
from games.view.parts import SeatLabel
from games.view.regions import DRAWN_FRAGMENTS, KEYED, REGIONS, SAID
from tests.fixtures import PAIRS, play_a_legal_move, seat_user, version_of


@pytest.fixture
def pairs_table(make_user: Callable[..., User]) -> Table:
    """Four players in pairs (seats 0-3), started, a few moves into the first hand."""
    host = make_user("anna")
    table = services.table_create(host=host, mode=Table.Mode.FRIENDS, rules=PAIRS)
    for name in ("bruno", "carla", "dario"):
        services.table_join(table_id=table.pk, version=version_of(table), user=make_user(name))
    services.table_start(table_id=table.pk, version=version_of(table), by=host)
    rng = random.Random(5)
    for _ in range(6):
        play_a_legal_move(table, rng)
    return table


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each of the live templates is rendered (a fragment drawn in Python
    counts as its template)."""
    counts: Counter[str] = Counter()
    render = fragments._render

    def counting(template: str, *args: Any, **kwargs: Any) -> str:
        counts[template] += 1
        return render(template, *args, **kwargs)

    def counting_drawing(template: str, draw: Callable[..., str]) -> Callable[..., str]:
        def drawing(**values: Any) -> str:
            counts[template] += 1
            return draw(**values)

        return drawing

    monkeypatch.setattr(fragments, "_render", counting)
    for template, draw in DRAWN_FRAGMENTS.items():
        monkeypatch.setitem(DRAWN_FRAGMENTS, template, counting_drawing(template, draw))
    return counts


def screen(table: Table, user: User | None) -> str:
    tv = table_view(table=table.pk, user=user)
    return frames.page_screen({"tv": tv, "share_url": "", "user": user})[0]


def test_the_line_is_rendered_once_per_version_for_every_viewer(
    pairs_table: Table, rendered: Counter[str]
) -> None:
    viewers = [seat_user(pairs_table, n) for n in range(4)] + [None]
    screens = [screen(pairs_table, v) for v in viewers]
    assert rendered["games/_live.html"] == 5
    # the board and its line of tiles: public, one render
    assert rendered["games/_board_body.html"] == 1
    assert all('class="placed' in s for s in screens)

    rendered.clear()
    play_a_legal_move(pairs_table)
    for viewer in viewers:
        screen(pairs_table, viewer)
    # the new version's board and its line, once for every viewer (not at all when it
    # shows what a board shown before did: a pass after a pass, at four players with
    # no boneyard); the same for the player to move (whose ends' targets show only
    # while a tile is chosen) as for everybody else
    assert rendered["games/_board_body.html"] <= 1
    # 20 seat boxes shown: only the mover's (and the last passer's) are new, each
    # in three wordings at most ("You", "partner", everybody else's)
    assert rendered["games/_seat_label.html"] <= 6
    # the new log line's words, once for every viewer: its seat's name (its player
    # reads "You") is drawn around them
    assert rendered["games/_log_line.html"] <= 1


def test_a_shared_fragment_speaks_each_viewers_language(pairs_table: Table) -> None:
    anna = seat_user(pairs_table, 0)
    with translation.override("it"):
        italian = screen(pairs_table, anna)
    english = screen(pairs_table, anna)  # the tests' default: English
    assert "Punteggio" in italian and "Score" not in italian
    assert "Score" in english and "Punteggio" not in english
    assert "4 giocatori" in italian and "4 players" in english  # the shared title


def test_each_player_reads_you_on_their_own_log_lines(pairs_table: Table) -> None:
    names = {n: seat_user(pairs_table, n).display_name for n in range(4)}
    for seat in range(4):
        log = screen(pairs_table, seat_user(pairs_table, seat)).split('id="log"')[1]
        shown = set(_who(log))
        assert "You" in shown and names[seat] not in shown
        assert shown - {"You"} <= {names[n] for n in range(4) if n != seat}
    watched = set(_who(screen(pairs_table, None).split('id="log"')[1]))
    assert "You" not in watched and watched <= set(names.values())


def _who(log_html: str) -> list[str]:
    return [part.split("</span>")[0] for part in log_html.split('<span class="who">')[1:]]


def test_a_process_keeps_so_many_fragments_and_drops_the_oldest_first(
    monkeypatch: pytest.MonkeyPatch, rendered: Counter[str]
) -> None:
    monkeypatch.setattr(fragments, "KEEP", 3)
    fragments.forget()
    for n in range(5):  # five fragments: only the last three are kept
        fragments.shared_html("games/_seat_count.html", tiles=n)
    assert rendered["games/_seat_count.html"] == 5
    fragments.shared_html("games/_seat_count.html", tiles=4)  # kept, and used again
    assert rendered["games/_seat_count.html"] == 5
    fragments.shared_html("games/_seat_count.html", tiles=0)  # dropped: rendered again
    assert rendered["games/_seat_count.html"] == 6
    assert len(fragments._kept) == 3


def frame_of(
    table: Table, user: User | None, screen: frames.Screen | None = None
) -> tuple[str, frames.Screen]:
    """The frame a screen of ``user``'s showing ``screen`` (nothing yet) is sent now."""
    with translation.override("en"):
        tv = table_view(table=table.pk, user=user, with_presence=True)
        context = {"share_url": "", "user": user}
        return frames.view_frame(tv, screen or frames.Screen(), language="en", context=context)


def test_a_frames_hand_board_and_scores_are_the_pages_own(pairs_table: Table) -> None:
    """A frame looks these regions up by their values instead of rendering the page's
    templates for them: both ways give the same HTML, for each player and a spectator."""
    for user in [seat_user(pairs_table, n) for n in range(4)] + [None]:
        page = screen(pairs_table, user)
        frame, _screen = frame_of(pairs_table, user)
        tv = table_view(table=pairs_table.pk, user=user)
        for region in ("games/_hand.html", "games/_board.html", "games/_scores.html"):
            html = region_html(region, tv, "en")
            assert html in page and html in frame
        if user is not None:  # their own tiles, in both
            assert all(f'data-tile="{t.tile}"' in page for t in tv.hand)


def test_an_unchanged_score_is_not_rendered_again_for_the_next_move(
    pairs_table: Table, rendered: Counter[str]
) -> None:
    # The move under test lays a tile: a pass after a pass (in about 3 deals in 1,000
    # here) leaves the line as it was, and the board of a player it skips unchanged.
    while load_match(pairs_table).round.legal_moves() == (PASS,):
        play_a_legal_move(pairs_table)
    players = [seat_user(pairs_table, n) for n in range(4)]
    screens = [frame_of(pairs_table, player)[1] for player in players]
    rendered.clear()
    play_a_legal_move(pairs_table)
    sent = [frame_of(pairs_table, p, s)[0] for p, s in zip(players, screens, strict=True)]
    assert rendered["games/_score_body.html"] == 0  # nobody scored: looked up, not sent
    assert not any('id="scores"' in frame for frame in sent)
    assert all('id="board"' in frame for frame in sent)  # the line moved on


def test_a_kept_fragment_is_found_by_its_named_tuples_and_is_not_scanned_by_the_collector(
    rendered: Counter[str],
) -> None:
    """Kept for every later viewer, the fragments' keys were a large part of what each
    full garbage collection walked under load: they are kept as builtin tuples."""
    fragments.forget()
    label = SeatLabel("Anna", False, "", False, True, False, False, False, "", 7)
    first = fragments.shared_in("en", "games/_seat_label.html", seat=label)
    again = fragments.shared_in("en", "games/_seat_label.html", seat=label._replace())
    assert again is first and rendered["games/_seat_label.html"] == 1
    (key,) = fragments._kept
    for _ in range(3):  # the collector lets go of a tuple one level a pass
        gc.collect()
    assert not gc.is_tracked(key)


def test_a_seat_renamed_during_a_hand_has_the_whole_log_sent_again(pairs_table: Table) -> None:
    _frame, screen = frame_of(pairs_table, seat_user(pairs_table, 0))
    tv = table_view(table=pairs_table.pk, user=seat_user(pairs_table, 0))
    assert frames.new_log_lines(tv, screen.log) == ()  # nothing new: nothing to send
    renamed = tv._replace(seats=tuple(s._replace(name=s.name + "!") for s in tv.seats))
    assert frames.new_log_lines(renamed, screen.log) is None  # lines below may say the old name


def test_a_frame_after_a_move_carries_the_new_log_line_alone(pairs_table: Table) -> None:
    """Without a socket: the frame a screen is sent is a function of the view and of what
    that screen shows.  After one move, the log's one new line goes on top."""
    player = seat_user(pairs_table, 0)
    page, screen = frame_of(pairs_table, player)
    assert 'id="log"' in page
    play_a_legal_move(pairs_table)
    frame, after = frame_of(pairs_table, player, screen)
    assert 'id="log"' not in frame and frame.count('hx-swap-oob="afterbegin:#log-events"') == 1
    assert frame.count("<li") >= 1 and after.log is not None
    assert after.log.lines == screen.log.lines + 1  # type: ignore[union-attr]
    again, _same = frame_of(pairs_table, player, after)
    assert again == ""  # nothing moved: nothing to send


def test_a_region_its_few_values_decide_is_the_pages_own_whatever_else_changed(
    pairs_table: Table,
) -> None:
    """The lobby, the text table, the options, the status and the parts of what the screen
    reader is told are looked up by the values that decide them (``KEYED``, ``SAID``): at
    every version of a hand, for each player and a spectator, with the options switched,
    the region or part a frame looks up is the one the page renders."""
    fragments.forget()
    anna = seat_user(pairs_table, 0)
    services.text_mode_choose(user=anna, on=True, table_id=pairs_table.pk)
    services.forced_moves_choose(user=anna, on=False, table_id=pairs_table.pk)
    bruno = seat_user(pairs_table, 1)  # the text table, and forced moves played for him
    services.text_mode_choose(user=bruno, on=True, table_id=pairs_table.pk)
    viewers = [seat_user(pairs_table, n) for n in range(4)] + [None]
    rng, looked_up, versions = random.Random(2), 0, 0
    for _ in range(12):
        versions += 1
        for user in viewers:
            tv = table_view(table=pairs_table.pk, user=user)
            context = {"tv": tv, "share_url": "", "user": user}
            for region, key_of in {**KEYED, **SAID}.items():
                key = key_of(tv)
                if key is None:
                    continue
                looked_up += 1
                assert fragments.keyed(region, key, context, "en") == fragments.render(
                    region, context
                )
        if load_match(pairs_table).round.result is not None:
            break  # the hand is over (the deal is the server's, not seeded)
        play_a_legal_move(pairs_table, rng)
    assert looked_up >= versions * len(viewers) * 2


def test_the_options_are_rendered_once_for_every_viewer_and_version(
    pairs_table: Table, rendered: Counter[str]
) -> None:
    fragments.forget()
    players = [seat_user(pairs_table, n) for n in range(4)]
    screens = [frame_of(pairs_table, player)[1] for player in players]
    for _ in range(3):
        play_a_legal_move(pairs_table)
        screens = [frame_of(pairs_table, p, s)[1] for p, s in zip(players, screens, strict=True)]
    assert rendered["games/_options.html"] == 1
    assert rendered["games/_lobby.html"] == 1  # hidden during play, alike for everyone


def test_a_screens_token_names_each_region_in_the_pages_order() -> None:
    drawn = frames.Screen({region: f"<p>{region}</p>" for region in REGIONS.values()})
    again = frames.Screen.drawn_by_page(drawn.token())
    assert list(again.drawn) == list(REGIONS.values())
    other = frames.Screen({**drawn.regions, "games/_board.html": "<p>another board</p>"})
    other_drawn = frames.Screen.drawn_by_page(other.token()).drawn
    assert {r for r in REGIONS.values() if again.drawn[r] != other_drawn[r]} == {
        "games/_board.html"
    }
