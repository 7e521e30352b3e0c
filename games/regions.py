"""The table's regions that are one shared fragment of a few of the view's values.

The page's templates (``_hand.html``, ``_board.html``, ``_scores.html``) and a
websocket frame take those values from here.  A frame looks such a region up by its
values (``games.fragments``) instead of rendering its wrapper template for each
viewer; an unchanged region is the same fragment version after version.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from django.utils.safestring import SafeString
from jinja2 import pass_context
from jinja2.runtime import Context

from games import fragments
from games.selectors import TableView

Values = dict[str, Hashable]


def _hand(tv: TableView) -> Values:
    # the version only when there are buttons: an unchanged hand is the same fragment
    return {
        "playing": tv.playing,
        "watching": tv.watching,
        "hand_over": tv.hand_over,
        "your_turn": tv.your_turn,
        "hand": tv.hand,
        "ends": tv.move_ends,
        "draw_move": tv.draw_move,
        "pass_move": tv.pass_move,
        "version": tv.move_version,
    }


def _board(tv: TableView) -> Values:
    # the same board for every viewer but the one to play
    player, last = tv.player, tv.last_move
    return {
        "playing": tv.playing,
        "ends": player.ends if player else None,
        "boneyard": player.boneyard_count if player else None,
        "draws": tv.rules.draws,
        "hand_number": tv.hand_number,
        "line": player.line if player else None,
        "last_kind": last.kind if last else None,
        "last_end": last.end if last else None,
        "your_turn": tv.your_turn,
        "commitment": tv.deal.commitment,
    }


def _scores(tv: TableView) -> Values:
    return {
        "playing": tv.playing,
        "scores": tv.scores,
        "target": tv.rules.target,
        "summaries": tv.hand_summaries,
    }


#: region template -> the shared fragment it is, and the values that fragment shows
SHARED: dict[str, tuple[str, Callable[[TableView], Values]]] = {
    "games/_hand.html": ("games/_hand_body.html", _hand),
    "games/_board.html": ("games/_board_body.html", _board),
    "games/_scores.html": ("games/_score_body.html", _scores),
}


def region_html(region: str, tv: TableView, language: str) -> SafeString:
    """A shared region's HTML for ``tv``, in ``language``."""
    template, values = SHARED[region]
    return fragments.shared_in(language, template, **values(tv))


@pass_context
def region(context: Context, region: str, tv: TableView) -> SafeString:
    """``{{ region("games/_hand.html", tv) }}`` in the region's own template (the page)."""
    template, values = SHARED[region]
    return fragments.shared(context, template, **values(tv))
