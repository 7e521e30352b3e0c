import atexit
import os

from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "monitoring"
    verbose_name = "Monitoring"

    def ready(self) -> None:
        from monitoring import signals  # noqa: F401  # the login counters

        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            # This process's live gauges (open sockets, tables held) leave the sums.
            atexit.register(multiprocess.mark_process_dead, os.getpid())
