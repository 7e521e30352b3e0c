"""The game against the computer with no connection: its page, the service worker
that keeps the site's offline part in the browser, and the web app manifest.

The game itself runs in the browser (``games/offline/``, under Pyodide, in a Web
Worker): the server only serves these pages and the static files.  It never hears
of an offline game, which pays no coins and no XP.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from games.constants import DEFAULT_BOT_LEVEL
from games.engine import PRESETS
from games.forms import TableForm
from games.models import BotLevel, Table

#: What ``tools/build_offline.py`` packed: the engine's zip and Pyodide's folder.
BUNDLE = Path(settings.BASE_DIR) / "vendor" / "static" / "engine" / "bundle.json"
#: The files of Pyodide's core the worker loads (``tools/fetch_pyodide.py``).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The form's settings a game is started with (its mode and turn clock are not offered).
FIELDS = ("preset", "seating", "hand_size", "draw", "target", "bot_level")


def bundle() -> dict[str, str] | None:
    """Where the offline game's files are, or None before ``make setup`` built them."""
    try:
        return _bundle(BUNDLE.stat().st_mtime_ns)
    except OSError:
        return None


@functools.lru_cache(maxsize=2)
def _bundle(_mtime: int) -> dict[str, str]:
    built = json.loads(BUNDLE.read_text())
    return {
        "engine": static(built["engine"]),
        # Pyodide loads its files by their own names from this folder (it is its version).
        "pyodide": settings.STATIC_URL.rstrip("/") + "/" + built["pyodide"],
        "worker": static("offline/worker.js"),
        # the worker imports it by this name (a static file's hashed one)
        "python": static("offline/python.js"),
    }


@functools.lru_cache(maxsize=4)  # per language: the labels are translated
def _form_states(language: str) -> dict[str, Any]:
    """The new-table form's choices for every setting a player can reach, as the site's
    form offers them (``TableForm``): the page changes its choices without asking."""
    states: dict[str, Any] = {}
    for preset in PRESETS:
        form = TableForm(initial={"mode": Table.Mode.COMPUTER, "preset": preset})
        states[preset] = _state(form)
        for seating, _label in form["seating"].field.choices:  # type: ignore[attr-defined]
            for size in ("5", "7"):
                initial = {"preset": preset, "seating": seating, "hand_size": size}
                stated = TableForm(initial={**initial, "shown_preset": preset})
                states[f"{preset}|{seating}|{size}"] = _state(stated)
    return states


def _state(form: TableForm) -> dict[str, Any]:
    return {
        name: {
            "choices": [[str(v), str(label)] for v, label in form.fields[name].choices],  # type: ignore[attr-defined]
            "value": str(form.initial.get(name, "")),
        }
        for name in ("seating", "hand_size", "draw", "target")
    }


def _context(language: str) -> dict[str, Any]:
    form = TableForm(initial={"mode": Table.Mode.COMPUTER, "bot_level": DEFAULT_BOT_LEVEL})
    files = bundle()
    config = {
        **(files or {}),
        "language": language,
        # The computer thinks as long as at the site's tables (the browser tests' site: less)
        "bot_delay_scale": settings.BOT_DELAY_SCALE,
        # The addresses the live templates link to; "{}" stands for an argument.
        "urls": {
            "home": reverse("home"),
            "rules": reverse("rules", args=["PRESET"]).replace("PRESET", "{}"),
            "table_rematch": "",
        },
        "forms": _form_states(language),
        "levels": {str(value): str(label) for value, label in BotLevel.choices},
        "words": {
            "won": _("won"),
            "lost": _("lost"),
            "drawn": _("drawn"),
            "confirm_new": _("Leave this game and start another? It is not kept."),
            "loading": _("Loading the game…"),
            "failed": _("The game could not start in this browser."),
        },
    }
    return {
        "form": form,
        "fields": [form[name] for name in FIELDS],
        "config": config,
        "available": files is not None,
    }


def offline(request: HttpRequest) -> HttpResponse:
    """The offline game's page: kept by the service worker, opened with no connection."""
    response = render(request, "games/offline.html", _context(_language(request)))
    response["X-Offline-Version"] = cache_version()
    return response


def _language(request: HttpRequest) -> str:
    return (getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE)[:2]


@functools.lru_cache(maxsize=1)  # the static files' names are fixed for a process
def _precached() -> list[str]:
    """Every address the offline game needs: its page, what the page links, the
    worker's files, the icons."""
    visitor = HttpRequest()  # nobody's: the files are everybody's
    visitor.user = AnonymousUser()
    html = render_to_string("games/offline.html", _context(settings.LANGUAGE_CODE), visitor)
    linked = set(re.findall(r'(?:src|href|data-[\w-]+)="(/static/[^"?#]+)"', html))
    files = bundle()
    if files is not None:
        linked |= {files["engine"], files["worker"], files["python"]}
        linked |= {files["pyodide"] + name for name in PYODIDE_FILES}
    linked |= {icon["src"] for icon in _icons()}
    return [reverse("offline"), *sorted(linked)]


def cache_version() -> str:
    """The name of this deploy's offline files: a new one whenever one of them changes
    (their names carry their content's hash), or the service worker does.  With debug
    on, the files keep their names as they change: their times count, read each time."""
    if settings.DEBUG:
        listed = _precached.__wrapped__()
        prefix = settings.STATIC_URL
        found = (finders.find(u.removeprefix(prefix)) for u in listed if u.startswith(prefix))
        times = [str(os.stat(path).st_mtime_ns) for path in found if isinstance(path, str)]
        return _version(listed, times)
    return _kept_version()


@functools.lru_cache(maxsize=1)
def _kept_version() -> str:
    return _version(_precached(), [])


def _version(listed: list[str], times: list[str]) -> str:
    source = (Path(settings.BASE_DIR) / "templates" / "offline" / "sw.js").read_bytes()
    return hashlib.sha256(source + "\n".join([*listed, *times]).encode()).hexdigest()[:12]


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: at the site's root, so it may keep the whole site's scope."""
    precache = _precached()
    response = render(
        request,
        "offline/sw.js",
        {
            "version": cache_version(),
            "precache": json.dumps(precache),
            "offline_url": json.dumps(reverse("offline")),
            "static_url": json.dumps(settings.STATIC_URL),
        },
        content_type="text/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


def _icons() -> list[dict[str, str]]:
    return [
        {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("img/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]


def web_manifest(request: HttpRequest) -> JsonResponse:
    """``/manifest.webmanifest``: the site installed as an app opens the offline game."""
    return JsonResponse(
        {
            "name": "Domino",
            "short_name": "Domino",
            "description": _("Dominoes against the computer, also with no connection."),
            "lang": _language(request),
            "start_url": reverse("offline"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#f7f3ea",
            "theme_color": "#15503a",
            "icons": _icons(),
        },
        content_type="application/manifest+json",
    )
