"""The table's regions that are one shared fragment of a few of the view's values.

The page's templates (``_hand.html``, ``_board.html``, ``_scores.html``) and a
websocket frame take those values from here.  A frame looks such a region up by its
values (``games.live.fragments``) instead of rendering its wrapper template for each
viewer; an unchanged region is the same fragment version after version.
"""

from __future__ import annotations

from django.utils.safestring import SafeString
from jinja2 import pass_context
from jinja2.runtime import Context

from games.live import fragments
from games.view.parts import REGIONS, TableView

#: region template -> the shared fragment it is, and the values that fragment shows
SHARED = REGIONS


def region_html(region: str, tv: TableView, language: str) -> SafeString:
    """A shared region's HTML for ``tv``, in ``language``."""
    template, values = SHARED[region]
    return fragments.shared_in(language, template, **values(tv))


@pass_context
def region(context: Context, region: str, tv: TableView) -> SafeString:
    """``{{ region("games/_hand.html", tv) }}`` in the region's own template (the page)."""
    template, values = SHARED[region]
    return fragments.shared(context, template, **values(tv))
