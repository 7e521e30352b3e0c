from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = "Coins"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import header
        from games.hooks.escrow import register

        from . import signals  # noqa: F401
        from .selectors import balance_of
        from .services.escrow import CoinEscrow

        register(CoinEscrow())  # the stake tables' stakes are coins
        header.register("coins", lambda user: balance_of(user=user))
