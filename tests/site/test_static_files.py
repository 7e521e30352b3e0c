"""Static files in production: hashed names, compressed, cached for a year, and
htmx with its websocket extension from django-htmx's copies (no CDN, no npm)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.templatetags.static import static
from django.test import Client

from domino_site import local
from tests.fixtures import COLLECTED_STATIC, static_files_collected

MANIFEST = "domino_site.staticfiles.KeptCompressionStorage"  # WhiteNoise's, compressing once


@pytest.mark.django_db
def test_static_files_are_hashed_compressed_and_cached_for_a_year(settings: Any) -> None:
    settings.STATIC_ROOT = COLLECTED_STATIC  # the tests' copy, as ``make run`` collects it
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": MANIFEST}}
    with static_files_collected():
        local.collect_static_files()  # collectstatic, unless a source has not changed since
    url = static("css/site.css")
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", url)
    response = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert response.status_code == 200
    assert response["Content-Encoding"] in ("br", "gzip")
    assert "max-age=315360000" in response["Cache-Control"]
    assert "immutable" in response["Cache-Control"]


@pytest.mark.django_db
def test_pages_load_htmx_and_its_websocket_extension_from_the_site(settings: Any) -> None:
    settings.WHITENOISE_USE_FINDERS = True  # as under `make run`: no collectstatic needed
    page = Client().get("/rules/").content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert any("htmx-2" in s for s in scripts) and any("hx-ws-2" in s for s in scripts)
    assert all(s.startswith("/static/") for s in scripts)  # never a CDN
    for src in scripts:
        assert Client().get(src).status_code == 200
