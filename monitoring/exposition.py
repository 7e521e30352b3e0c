"""What ``/metrics`` answers: every process's metrics, then figures read from the
database at the scrape (the same for every process: asked once, where scraped).

With ``PROMETHEUS_MULTIPROC_DIR`` set the values are read from the files every
process of the site writes there (prometheus-client's multi-process mode); without
it, from this process.  Process figures (CPU, memory) come only without it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from deadlines.models import Deadline
from games.kinds import COACH
from games.models import Table


class DatabaseFigures(Collector):
    """Gauges counted in the database at each scrape (a few indexed counts)."""

    def describe(self) -> list[Metric]:
        return []  # nothing asked at registration: the database may not be there yet

    def collect(self) -> Iterator[Metric]:
        try:
            figures = self._counted()
        except DatabaseError:
            return  # the process's own metrics are still worth a scrape (see /readyz)
        for name, (documentation, value) in figures.items():
            yield GaugeMetricFamily(name, documentation, value=value)

    def _counted(self) -> dict[str, tuple[str, int]]:
        now = timezone.now()
        waiting = Deadline.objects.filter(parked_at__isnull=True)
        return {
            "domino_deadlines_due": (
                "Deadlines due and not yet applied.",
                waiting.filter(due_at__lte=now).count(),
            ),
            "domino_deadlines_parked": (
                "Deadlines parked after failing too often (the admin retries them).",
                Deadline.objects.filter(~Q(parked_at=None)).count(),
            ),
            "domino_coach_queue": (
                "Finished hands waiting for the coach's review.",
                waiting.filter(kind=COACH).count(),
            ),
            "domino_tables_playing": (
                "Tables with a game under way.",
                Table.objects.filter(status=Table.Status.PLAYING).count(),
            ),
        }


_database = CollectorRegistry(auto_describe=False)
_database.register(DatabaseFigures())


def _processes() -> CollectorRegistry:
    """Every process's metrics (multi-process mode), else this process's."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return registry


def exposition() -> bytes:
    """The text Prometheus scrapes."""
    return generate_latest(_processes()) + generate_latest(_database)


def gauge_by_label(name: str, label: str) -> dict[str, int]:
    """A gauge's values now, summed over the processes, by one label's value."""
    values: dict[str, int] = {}
    for family in _processes().collect():
        if family.name == name:
            for sample in family.samples:
                key = sample.labels[label]
                values[key] = values.get(key, 0) + int(sample.value)
    return values
