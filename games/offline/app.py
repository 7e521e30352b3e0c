"""What the offline page's worker calls (``static/offline/worker.js``): JSON in, JSON out.

Every answer is a frame: the regions of the table that changed (by id, as the site's
websocket frames swap them), the game as plain data for the page to keep, and how
long the computer thinks before its move when it is to play.  Import after
``django_shim.install()`` and ``django_shim.activate(language)``.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from games.offline.render import Renderer
from games.offline.table import OfflineGame
from games.view.errors import GameError
from games.view.regions import changed

_rng = random.SystemRandom()


class Session:
    """The worker's one game, and what the page shows of it."""

    def __init__(self, root: Path, urls: dict[str, str]) -> None:
        self.renderer = Renderer(root / "templates" / "regions", urls)
        self.game: OfflineGame | None = None
        self.shown: dict[str, str] = {}

    def _frame(
        self, *, flash: str = "", whole: bool = False, extra: dict[str, Any] | None = None
    ) -> str:
        game = self.game
        assert game is not None
        tv = game.view(mode_label=_("against the computer, without connection"))
        frame: dict[str, Any] = {"version": game.version, "saved": game.saved(), **(extra or {})}
        if whole:
            frame["page"] = self.renderer.render("games/_live.html", {"tv": tv})
            self.shown = self.renderer.regions(tv)
        else:
            regions = self.renderer.regions(tv)
            frame["regions"] = changed(regions, self.shown)
            self.shown = regions
            frame["flash"] = self.renderer.flash(flash) if flash else ""
        frame["over"] = game.match.over
        if game.match.over:
            frame["summary"] = game.summary()
        frame["computer_ms"] = (
            round(game.computer_delay(_rng) * 1000) if game.computer_to_play() else None
        )
        return json.dumps(frame)

    def start(self, settings: str) -> str:
        """A new game with the form's settings (JSON: the form's fields and ``level``)."""
        fields = json.loads(settings)
        level = str(fields.pop("level", "medium"))
        try:
            self.game = OfflineGame.new(fields, level, now=time.time())
        except GameError as error:
            return json.dumps({"error": error.message})
        return self._frame(whole=True)

    def resume(self, saved: str) -> str:
        """The game the page kept; ``{"error": …}`` when it cannot be read back."""
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
            self.game.command(command)
        except (GameError, ValueError) as error:
            message = error.message if isinstance(error, GameError) else ""
            return self._frame(flash=message or _("That request could not be read."))
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
