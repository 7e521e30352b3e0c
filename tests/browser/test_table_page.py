"""The table as a player sees it, in a real browser on a phone and a desktop:
named bots around the board, the last move, the tab's title, a hand that sends
one move at a time, the connection banner (and controls that cannot send while
it shows), the 404 page."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import DESKTOP, PHONE, LiveSite, wait_for
from .pages import (
    MY_MOVES,
    HeldFrames,
    computer_tables_at,
    laid_out,
    log_in,
    moved_past,
    new_friends_table,
    new_page,
    page_until,
    play_if_my_turn,
    settled,
    sign_up,
    socket_open,
    table_version,
)

pytestmark = pytest.mark.browser

BOT_NAMES = {
    "Nonna Pina", "Zio Gino", "Zia Rosetta", "Nonno Tano", "Cugina Lalla", "Zio Peppino",
}  # fmt: skip
#: Records, on every frame, whether the last tile is animating, the sound and the tab's
#: title (after table.js has run).
WATCH_FRAMES = """() => {
  window.frames_seen = [];
  document.querySelector('.table-live').addEventListener('htmx:wsAfterMessage', () => {
    const last = document.querySelector('#board .placed.last');
    window.frames_seen.push({key: document.querySelector('#table-head').dataset.lastMove,
                             animating: last ? last.getAnimations().length : -1,
                             sound: document.documentElement.dataset.lastSound,
                             title: document.title});
  });
}"""


#: Counts the frames the page has shown (htmx's websocket extension swapped them in).
FRAMES_SHOWN = """() => {
  window.frames_shown = 0;
  document.querySelector('.table-live').addEventListener('htmx:wsAfterMessage', () => {
    window.frames_shown += 1;
  });
}"""


def sent_moves(page: Any) -> list[str]:
    """Every move frame the page sends over its websockets, from now on."""
    moves: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda f: moves.append(f) if '"move"' in str(f) else None),
    )
    return moves


def boxes(page: Any, *selectors: str) -> list[dict[str, float]]:
    """The elements' boxes, read at once (a frame may be redrawing a region between two
    reads: the computer players keep moving), once each has one."""
    read = (
        "sels => { const found = sels.map(s => document.querySelector(s));"
        " if (found.some(e => !e)) return null;"
        " return found.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; }); }"
    )
    laid_out(page)
    return list(wait_for(page, read, arg=list(selectors)))


def choose(page: Any, field: str, value: str) -> None:
    """Change a select of the new-table form and wait for the form htmx brings back."""
    with page.expect_response(re.compile(r"/new/\?")), settled(page, "#table-form"):
        page.select_option(f"select[name={field}]", value)
    wait_for(
        page,
        "([f, v]) => document.querySelector(`#id_${f}`).value === v"
        " && !document.querySelector('#table-form.htmx-request, #table-form .htmx-settling,"
        " #table-form.htmx-settling, #table-form .htmx-added')",
        arg=[field, value],
    )


def new_four_player_table(page: Any, base: str) -> None:
    """Through the new-table form, checking on the way that a new game resets its settings."""
    page.goto(f"{base}/new/")
    page.wait_for_load_state("networkidle")
    page.check("input[name=mode][value=computer]")
    page.select_option("select[name=target]", "150")
    choose(page, "preset", "luciano")
    assert page.locator("select[name=target]").input_value() == "100"  # Luciano's default
    choose(page, "preset", "domino")
    choose(page, "seating", "4p")
    assert page.locator("select[name=hand_size]").input_value() == "7"
    draw = page.locator("select[name=draw] option")
    assert draw.count() == 1 and "pozzo" in draw.inner_text()  # 4 × 7: nothing to draw
    page.select_option("select[name=bot_level]", "easy")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("#board .line")


def wait_for_my_turn(page: Any, limit: float = 30) -> None:
    page.wait_for_selector(MY_MOVES, timeout=limit * 1000)


@pytest.mark.parametrize("name,viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_four_players_sit_around_the_board_with_named_bots_and_the_last_move_shown(
    browser: Any, live_site: LiveSite, artifacts: Path, name: str, viewport: dict[str, int]
) -> None:
    errors: list[str] = []
    page = new_page(browser, viewport, errors, reduced_motion="no-preference")  # the fly-in
    new_four_player_table(page, live_site.url)
    page.evaluate(WATCH_FRAMES)
    page.click("[data-sound-toggle]")  # sounds are off until the player turns them on
    assert page.locator("[data-sound-toggle]").get_attribute("aria-pressed") == "true"
    assert any(c["name"] == "domino_sound" and c["value"] == "1" for c in page.context.cookies())

    # Who is who: three bots, three names, around the board.
    seats = page.locator("#seats .seat")
    assert seats.count() == 4
    names = [seats.nth(i).locator(".seat-name").inner_text() for i in range(4)]
    assert names[0] in ("Tu", "You") and set(names[1:]) <= BOT_NAMES and len(set(names)) == 4
    board, top, bottom, left, right = boxes(
        page, "#board", ".seat.pos-top", ".seat.pos-bottom", ".seat.pos-left", ".seat.pos-right"
    )
    assert top["y"] + top["height"] <= board["y"] + 1
    assert bottom["y"] >= board["y"] + board["height"] - 1
    if name == "phone":  # the opponents above the board too, left and right of the partner
        assert max(left["y"] + left["height"], right["y"] + right["height"]) <= board["y"] + 1
        assert left["x"] + left["width"] <= top["x"] + 1
        assert right["x"] >= top["x"] + top["width"] - 1
    else:
        assert left["x"] + left["width"] <= board["x"] + 1
        assert right["x"] >= board["x"] + board["width"] - 1
    assert "partner" in (page.locator(".seat.pos-top").get_attribute("class") or "")
    assert page.locator(".seat.pos-top .tag", has_text=re.compile("compagn|partner")).count()

    # The title says when it is my turn; a tile is at least 44 px across on a phone.
    wait_for_my_turn(page)
    assert page.title() == "● Tocca a te — Domino"
    narrowest = page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('#hand .my-tile svg.tile')]"
        ".map(t => Math.min(t.getBoundingClientRect().width, t.getBoundingClientRect().height)))"
    )
    assert narrowest >= 44
    scores = page.locator("#scores").inner_text()
    assert scores.count("/ 100") == 2 and page.locator("#scores progress.progress").count() == 2

    # A double click on a tile sends one move, and nothing about a changed table shows.
    moves = sent_moves(page)
    page.reload()  # so the recorder sees this page's socket from its start
    page.evaluate(WATCH_FRAMES)
    wait_for_my_turn(page)
    before = table_version(page)
    page.evaluate("() => { window.frames_seen.length = 0; }")  # the frames from my move on
    page.locator(MY_MOVES).first.dblclick()
    moved_past(page, before)
    page.wait_for_timeout(600)  # nothing to wait for: a second move must not come
    assert len(moves) == 1, moves
    assert page.locator("#flash .flash").count() == 0

    # The tile just played is highlighted (a pass or a draw is shown on the seat instead).
    page.screenshot(path=artifacts / f"table-4p-{name}.png", full_page=True)
    # read at once, between two frames (the computer may move again while we look)
    last_kind, placed, tagged = page.evaluate(
        "() => [document.querySelector('#table-head').dataset.lastKind,"
        " document.querySelectorAll('#board .placed.last').length,"
        " document.querySelectorAll('#seats .tag.last-move').length]"
    )
    assert placed == (last_kind == "play")
    assert tagged == (last_kind != "play")
    # my move answered, the tab's title no longer says it is my turn (the computer may be
    # quick enough to make it my turn again since: the frames say what it was)
    titles = page.evaluate("window.frames_seen.map(f => f.title)")
    waiting = [t for t in titles if t != "● Tocca a te — Domino"]
    assert waiting and all(t[0].isupper() for t in waiting), titles
    wait_for(page, "() => window.frames_seen.some(f => f.animating > 0)", timeout=15_000)
    assert page.evaluate("window.frames_seen.some(f => f.sound === 'tile')")  # a tile laid
    page.screenshot(path=artifacts / f"table-4p-{name}.png", full_page=True)
    page.context.close()
    assert errors == []


def a_second_tap_sends_nothing(page: Any, relay: HeldFrames, before: int) -> None:
    """With one move sent and its answer held back: a second tap sends nothing, and once
    the answer comes the table moves on from the one move, with no note."""
    page.locator(MY_MOVES).first.click()
    page.wait_for_timeout(300)  # nothing to wait for: a second move must not come
    assert len(relay.moves) == 1, relay.moves
    relay.release()
    moved_past(page, before)
    assert len(relay.moves) == 1
    assert page.locator("#flash .flash").count() == 0


def test_a_frame_about_something_else_does_not_let_a_second_click_send_a_second_move(
    browser: Any, live_site: LiveSite
) -> None:
    """Between a move and its answer another frame can arrive (someone came or went, a
    seat's seed): the hand still waits for the move's own answer, so a double tap
    that straddles that frame sends one move, not two."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    relay = HeldFrames(page, from_first_move=True)
    new_four_player_table(page, live_site.url)
    wait_for_my_turn(page)
    before = table_version(page)
    page.evaluate(FRAMES_SHOWN)
    page.locator(MY_MOVES).first.click()
    page_until(page, lambda: len(relay.moves) == 1, "the move never reached the socket")
    shown = page.evaluate("window.frames_shown")  # the server's frames are held from now on
    relay.to_page.send(relay.last_frame)  # a frame at the version the move was sent at
    wait_for(page, "n => window.frames_shown > n", arg=shown)
    a_second_tap_sends_nothing(page, relay, before)
    assert not errors, errors


#: Holds the table's socket back from opening while the tab's sessionStorage says so,
#: until ``openTableSocket()``: what the page's socket does on a slow network.
HOLD_TABLE_SOCKET = """(() => {
  const Real = window.WebSocket;
  if (sessionStorage.getItem('hold-table-socket') !== '1') return;
  let release;
  const gate = new Promise(r => { release = r; });
  window.openTableSocket = () => release();
  window.WebSocket = function (url, protocols) {
    const real = new Real(url, protocols);
    if (!String(url).includes('/ws/table/')) return real;
    const held = new EventTarget();
    let opened = false;
    Object.defineProperty(held, 'readyState', {get: () => (opened ? real.readyState : 0)});
    Object.defineProperty(held, 'binaryType', {set: v => { real.binaryType = v; }});
    Object.assign(held, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3,
                         send: d => real.send(d), close: (c, r) => real.close(c, r)});
    for (const type of ['open', 'message', 'close', 'error']) {
      real.addEventListener(type, e => gate.then(() => {
        if (type === 'open') opened = true;
        if (held['on' + type]) held['on' + type](e);
        held.dispatchEvent(new MessageEvent(type, {data: e.data}));
      }));
    }
    return held;
  };
})()"""


def test_a_move_tapped_before_the_tables_socket_opens_is_sent_once(
    browser: Any, live_site: LiveSite
) -> None:
    """On a slow network the hand can be tapped before the table's socket is open: the
    move waits in the queue and goes when it opens, and the hand waits for its answer,
    so a second tap then sends nothing."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.context.add_init_script(HOLD_TABLE_SOCKET)
    new_four_player_table(page, live_site.url)
    page.click("#forced-moves")  # the site would play an only move for the player meanwhile
    wait_for(page, "document.querySelector('#forced-moves').ariaPressed === 'false'")
    wait_for_my_turn(page)
    before = table_version(page)
    relay = HeldFrames(page, from_first_move=True)
    page.evaluate("sessionStorage.setItem('hold-table-socket', '1')")
    page.reload()
    wait_for_my_turn(page)  # as the server rendered the page: its socket is not open
    page.locator(MY_MOVES).first.click()
    page.wait_for_timeout(100)
    assert relay.moves == []  # queued by htmx's extension
    page.evaluate("openTableSocket()")
    page_until(page, lambda: len(relay.moves) == 1, "the queued move never left")
    a_second_tap_sends_nothing(page, relay, before)
    assert not errors, errors


def test_the_connection_banner_shows_while_the_server_is_down_and_no_move_is_sent(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, reduced_motion="reduce")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    moves = sent_moves(page)
    page.goto(live_site.url)
    page.select_option("select[name=level]", "easy")
    page.click("#quick-play")
    page.wait_for_selector("#board .line")
    page.click("#forced-moves")  # a forced move would be played for the player meanwhile
    page.wait_for_selector('#forced-moves[aria-pressed="false"]')
    page.evaluate(WATCH_FRAMES)
    wait_for_my_turn(page)
    banner = page.locator("#connection-lost")
    assert banner.is_hidden()
    version = table_version(page)

    live_site.stop()
    banner.wait_for(state="visible", timeout=5000)
    assert "Connessione persa" in banner.inner_text()
    page.locator(MY_MOVES).first.dispatch_event("click")  # the hand ignores it…
    page.screenshot(path=artifacts / "offline-phone.png", full_page=True)

    shown = page.evaluate("window.frames_seen.length")
    live_site.start()
    banner.wait_for(state="hidden", timeout=15_000)
    # the socket's first frame after it opened again: a send queued while it was closed
    # would have gone before it
    wait_for(page, "n => window.frames_seen.length > n", arg=shown, timeout=15_000)
    assert moves == []  # …and nothing was queued to be sent on reconnecting
    assert table_version(page) == version  # resynced: the same table, nothing moved
    page.locator(MY_MOVES).first.click()  # and the hand works again
    moved_past(page, version)
    assert len(moves) == 1
    # With reduced motion nothing flies across the table.
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not page.evaluate("window.frames_seen.length > 1"):
        page.wait_for_timeout(200)
    assert page.evaluate("window.frames_seen.every(f => f.animating <= 0)")
    context.close()
    assert [e for e in errors if "WebSocket" not in e] == []


def test_a_graceful_restart_says_so_and_the_page_reconnects_without_a_reload(
    browser: Any, live_site: LiveSite
) -> None:
    errors: list[str] = []  # the page's own (the failed reconnections log to the console)
    page = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url) if "/ws/table/" in ws.url else None)
    page.goto(live_site.url)
    page.select_option("select[name=level]", "easy")
    page.click("#quick-play")
    page.wait_for_selector("#board .line")
    wait_for_my_turn(page)
    page.evaluate("window.same_page = true")  # gone if the page reloads
    page.evaluate("document.getElementById('hand').dataset.marker = 'page'")
    version = table_version(page)
    banner = page.locator("#connection-lost")

    live_site.stop(gracefully=True)  # SIGTERM, as systemctl restart stops it
    banner.wait_for(state="visible", timeout=5000)
    assert banner.inner_text() == "Il server si sta riavviando — riconnessione…"
    live_site.start()
    banner.wait_for(state="hidden", timeout=15_000)
    assert page.evaluate("window.same_page === true")
    # the page's first socket said which regions the page drew; the sockets after it say
    # nothing (the page has moved on since) and get the whole view: the hand drawn anew
    assert "?shown=" in sockets[0] and not [url for url in sockets[1:] if "shown=" in url]
    wait_for(page, "!document.getElementById('hand').dataset.marker")
    page.locator(MY_MOVES).first.click()  # the hand works on the new connection
    moved_past(page, version)
    page.context.close()
    assert errors == []


def test_while_the_connection_is_lost_the_hosts_buttons_cannot_be_clicked_and_work_once_back(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    # A command sent while the socket is closed would be dropped (nothing is queued):
    # a click that cannot land must not look as if it could.
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    sign_up(page, live_site.url, "anna_cut")
    new_friends_table(page, live_site.url, "duello")
    fill = page.get_by_role("button", name="Completa i posti liberi con il computer")
    fill.click(trial=True)  # clickable while connected (a trial click clicks nothing)
    assert errors == []

    live_site.stop()  # the browser logs the failed reconnections as errors meanwhile
    page.locator("#connection-lost").wait_for(state="visible", timeout=5000)
    with pytest.raises(PlaywrightTimeoutError):
        fill.click(trial=True, timeout=1500)
    assert float(fill.evaluate("b => getComputedStyle(b).opacity")) < 1
    page.screenshot(path=artifacts / "offline-lobby-desktop.png", full_page=True)

    live_site.start()
    page.locator("#connection-lost").wait_for(state="hidden", timeout=15_000)
    back = len(errors)
    fill.click()
    page.wait_for_selector("#start-game:not([disabled])")  # the seat was filled
    page.context.close()
    assert errors[back:] == []


@pytest.mark.parametrize("name,viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_mistyped_table_link_shows_the_sites_404_page(
    browser: Any, live_site: LiveSite, artifacts: Path, name: str, viewport: dict[str, int]
) -> None:
    errors: list[str] = []
    page = new_page(browser, viewport, errors)
    response = page.goto(f"{live_site.url}/t/non-esiste/")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Questa pagina non è sul tavolo"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=artifacts / f"404-{name}.png", full_page=True)
    page.context.close()


def test_a_tile_with_a_real_choice_can_be_played_by_tapping_an_open_end_on_the_line(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:

    from games.engine import ALL_TILES, Tile

    # seat 0 holds 4|2, which fits both open ends (2 and 4) of the line 2|3,3|3,3|4
    line, mine, theirs = ["2|3", "3|3", "3|4"], ["4|2", "6|6", "5|5"], ["1|1", "0|0", "6|1"]
    dealt = {Tile.parse(t) for t in line + mine + theirs}
    rest = ",".join(str(t) for t in ALL_TILES if t not in dealt)
    position = (
        f"hands={','.join(mine)}/{','.join(theirs)} boneyard={rest}"
        f" line={','.join(line)} turn=0 dealer=1"
    )
    [code] = computer_tables_at(live_site, "ezio_b", [(2, position)])
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    log_in(page, live_site.url, "ezio_b")
    # the computer's answer (a draw: no 2 in its hand) is held back, so the board shows
    # the player's move
    frames = HeldFrames(page, from_first_move=True)
    page.goto(f"{live_site.url}/t/{code}/")
    socket_open(page)
    assert page.locator("#board .end-target").first.is_hidden()  # offered once a tile is chosen
    page.click("#hand .my-tile[data-tile='4|2'] .tile-select")
    right = page.locator("#board .end-target[data-end='right']")
    right.wait_for(state="visible")
    box = right.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    # a message about a real conflict is a toast over the page: nothing moves
    board_y = page.locator("#board").bounding_box()["y"]
    page.evaluate(
        "() => { document.querySelector('#flash').innerHTML ="
        " '<p class=\"flash info\">Il tavolo è cambiato: ecco com’è adesso.</p>'; }"
    )
    assert page.locator("#flash .flash").is_visible()
    assert page.locator("#board").bounding_box()["y"] == board_y
    page.screenshot(path=artifacts / "choose-an-end-phone.png", full_page=True)
    page.click("#flash .flash")  # a tap dismisses it
    assert page.locator("#flash .flash").count() == 0
    version = table_version(page)
    right.click()
    frames.wait_for_first(page)
    frames.release_first()
    moved_past(page, version)
    placed = page.locator("#board .placed")
    assert placed.last.get_attribute("data-tile") == "4|2"  # laid on the 4, at the right end
    assert "last" in (placed.last.get_attribute("class") or "")
    page.context.close()
    assert errors == []


def test_a_guest_plays_a_full_hand_against_the_computer(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    pages: dict[str, Any] = {}
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = pages[name] = new_page(browser, viewport, errors)
        page.goto(live_site.url)
        assert page.locator("html").get_attribute("lang") == "it"
        page.select_option("select[name=level]", "easy")
        page.click("#quick-play")
        page.wait_for_selector("#board .line")
        assert re.search(r"/t/[\w-]+/$", page.url)
        page.wait_for_selector(f"{MY_MOVES}, #seats .seat.turn")
        for _ in range(3):  # a few moves in, the board has something to show
            if not play_if_my_turn(page):  # the computer is thinking
                page.wait_for_selector(f"{MY_MOVES}, #status .hand-result", timeout=15_000)
        page.screenshot(path=artifacts / f"game-{name}.png", full_page=True)
        assert page.locator("#hand .my-tile").count() >= 1
        if name == "phone":  # the server dies mid-game and comes back: nothing is lost
            line = page.locator("#board .placed").count()
            live_site.restart()
            page.reload()
            page.wait_for_selector("#board .line")
            # the open socket failing while the server was down is expected
            errors[:] = [e for e in errors if "WebSocket" not in e and "object Event" not in e]
            assert page.locator("#board .placed").count() >= line
    # Both hands played out at once (the computer thinks at both tables meanwhile), each
    # page's result looked at as soon as its hand ends.
    deadline = time.monotonic() + 120
    while pages:
        assert time.monotonic() < deadline, "the hands did not end in time"
        for name, page in list(pages.items()):
            if page.locator("#status .hand-result").count():
                the_result_stays_on_a_reload(page, artifacts / f"result-{name}.png")
                page.context.close()
                del pages[name]
        if not any(play_if_my_turn(p) for p in pages.values()):
            time.sleep(0.2)  # a bot is thinking
    assert errors == []


def the_result_stays_on_a_reload(page: Any, screenshot: Path) -> None:
    result = page.locator("#status .hand-result")
    assert result.locator(".revealed li").count() == 2  # every hand shown
    page.screenshot(path=screenshot, full_page=True)
    # reloading loses nothing: the same result, the same version, the same log (each
    # move's line was put on top of those shown; the page renders the log whole)
    version = table_version(page)
    moves = log_lines(page)
    assert len(moves) >= 4
    page.reload()
    page.wait_for_selector("#status .hand-result")
    assert table_version(page) >= version
    if table_version(page) == version:  # the next hand not dealt in between
        assert log_lines(page) == moves


def log_lines(page: Any) -> list[str]:
    """The log's lines as they read (the page's whole log and the lines frames put on
    top of it are laid out alike, but their source's line breaks may differ)."""
    return [" ".join(text.split()) for text in page.locator("#log-events li").all_inner_texts()]
