"""The Content-Security-Policy of every response (django-csp 4).

Pages run only the scripts they name with this response's nonce ('strict-dynamic':
an injected ``<script>``, even one of the site's own files, does not run), no
inline style, and may be framed by nobody.  Two kinds of response get their own
policy, by path, since no view of ours makes them:

- the static files: a script file's policy matters only when it runs as a worker,
  and the offline game's worker (``static/offline/``) compiles Pyodide's
  WebAssembly: ``'wasm-unsafe-eval'`` there and nowhere else;
- the admin's pages, whose scripts are Django's own files without a nonce:
  ``'self'`` instead.

The middleware sits before WhiteNoise, so static files carry a policy too.
"""

from __future__ import annotations

from typing import Any

from csp.constants import NONCE, NONE, SELF, STRICT_DYNAMIC, WASM_UNSAFE_EVAL
from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

#: The site's policy (settings.CONTENT_SECURITY_POLICY).
DIRECTIVES: dict[str, Any] = {
    "default-src": [SELF],
    "script-src": [NONCE, STRICT_DYNAMIC],
    "style-src": [SELF],
    "img-src": [SELF],
    "font-src": [SELF],
    "connect-src": [SELF],  # fetches and the live websockets (same host)
    "worker-src": [SELF],  # the service worker, the offline game's worker
    "manifest-src": [SELF],
    "object-src": [NONE],
    "base-uri": [NONE],
    "form-action": [SELF],
    "frame-ancestors": [NONE],
}

#: Where a script may run without the page's nonce: the static files' own policy.
FILES = {"script-src": [SELF]}
#: The offline game's worker: Pyodide compiles its WebAssembly there.
WORKER = {"script-src": [SELF, WASM_UNSAFE_EVAL]}
OFFLINE_FILES = "offline/"


def csp_nonce(request: HttpRequest) -> dict[str, object]:
    """A context processor: ``csp_nonce`` for django-htmx's ``htmx_script`` and our
    ``<script nonce>`` (read lazily: a page with no script adds no nonce)."""
    return {"csp_nonce": getattr(request, "csp_nonce", "")}


class SiteCSPMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        path = request.path_info
        static = "/" + settings.STATIC_URL.lstrip("/")
        if path.startswith(static):
            worker = path.removeprefix(static).startswith(OFFLINE_FILES)
            parts.replace = {**(parts.replace or {}), **(WORKER if worker else FILES)}
        elif path.startswith("/admin/"):
            parts.replace = {**(parts.replace or {}), **FILES}
        return parts
