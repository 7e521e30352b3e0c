"""The Content-Security-Policy (domino_site/csp.py, django-csp): on every response,
the pages' scripts by this response's nonce only (no 'unsafe-inline', no
'unsafe-eval'), no inline style, framed by nobody; WebAssembly only where the offline
game's worker compiles it.  The walker in ``test_urls.py`` checks every URL of the
site; here the error pages, the static files and the templates' own markup."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)


def directives(response: Any) -> dict[str, list[str]]:
    """The policy of ``response``, by directive (fails when there is none)."""
    policy = response["Content-Security-Policy"]
    found = {}
    for part in policy.split(";"):
        name, *values = part.split()
        found[name] = values
    return found


def strict(response: Any) -> bool:
    """What every page's policy must say."""
    policy = directives(response)
    scripts = policy["script-src"]
    return (
        "'unsafe-inline'" not in scripts
        and "'unsafe-eval'" not in scripts
        and "'wasm-unsafe-eval'" not in scripts
        and policy["frame-ancestors"] == ["'none'"]
        and policy["object-src"] == ["'none'"]
        and policy["base-uri"] == ["'none'"]
        and "'unsafe-inline'" not in policy["style-src"]
    )


@pytest.fixture
def no_debug(settings: Any) -> None:
    settings.DEBUG = False  # Django's debug pages go without a policy


@pytest.mark.django_db
def test_every_script_of_a_page_carries_the_nonce_its_policy_names() -> None:
    for path in ("/", "/offline/", "/accounts/login/", "/privacy/"):
        response = Client().get(path)
        assert response.status_code == 200 and strict(response), path
        [nonce] = [v for v in directives(response)["script-src"] if v.startswith("'nonce-")]
        tags = SCRIPT.findall(response.content.decode())
        assert tags, path
        for attributes in tags:
            if 'type="application/json"' in attributes:  # data, never run
                continue
            assert f'nonce="{nonce[7:-1]}"' in attributes, (path, attributes)


@pytest.mark.django_db
def test_two_responses_never_share_a_nonce() -> None:
    first, second = (directives(Client().get("/"))["script-src"] for _ in range(2))
    assert first != second


@pytest.mark.django_db
@pytest.mark.usefixtures("no_debug")
@pytest.mark.urls("tests.site.forbidden_urls")
def test_the_error_pages_carry_the_policy() -> None:
    client = Client(raise_request_exception=False)
    for path, status in (("/forbidden/", 403), ("/t/nobody/", 404), ("/broken/", 500)):
        response = client.get(path)
        assert response.status_code == status and strict(response), path
    refused = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x"})
    assert refused.status_code == 403 and strict(refused)


@pytest.mark.django_db
def test_the_offline_page_and_the_service_worker_carry_the_policy() -> None:
    for path in ("/offline/", "/sw.js", "/manifest.webmanifest"):
        response = Client().get(path)
        assert response.status_code == 200 and strict(response), path
    assert directives(Client().get("/offline/"))["worker-src"] == ["'self'"]


def test_static_files_run_only_as_the_sites_and_wasm_only_in_the_offline_worker(
    settings: Any,
) -> None:
    settings.DEBUG = True  # WhiteNoise serves the sources; the middleware is the same
    css = directives(Client().get("/static/css/site.css"))
    assert css["script-src"] == ["'self'"] and css["frame-ancestors"] == ["'none'"]
    worker = directives(Client().get("/static/offline/worker.js"))
    assert worker["script-src"] == ["'self'", "'wasm-unsafe-eval'"]


def test_htmx_evaluates_no_code_from_the_page() -> None:
    """htmx's own settings: no eval (hx-on, js: values, trigger filters), no script
    taken from a swapped fragment, no style element of its own, and no style
    attribute carried from the old element to its swapped-in copy (the table's
    script animates through element.style, which the policy allows; setAttribute
    of a style, which htmx's settling does, it refuses)."""
    base = (ROOT / "templates" / "base.html").read_text()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", base)
    assert config is not None
    assert json.loads(config.group(1)) == {
        "allowEval": False,
        "allowScriptTags": False,
        "includeIndicatorStyles": False,
        "attributesToSettle": ["class", "width", "height"],
    }


INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>"  # an inline script
    r"|\son[a-z]+\s*=|\shx-on|javascript:"  # handlers in attributes, script URLs
    r"|\sstyle\s*=|<style\b",  # inline style
    re.IGNORECASE,
)


def test_no_template_or_markup_holds_inline_script_or_style() -> None:
    sources = [
        *(ROOT / "templates").rglob("*.html"),
        *(ROOT / "templates").rglob("*.js"),
        *(ROOT / "static").rglob("*.js"),
        ROOT / "games" / "view" / "drawing.py",
        ROOT / "games" / "live" / "markup.py",
    ]
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sources
        if "vendor" not in path.parts
        for match in INLINE.finditer(path.read_text())
    ]
    assert found == []
