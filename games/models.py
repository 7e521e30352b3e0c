"""Tables, seats, hands and moves.

A table's game is stored as its hands (each hand's initial position, from the
engine's text form) and every accepted move, in order; the engine replays them.
``Table.version`` goes up with every change, and a client's command carries the
version it saw, so a stale or repeated command is refused, never applied twice.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS, Rules
from games.engine.deals import new_seed


def new_table_code() -> str:
    """The share link's token: short, unguessable, URL-safe."""
    return secrets.token_urlsafe(8)


class BotLevel(models.TextChoices):
    EASY = "easy", _("easy")
    MEDIUM = "medium", _("medium")
    HARD = "hard", _("hard")


class Table(models.Model):
    class Mode(models.TextChoices):
        COMPUTER = "computer", _("vs computer")
        FRIENDS = "friends", _("vs friends")
        ONLINE = "online", _("online")

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")
        ABANDONED = "abandoned", _("abandoned")

    code = models.CharField(max_length=16, unique=True, default=new_table_code, editable=False)
    mode = models.CharField(max_length=16, choices=Mode.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables"
    )
    # Table settings (docs/rules.md §2); the preset supplies scoring and opener rules.
    preset = models.CharField(max_length=16)
    players = models.PositiveSmallIntegerField()
    hand_size = models.PositiveSmallIntegerField()
    teams = models.BooleanField(null=True)
    draw = models.BooleanField(default=True)
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, default=BotLevel.MEDIUM)

    # Seconds a person has for a move (the turn clock); None: no clock.
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    # Seats that matchmaking completed with simulated players (the league counts such rooms half).
    fillers = models.PositiveSmallIntegerField(default=0)
    # Coins each player puts in the pot at a stake table; 0: no stake.
    stake = models.PositiveIntegerField(default=0)

    version = models.PositiveIntegerField(default=0)
    # The secret seed of the next hand to be dealt (games.engine.deals): its commitment
    # is shown before players add their seeds; it moves to the Hand row at the deal.
    deal_seed = models.CharField(max_length=64, default=new_seed, editable=False)
    winners = models.CharField(max_length=16, blank=True)  # seats, "0,2"; empty: none or a draw
    rematch = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=2, players__lte=4), name="games_table_players_2_to_4"
            ),
            models.CheckConstraint(
                condition=Q(hand_size__in=[5, 7]), name="games_table_hand_size_5_or_7"
            ),
        ]
        indexes = [models.Index(fields=["status", "mode"])]

    def __str__(self) -> str:
        return f"{self.preset} {self.mode} {self.code}"

    @staticmethod
    def rules_fields(rules: Rules) -> dict[str, Any]:
        """The columns that store ``rules`` (``Table.rules`` reads them back)."""
        return {
            "preset": rules.preset,
            "players": rules.players,
            "hand_size": rules.hand_size,
            "teams": rules.teams,
            "draw": rules.draw,
            "target": rules.target,
        }

    @staticmethod
    def rules_key(rules: Rules) -> str:
        """The settings as a short stable name, ``domino-4p-7-draw-100``: a stake
        setting's row is named by it (with the stake), as matchmaking names its pools."""
        fields = Table.rules_fields(rules)
        seating = f"{fields['players']}{'p' if fields['teams'] else ''}"
        draw = "draw" if fields["draw"] else "block"
        target = fields["target"] if fields["target"] is not None else "single"
        return f"{fields['preset']}-{seating}-{fields['hand_size']}-{draw}-{target}"

    @property
    def rules(self) -> Rules:
        return replace(
            PRESETS[self.preset],
            players=self.players,
            hand_size=self.hand_size,
            teams=self.teams,
            draw=self.draw,
            target=self.target,
        )

    @property
    def winner_seats(self) -> tuple[int, ...]:
        return tuple(int(s) for s in self.winners.split(",") if s)


class Seat(models.Model):
    """A place at a table: a person, a bot, or free (neither).

    A person's seat may be ``away``: after two turns the clock played for them,
    a bot plays it until they are back.  A bot seat may be a ``filler``: a
    simulated player with a human-looking ``bot_name`` that matchmaking sat
    at an online table nobody else came to.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, blank=True)
    bot_name = models.CharField(max_length=40, blank=True)
    is_filler = models.BooleanField(default=False)
    away = models.BooleanField(default=False)
    timeouts = models.PositiveSmallIntegerField(default=0)  # turns in a row the clock played
    ready = models.BooleanField(default=False)  # pressed "next hand" on the hand's result
    joined_at = models.DateTimeField(null=True, blank=True)
    # A friend who left a running game: the computer plays the seat under their name
    # (``bot_name``) from this move of this hand on (the log says so there).
    left_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    left_ply = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="games_seat_one_per_user",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_level=""),
                name="games_seat_person_or_bot",
            ),
            models.CheckConstraint(
                condition=Q(away=False) | Q(user__isnull=False), name="games_seat_away_is_a_person"
            ),
            models.CheckConstraint(
                condition=Q(is_filler=False) | ~Q(bot_level=""), name="games_seat_filler_is_a_bot"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def has_left(self) -> bool:
        """A person sat here and left the game: the computer plays it now."""
        return self.left_hand is not None


class Hand(models.Model):
    """One hand of a table's match: where it started, and how it ended."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    initial_position = models.TextField()
    reason = models.CharField(max_length=8, blank=True)  # "domino" / "blocked" once over
    winners = models.CharField(max_length=16, blank=True)
    points = models.PositiveSmallIntegerField(default=0)
    # What the deal came from (games.engine.deals): secret until the hand is over.
    # Empty for hands dealt before deals could be verified.
    seed = models.CharField(max_length=64, blank=True)
    # The players' seeds mixed into the deal, in seat order: [[seat, seed], ...].
    client_seeds = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_hand_unique_number"),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.table_id}"

    @property
    def over(self) -> bool:
        return bool(self.reason)

    @property
    def verifiable(self) -> bool:
        """Dealt from a committed seed (not a hand from before verifiable deals)."""
        return bool(self.seed)

    @property
    def client_seed_values(self) -> tuple[str, ...]:
        return tuple(str(seed) for _seat, seed in self.client_seeds)


class ClientSeed(models.Model):
    """A seated player's contribution to the next deal, sent by their browser after it
    saw the deal's ``commitment``; mixed into that deal, then kept on its Hand row."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="client_seeds")
    commitment = models.CharField(max_length=64)
    seat = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "commitment", "seat"], name="games_client_seed_once_per_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.table_id}: {self.seed[:8]}"


class Move(models.Model):
    """An accepted move, append-only, stored before anybody is told of it."""

    class Actor(models.TextChoices):
        PERSON = "person", _("the player")
        BOT = "bot", _("a computer player")
        CLOCK = "clock", _("the clock, time having run out")
        FORCED = "forced", _("automatically, the only move possible")
        AWAY = "away", _("a computer player, the player being away")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    text = models.CharField(max_length=12)
    actor = models.CharField(max_length=8, choices=Actor.choices, default=Actor.PERSON)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ply"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "ply"], name="games_move_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}:{self.text}"


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "to_user"], name="games_invitation_once"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} -> {self.to_user_id} ({self.table_id})"


class SeatResult(models.Model):
    """How one seat finished a match: written in the transaction that ends it.

    Coins, XP and the league pay from these rows.  ``rank`` 1 is the best;
    partners share their side's rank and equal scores share a rank.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="results",
    )
    side = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    points = models.PositiveIntegerField()  # the side's final match points
    is_bot = models.BooleanField()  # a bot played the seat at the end (filler, bot, or away)
    is_filler = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="games_result_one_per_seat"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="games_result_rank_from_1"),
        ]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.table_id}: rank {self.rank}"


class StakeSetting(models.Model):
    """One row per stake table setting (the game's settings and the stake): the lock
    a sit takes while it chooses a table, so that people sitting down at the same
    settings at the same instant share a table, as an online pool's row does.
    (Its table keeps the name it had in ``economy``.)"""

    key = models.CharField(max_length=64, unique=True)  # ``domino-4p-7-draw-100:100``
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "economy_stakesetting"

    def __str__(self) -> str:
        return self.key


class StakeSit(models.Model):
    """A sit that seated its player, by the sit form's ``token`` and the ``setting``
    it asked for: the same form posted again (a double click, a retried request)
    returns the same table and pays nothing more; the same form sent with other
    settings (a page kept by the back button, then changed) is another sit.
    (Its table keeps the name it had in ``economy``.)"""

    token = models.UUIDField()
    setting = models.CharField(max_length=64, default="")  # ``StakeSetting.key``
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stake_sits"
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="stake_sits")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "economy_stakesit"
        constraints = [
            models.UniqueConstraint(fields=["token", "setting"], name="games_stakesit_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}"


class MoveReview(models.Model):
    """The coach's verdict on a person's move of a finished hand (``games.history.coach``):
    what it gave up against the best play found from that player's own view, its mark
    and, when marked, the play the coach preferred and why (a code and its values,
    worded in the viewer's language when shown).  Written once per move by the worker."""

    class Mark(models.TextChoices):
        NONE = "", _("good")
        INACCURACY = "inaccuracy", _("inaccuracy")
        MISTAKE = "mistake", _("mistake")
        BLUNDER = "blunder", _("blunder")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="reviews")
    ply = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    loss = models.FloatField()  # points of the hand's expected margin given up
    mark = models.CharField(max_length=10, choices=Mark.choices, blank=True)
    preferred = models.CharField(max_length=12, blank=True)  # a move's text, "5|3L"
    reason = models.CharField(max_length=16, blank=True)  # games.engine.coach.reason_for
    params = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ply"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "ply"], name="games_review_once_per_ply"),
        ]

    def __str__(self) -> str:
        return f"review of ply {self.ply} of {self.hand_id}: {self.loss}"
