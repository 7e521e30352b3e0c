"""Players: registered users and guests are the same table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .usernames import username_key

GUEST_PREFIX = "guest-"
#: A deleted account's name is this and its number (``privacy.deletion``): reserved,
#: like guests' names, so no new player can take a name other players' games show.
DELETED_PREFIX = "deleted-"


class PlayerManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        """Log in whatever the case or composition: ``username_key`` is unique."""
        return self.get(username_key=username_key(username or ""))


class User(AbstractUser):
    """A player.  A guest is a real row, flagged, with a generated name;
    claiming the account keeps the row, so their history stays theirs."""

    # NFKC + case-folded username, kept by save(): the uniqueness that holds on
    # every database (SQLite's lower() folds ASCII only).
    username_key = models.CharField(max_length=150, unique=True, editable=False)
    is_guest = models.BooleanField(_("guest"), default=False)
    guest_tag = models.PositiveIntegerField(_("guest number"), null=True, blank=True)
    xp = models.PositiveIntegerField(_("experience"), default=0)
    # A move that is the only one possible (a single tile that fits, a draw, a pass) is
    # played for the player after a short pause (games.services.play), unless they say no.
    plays_forced_moves = models.BooleanField(_("forced moves played for me"), default=True)
    # The table as text, with typed commands (games.live.typing), for a screen reader.
    text_mode = models.BooleanField(_("the table as text"), default=False)
    # When the player deleted the account: the row stays, anonymous, for the other
    # players' games, replays and league tables (privacy.deletion).
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)

    objects: ClassVar[PlayerManager] = PlayerManager()

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_key = username_key(self.username)
        update_fields: Iterable[str] | None = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        """The name other players see, in the viewer's language for guests."""
        if self.is_guest:
            return gettext("Guest %(tag)s") % {"tag": self.guest_tag}
        return self.username

    def __str__(self) -> str:
        return self.display_name


class PlayerLock(models.Model):
    """The player's own lock: their queue joins and stake sits take this row first
    (the head of the global lock order), so one player's concurrent requests run
    one after another, whatever pool or table they name.  The ``User`` row cannot
    serve: a match's end updates it (XP) after locking wallets."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, primary_key=True)

    def __str__(self) -> str:
        return f"lock of {self.user_id}"
