"""A table: four guests sit down over HTTP, then play over their websockets.

The host creates a friends' table through the site's form and three visitors sit
through its link; each table acts once every ``--interval`` seconds (a move, or
"next hand" when a hand is over), and a finished match is restarted with the
rematch button.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import random
import re
import sys
import time
import urllib.parse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bench.load.players import Seat, region, tag_with_id
from bench.load.record import Action, Record

if TYPE_CHECKING:
    from bench.load.run import Bench

VERSION_RE = re.compile(r'data-version="(\d+)"')  # every table frame carries its version
SECTION_RE = re.compile(r'<section id="([^"]+)"')
FLASH_RE = re.compile(r'<p class="flash (\w+)">(.*?)</p>', re.S)
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SIT_VERSION_RE = re.compile(r'name="version" value="(\d+)"')
TABLE_PATH_RE = re.compile(r"/t/([^/]+)/$")


class Table:
    """Four seats playing one friends' table after another (rematches)."""

    def __init__(self, bench: Bench, number: int) -> None:
        self.bench, self.number = bench, number
        self.seats = [Seat(bench, self, i) for i in range(4)]
        self.code = ""
        self.pending: list[Action] = []
        self.changed = asyncio.Event()
        self.max_version = -1
        self.warmup_left = 0
        self.ready = False
        self.ready_for_next: set[int] = set()  # seats that said "next hand" already
        self.gate = asyncio.Event()

    @property
    def record(self) -> Record:
        """Where this table's actions and frames are counted: the window's."""
        return self.bench.record

    def on_frame(self, seat: Seat, message: str, now: float) -> None:
        record = self.record
        record.frames.append((now, len(message.encode())))
        found = VERSION_RE.search(message)
        if found is None:  # a message alone: a refusal, or a note
            flash = FLASH_RE.search(message)
            if flash:
                self._refused(seat, flash.group(1), html.unescape(flash.group(2)))
            return
        version = int(found.group(1))
        if version >= seat.version:
            seat.version = version
            for name in SECTION_RE.findall(message):  # a frame may bring only some regions
                seat.regions[name] = region(message, name)
        self.max_version = max(self.max_version, version)
        for action in list(self.pending):
            if seat.index in action.waiting and version > action.version:
                action.waiting.discard(seat.index)
                action.latencies.append(now - action.t0)
                if seat.process != action.process:
                    action.crossed += 1
                if not action.waiting:
                    self.pending.remove(action)
        self.changed.set()

    def _refused(self, seat: Seat, kind: str, text: str) -> None:
        action = seat.last_action
        if action is not None and action in self.pending:
            self.pending.remove(action)
            # Stale: the table moved on between the frame and the click (a legitimate race).
            action.refused = "stale" if kind == "info" else "error"
            if action.kind == "next":
                self.ready_for_next.discard(seat.index)  # it may say so again
        if kind != "info":
            self.bench.record.error("refused", f"table {self.number} {seat.index}: {text}")

    async def until(self, test: Callable[[], bool], timeout: float) -> bool:
        deadline = time.perf_counter() + timeout
        while True:
            self.changed.clear()
            if test():
                return True
            left = deadline - time.perf_counter()
            if left <= 0 or self.bench.stopping:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    # -- sitting down

    async def create(self) -> None:
        """The host creates a friends' table; three visitors sit through its link."""
        host = self.seats[0]
        await self.new_table(
            host,
            mode="friends",
            seating="4p",
            bot_level="medium",
            target=str(self.bench.args.target),
        )
        await host.open_ws(self.code)
        for guest in self.seats[1:]:
            await self._sit(guest)
            await guest.open_ws(self.code)
        await self.lobby()

    async def new_table(self, host: Seat, **settings: str) -> None:
        """``host`` creates a domino table of 7 tiles each through the site's form, with
        these ``settings`` (mode, seating, target, bot_level); its code is the table's."""
        page = await host.page(f"/new/?mode={settings['mode']}")
        token = CSRF_RE.search(page)
        form = {
            "csrfmiddlewaretoken": token.group(1) if token else "",
            "preset": "domino",
            "hand_size": "7",
            "draw": "yes",
            "target": "100",
            "turn_clock": "",
            **settings,
        }
        referer = {"Referer": host.url + "/new/"}
        response = await host.http.post("/new/", data=form, headers=referer)
        found = TABLE_PATH_RE.search(response.url.path)
        if response.status_code != 200 or not found:
            raise RuntimeError(f"new table refused: {response.status_code} {response.url}")
        self.code = found.group(1)

    async def _sit(self, guest: Seat) -> None:
        for _ in range(5):
            page = await guest.page(f"/t/{self.code}/")
            token, version = CSRF_RE.search(page), SIT_VERSION_RE.search(page)
            if not (token and version):
                raise RuntimeError(f"table {self.code}: no seat offered to a visitor")
            response = await guest.http.post(
                f"/t/{self.code}/sit/",
                data={"csrfmiddlewaretoken": token.group(1), "version": version.group(1)},
                headers={"Referer": guest.table_url},
            )
            if '"action": "leave"' in html.unescape(response.text):  # seated: may leave
                return
        raise RuntimeError(f"table {self.code}: a visitor could not sit")

    async def lobby(self) -> None:
        """Until the game is on: take free seats over the socket, the host starts."""

        def everyone_plays() -> bool:
            return all(s.playing() for s in self.seats)

        deadline = time.perf_counter() + self.bench.args.timeout * 3
        while not self.bench.stopping and time.perf_counter() < deadline:
            if await self.until(everyone_plays, 0.05):
                self.ready = True
                if not self.bench.args.forced_moves_played:
                    await self._play_forced_moves_ourselves()
                return
            if self.pending:
                await self.until(lambda: not self.pending, 2)
                continue
            for seat in self.seats:
                if not seat.regions or seat.playing() or seat.version < self.max_version:
                    continue
                join = seat.command("join", within="lobby")
                start = seat.can_start()
                if join is not None:
                    await seat.send(join, "join")
                    break
                if start is not None:
                    await seat.send(start, "start")
                    break
            else:
                await self.until(lambda: False, 0.2)
        raise RuntimeError(f"table {self.code}: the game did not start")

    async def _play_forced_moves_ourselves(self) -> None:
        """``--own-forced-moves``: each player turns off "Play my only moves for me" where
        the table offers it (not an older ``--rev``), as the reference's players had to
        play them: the same moves for the same work.  Not an action of the window."""
        for seat in self.seats:
            toggle = seat.command("forced", within="options")
            if toggle is not None and toggle.get("on") is False and seat.ws is not None:
                frame = {**toggle, "HEADERS": {"HX-Request": "true"}}
                await seat.ws.send(json.dumps(frame))

    async def rematch(self) -> None:
        """The match is over: each player presses "rematch" (or follows its link)."""
        old = self.code
        for seat in self.seats:
            tag = tag_with_id(seat.regions.get("status", ""), "rematch")
            post = re.search(r'hx-post="([^"]+)"', tag)
            link = re.search(r'href="([^"]+)"', tag)
            if post:
                response = await seat.http.post(
                    post.group(1),
                    headers={
                        "HX-Request": "true",
                        "X-CSRFToken": seat.http.cookies.get("csrftoken") or "",
                        "Referer": seat.table_url,
                    },
                )
                target = response.headers.get("HX-Redirect") or str(response.url.path)
            elif link:
                target = link.group(1)
            else:
                await self.until(lambda: False, 0.5)
                return  # nothing offered yet: the next tick looks again
            found = TABLE_PATH_RE.search(urllib.parse.urlsplit(target).path)
            if not found:
                raise RuntimeError(f"table {old}: rematch went to {target!r}")
            self.code = found.group(1)
            await seat.page(f"/t/{self.code}/")
        for seat in self.seats:
            await seat.open_ws(self.code)
        self.pending.clear()
        self.max_version = -1
        await self.lobby()
        self.bench.record.rematches.append(time.perf_counter())

    # -- playing

    def next_action(self) -> tuple[Seat, dict[str, Any], str] | None:
        for seat in self.seats:
            if seat.version < self.max_version:
                continue  # this screen is behind: its buttons could be stale
            moves = seat.moves()
            if moves:
                self.ready_for_next.clear()  # a hand is on: "next hand" is for its end
                return seat, random.choice(moves), "move"
        for seat in self.seats:
            if seat.version == self.max_version and seat.index not in self.ready_for_next:
                ready = seat.command("next", within="status")
                if ready is not None:
                    self.ready_for_next.add(seat.index)
                    return seat, ready, "next"
        return None

    def match_over(self) -> bool:
        return all(s.version == self.max_version for s in self.seats) and bool(
            tag_with_id(self.seats[0].regions.get("status", ""), "rematch")
        )

    async def act(self) -> bool:
        """One action for this table if one is due; False when there was nothing to do."""
        for seat in self.seats:
            if seat.broken:  # the browser reconnects, and gets the whole view again
                await seat.open_ws(self.code)
        if self.pending and time.perf_counter() - self.pending[0].t0 < self.bench.args.timeout:
            return False  # a player waits to see the last move land (a lost one: not for ever)
        choice = self.next_action()
        if choice is not None:
            seat, command, kind = choice
            await seat.send(command, kind)
            return True
        if self.match_over():
            if self.pending:
                await self.until(lambda: not self.pending, self.bench.args.timeout)
            await self.rematch()
            return True
        return False

    async def play(self) -> None:
        args = self.bench.args
        await self.gate.wait()  # every new table seated: warm up together
        # Quick moves first, so that the tables are spread across their hands.
        while self.warmup_left > 0 and self.bench.warming and not self.bench.stopping:
            await self.until(lambda: not self.pending, args.timeout)
            if await self.act():
                self.warmup_left -= 1
            else:
                await self.until(lambda: False, 0.1)
        due = time.perf_counter() + random.uniform(0, args.interval)
        while not self.bench.stopping:
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.bench.stopping:
                return
            # Act as soon as the screens allow (a player waits for the last move to show).
            acted = False
            give_up = time.perf_counter() + args.interval
            while not acted and not self.bench.stopping and time.perf_counter() < give_up:
                acted = await self.act()
                if not acted:
                    await self.until(lambda: False, 0.05)
            due += args.interval
            due = max(due, time.perf_counter())  # no bursts to catch up

    async def run(self, semaphore: asyncio.Semaphore) -> None:
        try:
            async with semaphore:
                await self.create()
            await self.play()
        except Exception as error:  # a bench that stops on one table measures nothing
            if not self.bench.stopping:
                self.bench.record.error("table", f"table {self.number}: {error!r}")
                self.bench.failed_tables += 1
                print(f"  table {self.number} gave up: {error!r}", file=sys.stderr, flush=True)

    async def close(self) -> None:
        for seat in self.seats:
            await seat.close_ws()
            await seat.http.aclose()


class BusyTable(Table):
    """``--busy-bots``: a guest's duel against the computer (``--busy-level``), played at
    once whenever it is the guest's turn, match after match: the computer player's
    searches and the coach's reviews of the guest's hands are the engine's work the
    serving process must not do.  Its moves and frames are counted apart from the
    window's."""

    def __init__(self, bench: Bench, number: int) -> None:
        super().__init__(bench, number)
        self.seats = self.seats[:1]
        self._record = Record()

    @property
    def record(self) -> Record:
        return self._record

    async def create(self) -> None:
        guest = self.seats[0]
        await self.new_table(
            guest, mode="computer", seating="2", bot_level=self.bench.args.busy_level
        )
        await guest.open_ws(self.code)
        await self.lobby()

    async def play(self) -> None:
        while not self.bench.stopping:
            self.pending.clear()  # nobody else watches: the guest's own frame is enough
            if not await self.act():
                await self.until(lambda: False, 0.1)
            else:
                await asyncio.sleep(0.3)  # a quick player's pause
