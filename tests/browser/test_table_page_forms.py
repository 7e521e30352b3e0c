"""Forms that a websocket frame redraws keep working and keep what was typed: the
stake table's "leave and take back the stake" posts after a frame redrew it (no
CSRF field is rendered over a socket), and a name being typed into "Invite" when
someone takes a seat is still there, in focus, and is sent."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, LiveSite, wait_for
from .pages import coins, new_page, settled, sign_up, sit_at_a_stake_table, socket_open

pytestmark = pytest.mark.browser


def frames_seen(page: Any) -> list[object]:
    """Counts the table socket's frames as the page receives them."""
    frames: list[object] = []

    def on_socket(ws: Any) -> None:
        if "/ws/table/" in ws.url:
            ws.on("framereceived", lambda frame: frames.append(frame))

    page.on("websocket", on_socket)
    return frames


@pytest.mark.parametrize("move_before", [True, False], ids=["chromium", "no-moveBefore"])
def test_a_name_typed_into_invite_stays_in_focus_when_a_frame_redraws_the_lobby_and_is_sent(
    browser: Any, live_site: LiveSite, artifacts: Path, move_before: bool
) -> None:
    """Someone takes a seat while the host types a name to invite: the frame redraws
    the lobby whole; the typed name, the focus and the caret stay, in Chromium and in a
    browser without ``moveBefore`` (Firefox, Safari)."""
    errors: list[str] = []
    base = live_site.url
    tag = "a" if move_before else "b"
    anna = new_page(browser, PHONE, errors)
    sign_up(anna, base, f"anna_typed{tag}")
    bruno = new_page(browser, DESKTOP, errors)
    sign_up(bruno, base, f"bruno_typed{tag}")
    carla = new_page(browser, DESKTOP, errors)
    sign_up(carla, base, f"carla_typed{tag}")
    if not move_before:  # as a browser that has no moveBefore
        anna.add_init_script("delete Element.prototype.moveBefore")
    anna.goto(f"{base}/new/?mode=friends&preset=blocco")
    anna.check("input[name=mode][value=friends]")
    with settled(anna, "#table-form"):
        anna.select_option("#id_seating", "3")  # a seat still free once bruno sits
    anna.click("#table-form button[type=submit]")
    anna.wait_for_selector("#lobby .invite")
    socket_open(anna)
    anna.click("#invite-username")
    anna.keyboard.type(f"carla_typed{tag}")
    anna.keyboard.press("ArrowLeft")  # the caret one letter back from the end
    marker = anna.evaluate("document.getElementById('lobby').dataset.marker = 'page'")
    assert marker == "page"

    bruno.goto(str(anna.locator("#share-link").input_value()))
    bruno.click("#take-seat")
    # the lobby was redrawn (the marker went with the old region) …
    wait_for(anna, "!document.getElementById('lobby').dataset.marker")
    assert anna.locator(f"#lobby :text('bruno_typed{tag}')").count() >= 1
    box = anna.locator("#invite-username")
    # … and the box still holds the name, in focus, the caret where it was
    assert box.input_value() == f"carla_typed{tag}"
    assert anna.evaluate("document.activeElement.id") == "invite-username"
    caret = anna.evaluate("document.getElementById('invite-username').selectionStart")
    assert caret == len(f"carla_typed{tag}") - 1
    anna.screenshot(path=artifacts / f"invite-typed-kept-{tag}-phone.png", full_page=True)

    anna.keyboard.press("Enter")  # submitted from the redrawn form
    anna.wait_for_selector(f"#lobby :text('carla_typed{tag}')", timeout=10_000)  # "Invited: …"
    wait_for(anna, "document.getElementById('invite-username').value === ''")
    carla.goto(f"{base}/invitations/")
    assert carla.locator(f"text=anna_typed{tag}").count() >= 1
    for page in (anna, bruno, carla):
        page.context.close()
    assert errors == []


def test_a_player_stands_up_from_a_stake_table_after_a_frame_redrew_the_form(
    browser: Any, live_site: LiveSite, artifacts: Path
) -> None:
    errors: list[str] = []
    base = live_site.url
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(browser, viewport, errors)
        sign_up(page, base, f"dora_leave_{name}")
        before = coins(page, base)
        frames = frames_seen(page)
        sit_at_a_stake_table(page, base)
        assert coins(page, base) == before - 100
        page.go_back()
        page.wait_for_selector("#stake-leave")
        deadline = time.monotonic() + 10
        while not frames:
            assert time.monotonic() < deadline, "the table's socket sent nothing"
            page.wait_for_timeout(50)
        # the form on screen is the one a frame drew: it has no CSRF field
        wait_for(page, "!document.querySelector('#lobby [name=csrfmiddlewaretoken]')")
        page.screenshot(path=artifacts / f"stake-leave-before-{name}.png", full_page=True)
        page.click("#stake-leave")
        page.wait_for_url(f"{base}/coins/stakes/")
        assert page.locator(".messages .flash.success").count() == 1
        page.screenshot(path=artifacts / f"stake-leave-after-{name}.png", full_page=True)
        assert coins(page, base) == before  # the stake is back at once, not at the timeout
        page.context.close()
    assert errors == []
