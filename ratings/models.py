"""A player's rating per format, every change a match made to it, resets by an
operator, and the browsers each account signed in from (fair rated play)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .policy import DUEL, FREE, MODEL, PAIRS, Skill


class Format(models.TextChoices):
    DUEL = DUEL, _("2 players")
    FREE = FREE, _("Each for themselves")
    PAIRS = PAIRS, _("4 in pairs")


class Rating(models.Model):
    """A player's current rating in one format (no row: a new player's)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    format = models.CharField(max_length=8, choices=Format.choices)
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    shown = models.IntegerField(default=1500)  # policy.display(mu), for the leaderboards
    provisional = models.BooleanField(default=True)
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "format"], name="ratings_one_per_format"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="ratings_sigma_positive"),
        ]
        indexes = [models.Index(fields=["format", "provisional", "-shown"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.format}: {self.shown}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)


class RatingChange(models.Model):
    """What one match did to one person's rating: written once, in the transaction
    that ends the match (a second end of the same match finds it and does nothing)."""

    class Outcome(models.TextChoices):
        WIN = "win", _("won")
        LOSS = "loss", _("lost")
        DRAW = "draw", _("drawn")

    table = models.ForeignKey(
        "games.Table", on_delete=models.CASCADE, related_name="rating_changes"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    seat = models.PositiveSmallIntegerField()
    format = models.CharField(max_length=8, choices=Format.choices)
    outcome = models.CharField(max_length=4, choices=Outcome.choices)
    left = models.BooleanField(default=False)  # away or gone at the end: rated as a loss
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    shown_before = models.IntegerField()
    shown_after = models.IntegerField()
    provisional_after = models.BooleanField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="ratings_change_once"),
        ]
        indexes = [models.Index(fields=["user", "format", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}: {self.shown_before} -> {self.shown_after}"

    @property
    def delta(self) -> int:
        return self.shown_after - self.shown_before


class RatingReset(models.Model):
    """An operator put a player's rating in a format back to a new player's: who, why,
    and what it was (append-only)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_resets"
    )
    format = models.CharField(max_length=8, choices=Format.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_resets_made"
    )
    reason = models.CharField(max_length=200)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    shown_before = models.IntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user_id} {self.format} reset by {self.by_id}"


class BrowserSeen(models.Model):
    """An account signed in from a browser (its ``domino_browser`` cookie): accounts
    that share one never sit at one rated table."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="browsers_seen"
    )
    browser = models.CharField(max_length=32)
    first_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "browser"], name="ratings_browser_once"),
        ]
        indexes = [models.Index(fields=["browser"])]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.browser[:8]}"
