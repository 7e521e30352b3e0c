"""The site as the benchmarks serve it: the production site plus two yardsticks.

``bench.site.settings`` is the site's settings with the URL map of
``bench.site.urls`` (the site's, plus the bare view ``/bench/bare``), and
``bench.site.asgi:application`` is the site's application with the echo socket
``/ws/echo/`` in front.  The load benchmark starts daphne on them
(``DJANGO_SETTINGS_MODULE=bench.site.settings``); the production site knows
nothing of either route.
"""
