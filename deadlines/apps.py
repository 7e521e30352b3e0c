from django.apps import AppConfig


class DeadlinesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "deadlines"
    verbose_name = "Deadlines"

    def ready(self) -> None:
        # the housekeeping kind's handler registers itself on import
        from deadlines import worker  # noqa: F401
