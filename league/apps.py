from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "League"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The match_finished receiver and the week's deadline handler register on import.
        from . import receivers, services  # noqa: F401
