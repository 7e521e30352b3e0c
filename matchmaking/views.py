"""Pages: the online lobby, the waiting screen, and the ways in and out of a queue."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from accounts.guests import guest_required, viewer
from games.constants import AWAY_AFTER_TIMEOUTS, ONLINE_TURN_SECONDS
from games.view.errors import GameError

from . import services
from .forms import SETTINGS, PoolForm
from .selectors import pool_counts, queue_state


class HtmxHttpRequest(HttpRequest):
    """A request the htmx middleware has seen (django-htmx's typing recipe)."""

    htmx: HtmxDetails


def _to(request: HttpRequest, url: str) -> HttpResponse:
    """To ``url``, whether htmx or a plain form asked."""
    return HttpResponseClientRedirect(url) if getattr(request, "htmx", False) else redirect(url)


def _claim_url(chosen: dict[str, str] | None = None) -> str:
    """The one step to a username, then back to the lobby (with the settings ``chosen``)."""
    lobby = reverse("matchmaking:lobby")
    if chosen:
        lobby = f"{lobby}?{urlencode(chosen)}"
    return f"{reverse('accounts:claim')}?{urlencode({'next': lobby})}"


def lobby(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx and request.GET.get("preset"):  # a choice changed: what the preset allows
        form = PoolForm(initial=request.GET.dict())
        return render(request, "matchmaking/_pool_form.html", {"form": form})
    # back from choosing a username: the settings chosen before, still chosen
    chosen = PoolForm(initial=request.GET.dict()) if request.GET.get("preset") else None
    return render(request, "matchmaking/lobby.html", _lobby_context(request, chosen))


def _lobby_context(request: HttpRequest, form: PoolForm | None) -> dict[str, object]:
    """``form``: one sent back with its errors; None: the blank form, whose fields are
    the same for everyone in a language and rendered once ({% cache %})."""
    user = viewer(request)
    return {
        "form": form,
        "blank_form": PoolForm,  # the class: the template makes one only when it renders it
        "counts": pool_counts(),
        "state": queue_state(user=user),
        "can_play": services.can_play_online(user),
        "claim_url": _claim_url(),
        "fill_seconds": services.fill_timeout().seconds,
        "turn_seconds": ONLINE_TURN_SECONDS,
        "away_after": AWAY_AFTER_TIMEOUTS,
    }


def counts(request: HttpRequest) -> HttpResponse:
    """The lobby's pool counts, polled."""
    return render(request, "matchmaking/_counts.html", {"counts": pool_counts()})


@require_POST
@guest_required  # a visitor becomes a guest, then claims a username like any guest
def join(request: HttpRequest) -> HttpResponse:
    user = viewer(request)
    if not services.can_play_online(user):
        messages.info(request, _needs_username())
        chosen = {name: request.POST[name] for name in SETTINGS if request.POST.get(name)}
        return _to(request, _claim_url(chosen))
    form = PoolForm(request.POST)
    if not form.is_valid():
        context = _lobby_context(request, form)
        return render(request, "matchmaking/lobby.html", context, status=400)
    assert user is not None
    try:
        ticket = services.queue_join(user=user, rules=form.cleaned_data["rules"])
    except GameError as error:
        messages.error(request, error.message)
        return _to(request, reverse("matchmaking:lobby"))
    if ticket.table is not None:
        return _to(request, reverse("table", args=[ticket.table.code]))
    return _to(request, reverse("matchmaking:queue"))


def _needs_username() -> str:
    return _("Online you play under your own name: choose a username (one step), then play.")


def queue(request: HttpRequest) -> HttpResponse:
    """The waiting screen; once seated, the table; not waiting, the lobby."""
    state = queue_state(user=viewer(request))
    if state.table is not None:
        return redirect("table", code=state.table.code)
    if state.ticket is None:
        return redirect("matchmaking:lobby")
    return render(request, "matchmaking/queue.html", {"state": state})


def seated(request: HttpRequest) -> HttpResponse:
    """Where a waiting screen goes when its queue changed hands: the table, or the lobby."""
    state = queue_state(user=viewer(request))
    if state.table is not None:
        return _to(request, reverse("table", args=[state.table.code]))
    if state.ticket is None:
        return _to(request, reverse("matchmaking:lobby"))
    return _to(request, reverse("matchmaking:queue"))


@require_POST
def leave(request: HttpRequest) -> HttpResponse:
    user = viewer(request)
    if user is not None and services.queue_leave(user=user) is not None:
        messages.info(request, _("You left the queue."))
    return _to(request, reverse("matchmaking:lobby"))
