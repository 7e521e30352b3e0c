"""The weekly league: weeks, divisions, points per match, and frozen final tables.

Points are written once per person and match (``Entry``, from the match's
``SeatResult`` rows, in the transaction that ends it); a week's standings are
summed from those rows, never kept as running counters.  When the week
closes, its final table is frozen as ``Finish`` rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Tier(models.IntegerChoices):
    """Divisions, lowest first: everybody starts in Bronze."""

    BRONZE = 0, _("Bronze")
    SILVER = 1, _("Silver")
    GOLD = 2, _("Gold")
    DIAMOND = 3, _("Diamond")


class LeagueWeek(models.Model):
    """A week that has had a match or has been closed; ``key`` is ``weeks.Week.key``.

    Its row is the week's lock: a match ending shares it, the closing takes it
    alone, so no match lands in a week after its table was frozen.
    """

    key = models.CharField(max_length=10, unique=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at"]

    def __str__(self) -> str:
        return self.key


class Member(models.Model):
    """A player's division; the row appears with their first league match."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="league"
    )
    tier = models.PositiveSmallIntegerField(choices=Tier.choices, default=Tier.BRONZE)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["tier"])]

    def __str__(self) -> str:
        return f"user {self.user_id} in {self.get_tier_display()}"


class Entry(models.Model):
    """League points one person earned in one online match (written once)."""

    week = models.ForeignKey(LeagueWeek, on_delete=models.PROTECT, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_entries"
    )
    table = models.ForeignKey("games.Table", on_delete=models.PROTECT, related_name="+")
    result = models.OneToOneField(
        "games.SeatResult", on_delete=models.PROTECT, related_name="league_entry"
    )
    rank = models.PositiveSmallIntegerField()  # the final rank in the match
    points = models.PositiveIntegerField()
    halved = models.BooleanField(default=False)  # the room had simulated players
    created_at = models.DateTimeField()  # when the match ended

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="league_entry_once_per_match"),
        ]
        indexes = [models.Index(fields=["week", "user"])]

    def __str__(self) -> str:
        return f"{self.points} for user {self.user_id} in {self.week_id}"


class Finish(models.Model):
    """A player's place in a closed week's final table of their division."""

    class Move(models.IntegerChoices):
        DOWN = -1, _("down")
        STAY = 0, _("stays")
        UP = 1, _("up")

    week = models.ForeignKey(LeagueWeek, on_delete=models.PROTECT, related_name="finishes")
    tier = models.PositiveSmallIntegerField(choices=Tier.choices)
    rank = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_finishes"
    )
    points = models.PositiveIntegerField()
    matches = models.PositiveIntegerField()
    move = models.SmallIntegerField(choices=Move.choices, default=Move.STAY)
    prize = models.PositiveIntegerField(default=0)  # coins owed for the place
    # The ledger's transfer once the prize is paid (``league:{week}:{tier}:{rank}``).
    prize_transfer = models.OneToOneField(
        "economy.Transfer", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["week", "tier", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["week", "tier", "rank"], name="league_finish_one_rank"),
            models.UniqueConstraint(fields=["week", "user"], name="league_finish_once_a_week"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="league_finish_rank_from_1"),
        ]
        indexes = [models.Index(fields=["user", "-tier", "rank"])]

    def __str__(self) -> str:
        return f"{self.week_id} {self.get_tier_display()} #{self.rank}: user {self.user_id}"
