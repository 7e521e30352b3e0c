"""Pools (one per table settings) and the tickets of the people waiting in them."""

from __future__ import annotations

from dataclasses import replace

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS, Rules
from games.view.presets import describe_rules


def pool_key(rules: Rules) -> str:
    """The settings as a short stable name: ``domino-4p-7-draw-100``."""
    seating = f"{rules.players}{'p' if rules.teams else ''}"
    draw = "draw" if rules.draw else "block"
    target = rules.target if rules.target is not None else "single"
    return f"{rules.preset}-{seating}-{rules.hand_size}-{draw}-{target}"


class Pool(models.Model):
    """Everybody waiting for exactly these settings (docs/rules.md §6); its row is the
    lock a wave or a fill takes before the tickets."""

    key = models.CharField(max_length=48, unique=True)
    preset = models.CharField(max_length=16)
    players = models.PositiveSmallIntegerField()
    teams = models.BooleanField(null=True)
    hand_size = models.PositiveSmallIntegerField()
    draw = models.BooleanField()
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key

    @property
    def seating(self) -> str:
        """The seating as the settings form names it: ``2``, ``3``, ``4`` or ``4p``."""
        return f"{self.players}{'p' if self.teams else ''}"

    @property
    def label(self) -> str:
        """The settings in words, in the active language (``games.describe``):
        "Dominoes · 2 players · 7 tiles each · draw game · to 100 points"."""
        return describe_rules(self.rules)

    def form_values(self) -> dict[str, str]:
        """The settings form's values for this pool (the lobby's "join" buttons)."""
        return {
            "preset": self.preset,
            "seating": self.seating,
            "hand_size": str(self.hand_size),
            "draw": "yes" if self.draw else "no",
            "target": "single" if self.target is None else str(self.target),
        }

    @property
    def rules(self) -> Rules:
        return replace(
            PRESETS[self.preset],
            players=self.players,
            teams=self.teams,
            hand_size=self.hand_size,
            draw=self.draw,
            target=self.target,
        )


class Ticket(models.Model):
    """A player's place in a pool's queue, from joining until seated or gone."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        SEATED = "seated", _("seated")
        LEFT = "left", _("left the queue")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tickets"
    )
    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="tickets")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    level = models.PositiveSmallIntegerField(default=1)  # the player's level on joining
    joined_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    table = models.ForeignKey(
        "games.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="tickets"
    )

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="waiting"),
                name="matchmaking_one_open_ticket_per_player",
            ),
            models.CheckConstraint(
                condition=~Q(status="seated") | Q(table__isnull=False),
                name="matchmaking_seated_ticket_has_a_table",
            ),
        ]
        indexes = [models.Index(fields=["pool", "status", "joined_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.pool_id} ({self.status})"
