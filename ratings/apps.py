from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.hooks import fairplay

        from . import receivers  # noqa: F401
        from .selectors import sharing_a_browser

        fairplay.register(sharing_a_browser)  # stake tables keep such accounts apart
