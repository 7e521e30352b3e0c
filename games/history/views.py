"""Pages of finished games: the replay, the record to download, a hand's proof.

Anyone with the table's link may open them (the link is the share link), and they
exist only for what is over (``games.history.selectors``): a table being played has no
replay, a hand being played no proof.

The replay page carries each step's hands and words, not its line: the line of a
step (the table's own drawing of it, a few KB) is fetched when shown
(``replay_line``), and kept by the browser, since a hand that is over never changes."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html

from games.engine import ALL_TILES, Placed
from games.history.selectors import (
    StepLine,
    match_proofs,
    record_of,
    replay_line,
    replay_of,
    verified_hand,
)
from games.models import Table
from games.selectors import table_by_code
from games.view.drawing import line_html, small_tile, tile_sprite
from games.view.snake import snake


def _table(code: str) -> Table:
    table = table_by_code(code)
    if table is None:
        raise Http404
    return table


def _tile_palette() -> list[tuple[str, str]]:
    """Every face the replay's script draws in the hands, by its text: the small tiles."""
    return [(f"s{t}", str(small_tile(t))) for t in ALL_TILES]


#: How long a browser keeps a step's line: a year (a hand that is over never changes).
LINE_MAX_AGE = 365 * 24 * 3600


def step_line(step: StepLine) -> str:
    """The line after ``step`` as the table draws it: the snake (``games.view.snake``)
    in the table's own fragment, its last tile marked as the table marks a move's;
    "" for an empty line."""
    if not step.line:
        return ""
    line = tuple(Placed(*map(int, text.split("|"))) for text in step.line)
    tiles = line_html(line, step.kind or None, step.played if step.kind else None)
    return format_html('<div class="snake {}">{}</div>', snake(line).line, tiles)


def replay(request: HttpRequest, code: str) -> HttpResponse:
    """Every finished hand, move by move, all hands face up from the deal."""
    table = _table(code)
    shown = replay_of(table)
    if shown is None:
        raise Http404
    share_url = request.build_absolute_uri(reverse("replay", args=[table.code]))
    return render(
        request,
        "games/replay.html",
        {
            "replay": shown,
            "table": table,
            "share_url": share_url,
            "sprite": tile_sprite(),
            "palette": _tile_palette(),
            "line_language": translation.get_supported_language_variant(translation.get_language()),
        },
    )


def line(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """``?step=N&lang=L``: the line of hand ``number`` of the replay after its step
    ``N`` (``step_line``; empty for the deal), in language ``L`` (the replay page's:
    the tiles' names).  Only what the replay shows: none of a table still being
    played, of a hand not over, or of a step the hand does not have.  Its answer
    depends on its address alone, and never changes: kept for a year by any cache."""
    table = _table(code)
    step, language = request.GET.get("step", ""), request.GET.get("lang", "")
    if not (step.isascii() and step.isdigit()) or language not in dict(settings.LANGUAGES):
        raise Http404("A step's line needs its step (a number) and a language.")
    found = replay_line(table, number, int(step))
    if found is None:
        raise Http404("The replay has no such hand or step.")
    with translation.override(language):
        html = step_line(found)
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = f"public, max-age={LINE_MAX_AGE}, immutable"
    response["Content-Language"] = language
    return response


def record(request: HttpRequest, code: str) -> HttpResponse:
    """The match's record as text: the engine's form, which reads back exactly."""
    table = _table(code)
    text = record_of(table)
    if text is None:
        raise Http404
    return _file(text, "text/plain; charset=utf-8", f'inline; filename="domino-{table.code}.txt"')


def proofs(request: HttpRequest, code: str) -> HttpResponse:
    """Every finished hand's seeds and deal, for ``python -m games.engine.verify``."""
    table = _table(code)
    text = match_proofs(table)
    if text is None:
        raise Http404
    name = f"domino-{table.code}-deals.json"
    return _file(text, "application/json", f'attachment; filename="{name}"')


def _file(text: str, content_type: str, disposition: str) -> HttpResponse:
    response = HttpResponse(text + "\n", content_type=content_type)
    response["Content-Disposition"] = disposition
    return response


def hand_verify(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A finished hand's deal recomputed from its revealed seeds and checked."""
    table = _table(code)
    checked = verified_hand(table, number)
    if checked is None:
        raise Http404
    if request.GET.get("format") == "json":
        response = HttpResponse(checked.proof_json + "\n", content_type="application/json")
        name = f"domino-{table.code}-hand-{number}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    return render(request, "games/hand_verify.html", {"table": table, "v": checked})
