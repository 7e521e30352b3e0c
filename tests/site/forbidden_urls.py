"""The site's URLs, one page that refuses everyone (tests of the 403 page) and one
that breaks (the 500 page, through every middleware)."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from domino_site.urls import urlpatterns as site_urls


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug, for the test")


urlpatterns = [path("forbidden/", forbidden), path("broken/", broken), *site_urls]
