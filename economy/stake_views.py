"""Pages of the stake tables: the card room's list, sitting down and standing up.

They show coins (the player's balance, the stakes), so they live with the coins;
the tables' lifecycle they call is ``games.services.stakes``."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.guests import viewer
from economy import numbers
from economy.selectors import balance_of
from games.models import Table
from games.services import AlreadySeated, open_stake_tables, stake_table_leave, stake_table_sit
from games.view.errors import GameError
from matchmaking.forms import PoolForm


class StakeForm(PoolForm):
    """The table's settings, and the stake each player pays as they sit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # keeps the table's settings only, then:
        self.fields["stake"] = forms.TypedChoiceField(
            label=_("Stake"), coerce=int, choices=[(s, str(s)) for s in numbers.STAKES]
        )
        # The form's own token: sent twice (a double click, a retry), it sits once.
        self.fields["token"] = forms.UUIDField(
            widget=forms.HiddenInput, initial=uuid.uuid4, required=False
        )


def _context(request: HttpRequest, form: StakeForm) -> dict[str, Any]:
    user = viewer(request)
    return {
        "form": form,
        "tables": open_stake_tables(),
        "balance": balance_of(user=user) if user is not None and not user.is_guest else None,
        "can_stake": user is not None and not user.is_guest,
        "fill_minutes": max(1, settings.STAKE_FILL_SECONDS // 60),
        "stakes": numbers.STAKES,
    }


def stakes(request: HttpRequest) -> HttpResponse:
    if getattr(request, "htmx", False) and request.GET.get("preset"):  # what the preset allows
        return render(
            request, "economy/_stake_form.html", {"form": StakeForm(initial=request.GET.dict())}
        )
    return render(request, "economy/stakes.html", _context(request, StakeForm()))


def _go(request: HttpRequest, name: str, *args: str) -> HttpResponse:
    """To the page, whether a plain form or htmx asked (the table's forms, which a frame
    may redraw, post through htmx: HX-Redirect, the whole page goes, not a fragment)."""
    url = reverse(name, args=args)
    return HttpResponseClientRedirect(url) if getattr(request, "htmx", False) else redirect(url)


@require_POST
def stake_sit(request: HttpRequest) -> HttpResponse:
    """The stake tables' form, and the table's "another table at this stake" button."""
    user = viewer(request)
    form = StakeForm(request.POST)
    if user is None or user.is_guest:
        messages.info(request, _("Stake tables need your own account: save it in one step."))
        return _go(request, "accounts:claim")
    if not form.is_valid():
        if getattr(request, "htmx", False):  # a button's settings: the form says what is wrong
            messages.error(request, _("Choose the table's settings again."))
            return _go(request, "economy:stakes")
        return render(request, "economy/stakes.html", _context(request, form), status=400)
    try:
        table = stake_table_sit(
            user=user,
            rules=form.cleaned_data["rules"],
            stake=form.cleaned_data["stake"],
            token=form.cleaned_data["token"],
        )
    except AlreadySeated as error:
        messages.info(request, error.message)
        return _go(request, "table", error.table.code)
    except GameError as error:
        messages.error(request, error.message)
        return _go(request, "economy:stakes")
    return _go(request, "table", table.code)


@require_POST
def stake_leave(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code, stake__gt=0)
    user = viewer(request)
    try:
        if user is None:
            raise GameError(str(_("You are not sitting at this table.")))
        version = int(request.POST.get("version", ""))
        stake_table_leave(table_id=table.pk, user=user, version=version)
    except ValueError:
        messages.error(request, _("Reload the page and try again."))
        return _go(request, "table", table.code)
    except GameError as error:
        messages.error(request, error.message)
        return _go(request, "table", table.code)
    messages.success(request, _("You left the table: your stake is back in your wallet."))
    return _go(request, "economy:stakes")
