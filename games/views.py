"""Pages.  Views stay thin: they call services and selectors."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from accounts.guests import guest_required, player_or_guest, signed_in, viewer
from games import services
from games.constants import DEFAULT_BOT_LEVEL
from games.engine import PRESETS
from games.forms import TableForm
from games.live import frames
from games.models import BotLevel, Invitation, Table
from games.selectors import (
    invitation_badge,
    invitations_for,
    my_games,
    table_version_by_code,
    table_view,
)
from games.view.errors import GameError
from games.view.presets import PRESET_INFO

QUICK_PLAY = replace(PRESETS["domino"], players=2, hand_size=7, target=100)


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


def home(request: HttpRequest) -> HttpResponse:
    user = viewer(request)
    pending = invitation_badge(user=user) if user else 0
    return render(
        request,
        "games/home.html",
        {
            "presets": PRESET_INFO.values(),
            "invitations": invitations_for(user=user)[:10] if user and pending else [],
            "in_progress": my_games(user=user) if user else [],
            "levels": BotLevel.choices,
        },
    )


@require_POST
@guest_required
def quick_play(request: HttpRequest) -> HttpResponse:
    """One click from the home page to a game against the computer."""
    level = request.POST.get("level", DEFAULT_BOT_LEVEL)
    if level not in BotLevel.values:
        level = DEFAULT_BOT_LEVEL
    table = services.table_create(
        host=player_or_guest(request), mode=Table.Mode.COMPUTER, rules=QUICK_PLAY, bot_level=level
    )
    return redirect("table", code=table.code)


def table_new(request: HtmxRequest) -> HttpResponse:
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            try:
                table = services.table_create(
                    host=player_or_guest(request),
                    mode=form.cleaned_data["mode"],
                    rules=form.cleaned_data["rules"],
                    bot_level=form.cleaned_data["bot_level"],
                    turn_seconds=form.cleaned_data["turn_clock"],
                )
            except GameError as error:
                form.add_error(None, error.message)
            else:
                return redirect("table", code=table.code)
    else:
        initial = {"mode": request.GET.get("mode", Table.Mode.COMPUTER)}
        if request.htmx:  # a choice changed: offer what the new preset allows
            form = TableForm(initial={**initial, **request.GET.dict()})
            return render(request, "games/_table_form.html", {"form": form})
        preset = request.GET.get("preset")
        if preset in PRESETS:
            initial["preset"] = preset
        form = TableForm(initial=initial)
    return render(request, "games/table_new.html", {"form": form})


def table_page(request: HttpRequest, code: str) -> HttpResponse:
    found = table_version_by_code(code)
    if found is None:
        raise Http404
    # As new as the row just read: a state remembered at that version needs no query.
    # The socket's first frame brings the page up to date (a visitor only watches).
    table_id, version = found
    tv = table_view(table=table_id, user=viewer(request), at_least=version)
    share_url = request.build_absolute_uri(reverse("table", args=[tv.table.code]))
    context = {"tv": tv, "share_url": share_url, "user": request.user}
    regions, screen = frames.page_screen(context, request)
    return render(
        request,
        "games/table.html",
        {"tv": tv, "regions": mark_safe(regions), "shown": screen.token()},
    )


def _go_to_table(request: HtmxRequest, table: Table) -> HttpResponse:
    """To the table's page, whether htmx or a plain form asked."""
    url = reverse("table", args=[table.code])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_POST
def table_sit(request: HtmxRequest, code: str) -> HttpResponse:
    """A plain form's way to a seat, for a visitor with no player yet (who then
    becomes a guest); players already known sit over the websocket."""
    table = get_object_or_404(Table, code=code)
    seat_number = _int_or_none(request.POST.get("seat"))
    version = _int_or_none(request.POST.get("version"))
    if version is None or (seat_number is None and request.POST.get("seat")):
        messages.error(request, _("That request could not be read."))
        return _go_to_table(request, table)
    if viewer(request) is None and not table.seats.filter(user=None, bot_level="").exists():
        messages.info(request, _("The table is full: you are watching."))
        return _go_to_table(request, table)
    try:
        seat = services.table_join(
            table_id=table.pk,
            user=player_or_guest(request),
            version=version,
            seat_number=seat_number,
        )
    except GameError as error:
        messages.error(request, error.message)
    else:
        if seat is None:
            messages.info(request, _("The table is full: you are watching."))
    return _go_to_table(request, table)


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None and value != "" else None
    except ValueError:
        return None


@require_POST
def table_rematch(request: HtmxRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    user = viewer(request)
    if user is None:  # only a player at the table may ask, and a visitor is none
        return _go_to_table(request, table)
    try:
        rematch = services.table_rematch(table_id=table.pk, by=user)
    except GameError as error:
        messages.error(request, error.message)
        rematch = table
    return _go_to_table(request, rematch)


@require_POST
def game_leave(request: HtmxRequest, code: str) -> HttpResponse:
    """A seated friend leaves a running game (the computer plays the seat): home, with a
    message; refused (not seated, not a game with friends, over): back to the table."""
    table = get_object_or_404(Table, code=code)
    user = viewer(request)
    try:
        if user is None:
            raise GameError(_("You are watching this table, not playing."))
        services.game_leave(table_id=table.pk, user=user)
    except GameError as error:
        messages.error(request, error.message)
        return _go_to_table(request, table)
    messages.info(request, _("You left the table: the computer plays your seat."))
    home = reverse("home")
    return HttpResponseClientRedirect(home) if request.htmx else redirect(home)


def invitations(request: HttpRequest) -> HttpResponse:
    user = viewer(request)
    return render(
        request,
        "games/invitations.html",
        {"invitations": invitations_for(user=user) if user else []},
    )


@require_POST
@login_required  # an invitation is to a named player: a visitor has none
def invitation_accept(request: HtmxRequest, pk: int) -> HttpResponse:
    user = signed_in(request)
    invitation = get_object_or_404(Invitation, pk=pk, to_user=user)
    try:
        seat = services.invitation_accept(invitation_id=invitation.pk, user=user)
    except GameError as error:
        messages.error(request, error.message)
        return redirect("invitations")
    if seat is None:
        messages.info(request, _("The table is full: you are watching."))
    return _go_to_table(request, invitation.table)


@require_POST
@login_required
def invitation_decline(request: HttpRequest, pk: int) -> HttpResponse:
    user = signed_in(request)
    get_object_or_404(Invitation, pk=pk, to_user=user)  # as accepting: 404 if not yours
    try:
        services.invitation_decline(invitation_id=pk, user=user)
    except GameError as error:
        messages.error(request, error.message)
    return HttpResponseRedirect(reverse("invitations"))


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"presets": PRESET_INFO.values()})


def rules_page(request: HttpRequest, preset: str) -> HttpResponse:
    if preset not in PRESET_INFO:
        raise Http404
    language = (get_language() or "it")[:2]
    try:
        page = select_template(
            [f"games/rules/{language}/{preset}.html", f"games/rules/it/{preset}.html"]
        )
    except TemplateDoesNotExist:
        raise Http404 from None
    return HttpResponse(
        page.render(
            {
                "info": PRESET_INFO[preset],
                "rules": PRESETS[preset],
                "presets": PRESET_INFO.values(),
            },
            request,
        )
    )
