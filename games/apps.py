from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Deadline handlers register themselves when their modules are imported.
        from accounts import header
        from games import housekeeping, services  # noqa: F401
        from games.selectors import pending_invitation_count

        header.register("invitations", lambda user: pending_invitation_count(user=user))
