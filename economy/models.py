"""The coin ledger: accounts, transfers and their entries (double entry).

A transfer's entries sum to zero, so coins move between accounts and are never
made or lost except through a system account named for the reason (the house's
issuance, which may go negative).  Transfers and entries are append-only: the
only writer is ``economy.services.ledger.post_transfer``.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AppendOnlyError(RuntimeError):
    """The ledger is never edited: a correction is a new transfer."""


_M = TypeVar("_M", bound=models.Model)


class AppendOnlyQuerySet(models.QuerySet[_M]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are never updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.model.__name__} rows are never deleted")


class AppendOnly(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are never updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{type(self).__name__} rows are never deleted")


class Account(models.Model):
    """Where coins are: a player's wallet, a stake table's pot, or a house source.

    ``balance`` caches the sum of the account's entries for wallets and escrows;
    it moves only inside ``post_transfer``, under the row lock, and the audit
    checks it against the ledger.  System accounts keep no cached balance (they
    would be a hot row every reward waits on); theirs is summed when asked.
    """

    class Kind(models.TextChoices):
        WALLET = "wallet", _("wallet")
        ESCROW = "escrow", _("stake table pot")
        SYSTEM = "system", _("house")

    class Source(models.TextChoices):
        SIGNUP = "signup", _("sign-up grants")
        DAILY = "daily", _("daily bonuses")
        REWARDS = "rewards", _("match rewards")
        SHOP = "shop", _("shop")
        ADJUSTMENTS = "adjustments", _("adjustments")
        LEAGUE = "league", _("league prizes")
        FORFEITED = "forfeited", _("coins of deleted accounts")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="coin_accounts",
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="escrow_accounts",
    )
    source = models.CharField(max_length=16, choices=Source.choices, blank=True)
    balance = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        permissions = [("adjust_account", "Can correct a balance (recorded as an adjustment)")]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind="wallet", user__isnull=False, table__isnull=True, source="")
                    | Q(kind="escrow", user__isnull=True, table__isnull=False, source="")
                    | (Q(kind="system", user__isnull=True, table__isnull=True) & ~Q(source=""))
                ),
                name="economy_account_owner_matches_kind",
            ),
            models.CheckConstraint(
                condition=Q(kind="system") | Q(balance__gte=0),
                name="economy_account_never_negative",
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(kind="wallet"), name="economy_one_wallet_per_user"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(kind="escrow"), name="economy_one_escrow_per_table"
            ),
            models.UniqueConstraint(
                fields=["source"], condition=Q(kind="system"), name="economy_one_system_per_source"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.WALLET:
            return f"wallet of user {self.user_id}"
        if self.kind == self.Kind.ESCROW:
            return f"pot of table {self.table_id}"
        return f"house: {self.source}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # An account is created once; its balance moves only through post_transfer.
        if not self._state.adding:
            raise AppendOnlyError("accounts are not edited; post a transfer")
        super().save(*args, **kwargs)

    @property
    def keeps_balance(self) -> bool:
        return self.kind != self.Kind.SYSTEM


class Reason(models.TextChoices):
    SIGNUP = "signup", _("sign-up grant")
    DAILY = "daily", _("daily bonus")
    REWARD = "reward", _("match reward")
    SHOP = "shop", _("shop purchase")
    ADJUSTMENT = "adjustment", _("adjustment")
    STAKE = "stake", _("stake")
    REFUND = "refund", _("stake refund")
    POT = "pot", _("pot won")
    LEAGUE = "league", _("league prize")
    FORFEIT = "forfeit", _("forfeited: account deleted")


class Transfer(AppendOnly):
    """One movement of coins: two or more entries summing to zero."""

    key = models.CharField(max_length=120, unique=True)  # idempotency: the domain's key
    reason = models.CharField(max_length=16, choices=Reason.choices)
    memo = models.CharField(max_length=200, blank=True)
    boosted = models.BooleanField(default=False)  # a booster multiplied this reward
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transfers_made",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(boosted=False) | Q(reason="reward"),
                name="economy_transfer_only_rewards_boosted",
            ),
        ]

    def __str__(self) -> str:
        return self.key


class Entry(AppendOnly):
    """One leg of a transfer: coins into (positive) or out of (negative) an account."""

    transfer = models.ForeignKey(Transfer, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="economy_entry_not_zero"),
            models.UniqueConstraint(
                fields=["transfer", "account"], name="economy_entry_one_leg_per_account"
            ),
        ]
        indexes = [models.Index(fields=["account", "-transfer"])]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.account}"


class StakeInPlay(models.Model):
    """A player's stake in a pot that is not settled yet: at most one per player (the
    primary key), so a player sits at one stake table at a time, from sitting down
    until the stake comes back (standing up, a cancelled table, a drawn game) or the
    pot is paid.  The database keeps the rule: sits of one player racing on any
    number of processes cannot both pay.  Written and deleted only by
    ``economy.services.escrow``, in the transaction of the transfer it follows."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        primary_key=True,
        related_name="stake_in_play",
    )
    table = models.ForeignKey(
        "games.Table", on_delete=models.PROTECT, related_name="stakes_in_play"
    )
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "stakes in play"
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"], name="economy_one_stake_in_play_per_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"user {self.user_id}: seat {self.seat} of table {self.table_id}"


class Item(models.TextChoices):
    GOLD_BOOSTER = "gold", _("Gold booster")
    VIP_PASS = "vip", _("VIP pass")


class Purchase(AppendOnly):
    """An order in the shop, and the window in which what it bought is active.

    ``token`` is the order's idempotency key (the form carries it), so a double
    click buys once; the coins move in the transfer keyed ``shop:{token}``.
    """

    token = models.UUIDField(unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="purchases"
    )
    item = models.CharField(max_length=8, choices=Item.choices)
    price = models.PositiveIntegerField()
    percent = models.PositiveSmallIntegerField()  # the multiplier, 150 = ×1.5
    transfer = models.OneToOneField(Transfer, on_delete=models.PROTECT, related_name="purchase")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="economy_purchase_window"
            ),
        ]
        indexes = [models.Index(fields=["user", "ends_at"])]

    def __str__(self) -> str:
        return f"{self.item} for user {self.user_id}"

    @property
    def factor(self) -> float:
        return self.percent / 100


class XpAward(AppendOnly):
    """Experience points earned, once per source (``xp:{table}:{user}``).

    ``User.xp`` caches their sum, updated in the same transaction.
    """

    key = models.CharField(max_length=120, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="xp_awards"
    )
    amount = models.PositiveIntegerField()
    table = models.ForeignKey(
        "games.Table", on_delete=models.PROTECT, null=True, blank=True, related_name="xp_awards"
    )
    boosted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="economy_xp_award_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.amount} XP"
