"""A match against the computer held in the browser, and the player's view of it.

The view is the site's own ``TableView``, built by the same builder
(``games.view.build``), so the live templates draw it as they draw a table of the
site's: the player in seat 0, the computer in the others.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from games.constants import BOT_DELAY, BOT_FORCED_DELAY
from games.engine import (
    IllegalMoveError,
    Match,
    Rules,
    make_bot,
    parse_move,
)
from games.forced import forced_delay, only_move
from games.view.bot_names import bot_name
from games.view.build import Clocks, SeatFacts, build_view
from games.view.errors import GameError, illegal_move_message
from games.view.parts import TableView
from games.view.presets import describe_rules, rules_from_fields

LEVELS = ("easy", "medium", "hard")
YOU = 0  # the player's seat; the computer plays the others
#: The saved game's format: a saved game of another format is not resumed.
FORMAT = 1


@dataclass
class OfflineTable:
    """What the live templates read of ``tv.table``: a table against the computer,
    with no stake, that only this browser knows."""

    bot_level: str
    status: str = "playing"
    mode: str = "computer"
    code: str = "offline"
    stake: int = 0
    rematch: None = None


@dataclass
class OfflineGame:
    """A match, its computer players and the version the player's buttons send.

    ``saved()`` is all of it as plain data (the match as the engine's record), and
    ``from_saved`` reads it back exactly: the page keeps it after every move."""

    rules: Rules
    level: str
    names: list[str]
    match: Match
    version: int = 0
    started: float = 0.0
    bots: dict[int, Any] = field(default_factory=dict)
    thought_ms: float = 0.0  # how long the computer's last decision took (the benchmark's)
    thought_forced: bool = False  # and whether it had a single legal move
    dealt: float = 0.0  # when the hand being played was dealt (seconds, the page's clock)
    actors: list[str] = field(default_factory=list)  # who made each move of this hand

    @classmethod
    def new(cls, fields: dict[str, str], level: str, *, now: float = 0.0) -> OfflineGame:
        """A new match with the new-table form's settings; ``GameError`` for settings
        the game is not played with, or an unknown level."""
        if level not in LEVELS:
            raise GameError(_("That request could not be read."))
        try:
            rules = rules_from_fields(fields)
        except (KeyError, ValueError):
            raise GameError(_("That request could not be read.")) from None
        names: list[str] = [""]
        for _seat in range(1, rules.players):
            names.append(bot_name(level, taken=names))
        return cls(rules, level, names, Match(rules), started=now, dealt=now)

    @classmethod
    def from_saved(cls, saved: dict[str, Any]) -> OfflineGame:
        """The game ``saved()`` described; ``ValueError`` if it cannot be read back."""
        if saved.get("format") != FORMAT:
            raise ValueError("a saved game of another format")
        match = Match.from_record(saved["record"])
        level = saved["level"]
        if level not in LEVELS or len(saved["names"]) != match.rules.players:
            raise ValueError("a saved game that does not hold together")
        return cls(
            match.rules,
            level,
            list(saved["names"]),
            match,
            version=int(saved["version"]),
            started=float(saved.get("started", 0.0)),
            dealt=float(saved.get("dealt", 0.0)),
            actors=[str(a) for a in saved.get("actors", ["person"] * len(match.round.log))],
        )

    def saved(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "level": self.level,
            "names": self.names,
            "record": self.match.record(),
            "version": self.version,
            "started": self.started,
            "dealt": self.dealt,
            "actors": self.actors,
        }

    # -- the player's commands (what the table's buttons send) ---------------

    def command(self, vals: dict[str, Any], *, now: float = 0.0) -> None:
        """A button's command: ``move`` or ``next`` (the next hand), at the version the
        button was drawn for (``now``: when, for the next hand's deal).  ``GameError``
        (nothing changes) when it cannot be done."""
        action, version = vals.get("action"), vals.get("version")
        if action not in ("move", "next") or type(version) is not int:
            raise GameError(_("That request could not be read."))
        if version != self.version:
            raise GameError(_("The table has changed: here is the latest."), stale=True)
        round_ = self.match.round
        if self.match.over:
            raise GameError(_("The game is not in progress."))
        if action == "next":
            if not round_.over:
                raise GameError(_("This hand is still being played."))
            self.match.next_round()
            self.dealt, self.actors = now, []
        else:
            if round_.over:
                raise GameError(_("This hand is over."))
            if round_.turn != YOU:
                raise GameError(_("It is not your turn."))
            text = vals.get("move")
            try:
                move = parse_move(text if isinstance(text, str) else "")
            except ValueError:
                raise GameError(_("That is not a move.")) from None
            try:
                round_.play(move)
            except IllegalMoveError as error:
                raise GameError(illegal_move_message(error)) from None
            self.actors.append("person")
        self.version += 1

    # -- the player's forced moves (games.forced: as the site's worker plays them) --

    def forced_in(self, now: float, *, plays_forced_moves: bool) -> float | None:
        """Seconds until the player's only move is played for them (None: it is not
        their turn, they have a choice, or they play their forced moves themselves)."""
        round_ = self.match.round
        if not plays_forced_moves or round_.over or round_.turn != YOU:
            return None
        if only_move(round_) is None:
            return None
        return forced_delay(now - self.dealt)

    def forced_move(self, version: int) -> bool:
        """The player's only move, played for them, if the table is still at
        ``version`` (the one the countdown was shown at) and it is still their only one."""
        round_ = self.match.round
        if version != self.version or round_.over or round_.turn != YOU:
            return False
        move = only_move(round_)
        if move is None:
            return False
        round_.play(move)
        self.actors.append("forced")
        self.version += 1
        return True

    # -- the computer's seats -----------------------------------------------

    def computer_to_play(self) -> bool:
        round_ = self.match.round
        return not round_.over and round_.turn != YOU

    def move_forced(self) -> bool:
        """The seat to act has a single legal move."""
        return only_move(self.match.round) is not None

    def computer_delay(self, rng: random.Random) -> float:
        """How long the computer seems to think before this move, in seconds: as at
        the site's tables (a forced move sooner)."""
        low, high = BOT_FORCED_DELAY if self.move_forced() else BOT_DELAY
        return rng.uniform(low, high)

    def computer_move(self) -> None:
        """The computer's seat to play decides from its own view, and plays."""
        round_ = self.match.round
        seat = round_.turn
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = make_bot(self.level)
        self.thought_forced = self.move_forced()
        started = time.perf_counter()
        move = bot.choose(self.match.view(seat))  # with the match scores
        self.thought_ms = (time.perf_counter() - started) * 1000
        round_.play(move)
        self.actors.append("bot")
        self.version += 1

    # -- what the player sees -----------------------------------------------

    def view(
        self,
        *,
        mode_label: str,
        plays_forced_moves: bool = True,
        text_mode: bool = False,
        now: float = 0.0,
    ) -> TableView:
        """The player's view, built as the site builds a seat's (``games.view.build``),
        with the player's choices and, at ``now``, when their forced move is played."""
        forced = self.forced_in(now, plays_forced_moves=plays_forced_moves)
        seats = [
            SeatFacts(number=seat, name=name, is_host=True)
            if seat == YOU
            else SeatFacts(number=seat, name=name, is_bot=True, bot_level=self.level)
            for seat, name in enumerate(self.names)
        ]
        return build_view(
            table=OfflineTable(self.level, status="finished" if self.match.over else "playing"),
            rules=self.rules,
            version=self.version,
            match=self.match,
            seats=seats,
            you=YOU,
            is_host=True,
            mode_label=mode_label,
            actors=tuple(self.actors),
            clocks=Clocks(forced_at=_moment(now + forced) if forced is not None else None),
            plays_forced_moves=plays_forced_moves,
            text_mode=text_mode,
        )

    def summary(self) -> dict[str, Any]:
        """A finished game as the page's short history lists it."""
        match = self.match
        yours = self.rules.side_of(YOU)
        points = [match.scores[yours], *(p for side, p in enumerate(match.scores) if side != yours)]
        return {
            "description": describe_rules(self.rules),
            "score": " – ".join(map(str, points)),  # yours first, as the home page's games
            "rules": self.rules.to_text(),
            "level": self.level,
            "scores": list(match.scores),
            "won": YOU in match.winners,
            "drawn": match.over and not match.winners,
            "hands": len(match.rounds),
            "record": match.record(),
        }


def _moment(seconds: float) -> datetime:
    """A time on the page's clock (seconds since the epoch) as the view's clocks hold it."""
    return datetime.fromtimestamp(seconds, UTC)
