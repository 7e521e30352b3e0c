from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matchmaking"
    verbose_name = "Matchmaking"

    def ready(self) -> None:
        # The POOL_FILL deadline handler registers itself on import.
        from matchmaking import services  # noqa: F401
