"""The starting grant follows the account: whenever a registered player is saved
without one (a sign-up, a guest claiming their account), it is paid in the same
transaction.  A signal, so the accounts app need not know about coins."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import User

from .services import grant_signup


@receiver(post_save, sender=User, dispatch_uid="economy_grant_on_claim")
def grant_on_claim(sender: type[User], instance: User, raw: bool = False, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if raw or instance.is_guest:
        return
    if update_fields is not None and "is_guest" not in update_fields and not kwargs["created"]:
        return  # e.g. a login stamping last_login: nothing about the account changed
    grant_signup(user=instance)
