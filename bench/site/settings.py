"""The site's settings, with the benchmark's URL map and application."""

from domino_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.site.urls"
ASGI_APPLICATION = "bench.site.asgi.application"
