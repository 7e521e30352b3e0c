"""``{% offline_start %}``: what a page's install.js needs to prepare the offline game's
quick start (its files: ``games.offline_pages.bundle``), as JSON; empty before ``make setup``
built the offline game's files."""

from __future__ import annotations

import json

from django import template
from django.utils.translation import get_language

from games.offline_pages import bundle

register = template.Library()


@register.simple_tag
def offline_start() -> str:
    files = bundle()
    if files is None:
        return ""
    return json.dumps({**files, "language": (get_language() or "it")[:2]})
