"""What the offline page's worker calls (``static/offline/worker.js``): JSON in, JSON out.

Every answer is a frame: the regions of the table that changed (by id, as the site's
websocket frames swap them), the game as plain data for the page to keep, how
long the computer thinks before its move when it is to play, and how long before
the player's only move is played for them (``games.forced``, as the site's worker
does) unless they turned that off: the player's choices, which the page keeps
for every game.  Import after ``django_shim.install()`` and
``django_shim.activate(language)``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from games.offline.render import Renderer
from games.offline.table import OfflineGame
from games.view.errors import GameError
from games.view.parts import TableView
from games.view.regions import changed
from games.view.typed import read_typed, sentence

_rng = random.SystemRandom()
#: The buttons of the player's choices (templates/regions/games/_options.html).
CHOICES = {"forced": "plays_forced_moves", "text": "text_mode"}


class Session:
    """The worker's one game, and what the page shows of it."""

    def __init__(
        self, root: Path, urls: dict[str, str], clock: Callable[[], float] = time.time
    ) -> None:
        self.clock = clock
        self.renderer = Renderer(root / "templates" / "regions", urls, lambda: self.clock())
        self.game: OfflineGame | None = None
        self.shown: dict[str, str] = {}
        # the player's choices at the table, as the site's account keeps them
        self.choices: dict[str, bool] = {"plays_forced_moves": True, "text_mode": False}

    def choose(self, choices: str) -> None:
        """The player's choices the page kept (JSON), those it names."""
        try:
            kept = json.loads(choices)
        except ValueError:
            return
        if isinstance(kept, dict):
            for name in self.choices:
                if isinstance(kept.get(name), bool):
                    self.choices[name] = kept[name]

    def _view(self, now: float) -> TableView:
        game = self.game
        assert game is not None
        return game.view(
            mode_label=_("against the computer, without connection"),
            plays_forced_moves=self.choices["plays_forced_moves"],
            text_mode=self.choices["text_mode"],
            now=now,
        )

    def _frame(
        self,
        *,
        flash: str = "",
        kind: str = "error",
        done: str | None = None,
        whole: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> str:
        game = self.game
        assert game is not None
        now = self.clock()
        forced = self.choices["plays_forced_moves"]
        tv = self._view(now)
        frame: dict[str, Any] = {
            "version": game.version,
            "saved": game.saved(),
            "choices": dict(self.choices),
            **(extra or {}),
        }
        if whole:
            frame["page"], self.shown = self.renderer.page(tv)
        else:
            regions = self.renderer.regions(tv)
            frame["regions"] = changed(regions, self.shown)
            self.shown = regions
            frame["flash"] = self.renderer.flash(flash, kind, done) if flash else ""
        frame["over"] = game.match.over
        if game.match.over:
            frame["summary"] = game.summary()
        frame["computer_ms"] = (
            round(game.computer_delay(_rng) * 1000) if game.computer_to_play() else None
        )
        due = game.forced_in(now, plays_forced_moves=forced)
        frame["forced_ms"] = round(due * 1000) if due is not None else None
        return json.dumps(frame)

    def start(self, settings: str, choices: str = "{}") -> str:
        """A new game with the form's settings (JSON: the form's fields and ``level``),
        and the player's choices the page kept."""
        self.choose(choices)
        fields = json.loads(settings)
        level = str(fields.pop("level", "medium"))
        try:
            self.game = OfflineGame.new(fields, level, now=self.clock())
        except GameError as error:
            return json.dumps({"error": error.message})
        return self._frame(whole=True)

    def resume(self, saved: str, choices: str = "{}") -> str:
        """The game the page kept; ``{"error": …}`` when it cannot be read back."""
        self.choose(choices)
        try:
            self.game = OfflineGame.from_saved(json.loads(saved))
        except (ValueError, KeyError, TypeError):
            return json.dumps({"error": "unreadable"})
        return self._frame(whole=True)

    def command(self, vals: str) -> str:
        """A button's command (its ``hx-vals``); a refused one changes nothing and says why."""
        if self.game is None:
            return json.dumps({"error": "no game"})
        try:
            command = json.loads(vals)
            if not isinstance(command, dict):
                raise GameError(_("That request could not be read."))
            choice = CHOICES.get(str(command.get("action")))
            if choice is not None:  # the player's own choice: any time, no version
                if not isinstance(command.get("on"), bool):
                    raise GameError(_("That request could not be read."))
                self.choices[choice] = command["on"]
                return self._frame()
            if command.get("action") == "type":
                return self._typed(command)
            self.game.command(command, now=self.clock())
        except (GameError, ValueError) as error:
            message = error.message if isinstance(error, GameError) else ""
            return self._frame(flash=message or _("That request could not be read."))
        return self._frame()

    def _typed(self, command: dict[str, Any]) -> str:
        """A typed command (``games.view.typed``, as the site's tables read them): a
        question answered with a sentence of the table as text, a move or the next hand
        played as their buttons would; ``GameError`` when it cannot be done."""
        game = self.game
        assert game is not None
        text, version = command.get("text"), command.get("version")
        if not isinstance(text, str):
            raise GameError(_("That request could not be read."))
        tv = self._view(self.clock())
        typed = read_typed(tv, text)
        if typed.kind == "tell":
            told = sentence(self.renderer.env, typed.value, tv)
            return self._frame(flash=told, kind="info", done="type")
        if typed.kind == "move":
            game.command({"action": "move", "move": typed.value, "version": version})
        elif typed.kind == "next":
            game.command({"action": "next", "version": version}, now=self.clock())
        # "back": nobody is ever away from this table
        return self._frame()

    def forced(self, version: int) -> str:
        """The player's only move played for them, when its countdown (shown at
        ``version``) ran out: if the table is still there and they still want it."""
        game = self.game
        if (
            game is not None
            and game.forced_in(self.clock(), plays_forced_moves=self.choices["plays_forced_moves"])
            is not None
        ):
            game.forced_move(version)
        return self._frame()

    def computer(self) -> str:
        """The computer's seat to play moves (if it still is)."""
        if self.game is not None and self.game.computer_to_play():
            self.game.computer_move()
        # how long it thought: what the benchmark reads
        game = self.game
        thought = round(game.thought_ms, 2) if game is not None else None
        forced = game.thought_forced if game is not None else None
        return self._frame(extra={"thought_ms": thought, "thought_forced": forced})


session: Session | None = None


def boot(root: str, urls: str) -> None:
    global session
    session = Session(Path(root), json.loads(urls))
