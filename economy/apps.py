from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = "Coins"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals  # noqa: F401
        from .services import stake_tables  # noqa: F401  (its deadline handler and pot receiver)
