"""The site's URLs and one page that refuses everyone (tests of the 403 page)."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from domino_site.urls import urlpatterns as site_urls


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


urlpatterns = [path("forbidden/", forbidden), *site_urls]
