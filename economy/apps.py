from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = "Coins"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.escrow import register

        from . import signals  # noqa: F401
        from .services.escrow import CoinEscrow

        register(CoinEscrow())  # the stake tables' stakes are coins
