"""Pages of finished games: the replay, the record to download, a hand's proof.

Anyone with the table's link may open them (the link is the share link), and they
exist only for what is over (``games.history.selectors``): a table being played has no
replay, a hand being played no proof."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html

from games.engine import ALL_TILES, Placed
from games.history.selectors import (
    ReplayHand,
    ReplayStep,
    match_proofs,
    record_of,
    replay_of,
    verified_hand,
)
from games.live.fragments import shared_html
from games.models import Table
from games.selectors import table_by_code
from games.view.drawing import small_tile, tile_sprite
from games.view.snake import snake


def _table(code: str) -> Table:
    table = table_by_code(code)
    if table is None:
        raise Http404
    return table


def _tile_palette() -> list[tuple[str, str]]:
    """Every face the replay's script draws in the hands, by its text: the small tiles."""
    return [(f"s{t}", str(small_tile(t))) for t in ALL_TILES]


def step_line(step: ReplayStep) -> str:
    """The line after ``step`` as the table draws it: the snake (``games.view.snake``)
    in the table's own fragment, its last tile marked as the table marks a move's;
    "" for an empty line."""
    if not step.line:
        return ""
    line = tuple(Placed(*map(int, text.split("|"))) for text in step.line)
    tiles = shared_html(
        "games/_line.html",
        line=line,
        last_kind=step.kind or None,
        last_end=step.played if step.kind else None,
    )
    return format_html('<div class="snake {}">{}</div>', snake(line).line, tiles)


def steps_data(hand: ReplayHand) -> list[dict[str, Any]]:
    """A hand's steps for the replay's script: each with its line drawn (``board``)."""
    return [
        {**data, "board": step_line(step)}
        for step, data in zip(hand.steps, hand.steps_data(), strict=True)
    ]


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
            "steps": [steps_data(hand) for hand in shown.hands],
        },
    )


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
