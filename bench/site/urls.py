"""The site's URL map plus the bare view (last, as a route added to the site would be)."""

from django.urls import URLPattern, URLResolver, include, path

from bench.site.yardsticks import bare, loop_lag

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include("domino_site.urls")),
    path("bench/bare", bare),
    path("bench/lag", loop_lag),
]
