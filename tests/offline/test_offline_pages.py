"""The offline game's pages: its page with the site's 'vs computer' settings, the
service worker at the site's root, and the manifest that makes the site installable."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from games import offline_pages
from games.engine import PRESETS
from games.forms import TableForm
from games.models import BotLevel
from games.offline_pages import BUNDLE
from games.view.presets import rules_from_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(engine_zip: object) -> None:
    """The offline game's files are built (``make setup``)."""
    offline_pages._bundle.cache_clear()
    offline_pages._precached.cache_clear()
    offline_pages._kept_version.cache_clear()


def config(page: str) -> dict[str, object]:
    found = re.search(r'<script id="offline-config" type="application/json">(.*?)</script>', page)
    assert found, "the page has no configuration for its script"
    value: dict[str, object] = json.loads(found.group(1))
    return value


def test_the_page_offers_every_setting_of_the_vs_computer_form_and_says_it_pays_nothing(
    client: Client, built: None
) -> None:
    page = client.get(reverse("offline")).content.decode()
    assert "con o senza connessione non danno monete né XP" in page
    for name in ("preset", "seating", "hand_size", "draw", "target", "bot_level"):
        assert f'name="{name}"' in page
    for level in BotLevel.values:
        assert f'value="{level}"' in page
    settings = config(page)
    assert str(settings["engine"]).endswith(".zip") and "engine-" in str(settings["engine"])
    assert str(settings["pyodide"]).endswith("/pyodide/314.0.8/")
    forms = settings["forms"]
    assert isinstance(forms, dict) and set(PRESETS) <= set(forms)
    # every combination a player can reach starts a game the engine accepts
    started = 0
    for key, state in forms.items():
        preset = key.split("|")[0]
        names = ("seating", "hand_size", "draw", "target")
        for values in itertools.product(*([c[0] for c in state[n]["choices"]] for n in names)):
            fields = {"preset": preset, **dict(zip(names, values, strict=True))}
            form = TableForm({**fields, "mode": "computer", "bot_level": "easy"})
            if form.is_valid():  # the site's form takes it: so does the offline game
                assert rules_from_fields(fields) == form.cleaned_data["rules"]
                started += 1
    assert started > 20


def test_the_home_page_and_the_vs_computer_form_offer_to_play_without_connection(
    client: Client,
) -> None:
    for name in ("home", "table_new"):
        page = client.get(reverse(name)).content.decode()
        assert f'href="{reverse("offline")}"' in page
        assert "Gioca senza connessione" in page


def test_the_service_worker_keeps_the_page_the_engine_and_pyodide_at_the_sites_root(
    client: Client, built: None
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    script = response.content.decode()
    listed = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", script).group(1))  # type: ignore[union-attr]
    assert listed[0] == reverse("offline")
    assert any(url.endswith("/pyodide.asm.wasm") for url in listed)
    assert any(re.search(r"/engine/engine-[0-9a-f]{12}\.", url) for url in listed)
    assert any(url.endswith("offline.js") for url in listed)
    assert any(url.endswith("worker.js") for url in listed)
    assert any("/offline/python" in url for url in listed)  # the worker's start
    # the offline page names the deploy its files belong to: the worker's cache
    version = re.search(r'const VERSION = "([0-9a-f]{12})"', script).group(1)  # type: ignore[union-attr]
    assert client.get(reverse("offline"))["X-Offline-Version"] == version


def test_the_manifest_makes_the_site_an_app_that_opens_the_offline_game(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == reverse("offline") and manifest["scope"] == "/"
    assert manifest["display"] == "standalone" and manifest["theme_color"].startswith("#")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        assert finders.find(name), f"{name} is not a static file"
    page = client.get(reverse("home")).content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page


def test_pyodide_and_the_engine_are_served_compressed_and_kept_for_a_year(
    tmp_path: Path, settings: Any, built: None, pyodide_dir: Path
) -> None:
    """As ``make run`` serves them: collected, compressed, and cached for a year (the
    engine's name is its hash, Pyodide's folder its version)."""
    settings.STATIC_ROOT = tmp_path
    storage = "domino_site.staticfiles.KeptCompressionStorage"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": storage}}
    call_command("collectstatic", "--noinput", verbosity=0)
    wasm = Client().get("/static/pyodide/314.0.8/pyodide.asm.wasm", HTTP_ACCEPT_ENCODING="gzip, br")
    assert wasm["Content-Type"] == "application/wasm"
    assert wasm["Content-Encoding"] == "br"
    assert "immutable" in wasm["Cache-Control"] and "max-age=315360000" in wasm["Cache-Control"]
    engine = Client().get(static(json.loads(BUNDLE.read_text())["engine"]))
    assert engine.status_code == 200 and "immutable" in engine["Cache-Control"]


@pytest.mark.parametrize(
    "language,practice,wrong",
    [
        ("en", "practice there too: no coins, no XP", "with coins and XP"),
        ("it", "anche lì è allenamento: niente monete, niente XP", "con monete e XP"),
    ],
)
def test_the_page_says_the_game_against_the_computer_pays_nothing_online_either(
    client: Client, language: str, practice: str, wrong: str
) -> None:
    """docs/rules.md §7: against the computer is practice, online as offline."""
    client.cookies["django_language"] = language
    page = client.get(reverse("offline")).content.decode()
    assert practice in page and wrong not in page


def test_the_computer_offline_thinks_as_long_as_at_the_sites_tables(
    client: Client, settings: Any
) -> None:
    """BOT_DELAY_SCALE (the browser tests' site: 0.2) reaches the offline game's page,
    which waits the worker's thinking time times it before the computer's move."""
    settings.BOT_DELAY_SCALE = 0.2
    assert config(client.get(reverse("offline")).content.decode())["bot_delay_scale"] == 0.2
    settings.BOT_DELAY_SCALE = 1.0
    assert config(client.get(reverse("offline")).content.decode())["bot_delay_scale"] == 1.0
