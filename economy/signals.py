"""Coins that follow other apps' events, in the transaction of the event.

The starting grant follows the account: whenever a registered player is saved
without one (a sign-up, a guest claiming their account), it is paid.  Match
rewards follow ``games.signals.match_finished``; what a table paid each player is
read for its end screen through ``games.hooks.payouts``; a stake table's pot is paid
by ``pay_the_pot`` (the stakes went in through ``games.hooks.escrow``).  Signals and
registries, so neither accounts nor games need know about coins."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import User
from games.hooks.payouts import reports
from games.models import SeatResult, Table
from games.signals import match_finished

from .selectors import table_payouts
from .services import grant_signup, pay_match_rewards, pot_pay, stakes_refund_all

reports(table_payouts)  # the end screen's coins and XP, from the ledger


@receiver(post_save, sender=User, dispatch_uid="economy_grant_on_claim")
def grant_on_claim(sender: type[User], instance: User, raw: bool = False, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if raw or instance.is_guest:
        return
    if update_fields is not None and "is_guest" not in update_fields and not kwargs["created"]:
        return  # e.g. a login stamping last_login: nothing about the account changed
    grant_signup(user=instance)


@receiver(match_finished, sender=Table, dispatch_uid="economy_match_rewards")
def pay_rewards(sender: type[Table], table: Table, **kwargs: Any) -> None:
    """Rewards and XP in the transaction that ends the match (paid once, by key)."""
    pay_match_rewards(table_id=table.pk)


@receiver(match_finished, sender=Table, dispatch_uid="economy_stake_pot")
def pay_the_pot(sender: type[Table], table: Table, **kwargs: Any) -> None:
    """In the transaction that ends a stake match: the whole pot to the winners."""
    if not table.stake:
        return
    results = list(SeatResult.objects.filter(table=table).select_related("user"))
    if all(r.rank == 1 for r in results):  # a drawn game: everyone gets their stake back
        stakes_refund_all(table=table)
        return
    winners = [(r.seat, r.user) for r in results if r.rank == 1 and r.user is not None]
    pot_pay(table=table, winners=winners)
