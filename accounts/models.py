"""Players: registered users and guests are the same table."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

GUEST_PREFIX = "guest-"


class PlayerManager(UserManager):  # type: ignore[type-arg]
    def get_by_natural_key(self, username: str | None) -> User:
        """Log in whatever the case: usernames are unique case-insensitively."""
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player.  A guest is a real row, flagged, with a generated name;
    claiming the account keeps the row, so their history stays theirs."""

    is_guest = models.BooleanField(_("guest"), default=False)
    guest_tag = models.PositiveIntegerField(_("guest number"), null=True, blank=True)
    xp = models.PositiveIntegerField(_("experience"), default=0)

    objects = PlayerManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    @property
    def display_name(self) -> str:
        """The name other players see, in the viewer's language for guests."""
        if self.is_guest:
            return gettext("Guest %(tag)s") % {"tag": self.guest_tag}
        return self.username

    def __str__(self) -> str:
        return self.display_name
