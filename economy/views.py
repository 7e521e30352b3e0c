"""The rewards page: the numbers, the player's coins, the daily bonus and the shop."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.levels import level_for
from accounts.models import User
from games.view.errors import GameError

from . import numbers, selectors, services
from .errors import TransferConflict
from .templatetags import coins


def _player(request: HttpRequest) -> User | None:
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def rewards(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    claimed = user is not None and not user.is_guest
    context: dict[str, object] = {
        "numbers": numbers,
        "reward_rows": selectors.reward_rows(),
        # one order token per product: the form buys once, however often it is sent
        "products": [(p, uuid.uuid4()) for p in selectors.products()],
        "claimed": claimed,
    }
    if user is not None and claimed:
        context |= {
            "balance": selectors.balance_of(user=user),
            "level": level_for(user.xp),
            "boosters": selectors.active_purchases(user=user),
            "lines": selectors.last_transfers(user=user, limit=10),
            "daily_collected": selectors.daily_collected(user=user),
        }
    return render(request, "economy/rewards.html", context)


@require_POST
@login_required
def daily(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    assert user is not None
    try:
        services.daily_bonus(user=user)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("Daily bonus: %(coins)s coins.") % {"coins": numbers.DAILY_BONUS}
        )
    return redirect("economy:rewards")


@require_POST
@login_required
def buy(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    assert user is not None
    item = request.POST.get("item", "")
    try:
        token = uuid.UUID(request.POST.get("token", ""))
    except ValueError:
        token = None
    if item not in services.PRODUCTS or token is None:
        messages.error(request, _("That is not in the shop."))
        return redirect("economy:rewards")
    try:
        purchase = services.shop_buy(user=user, item=item, token=token)
    except GameError as error:
        messages.error(request, error.message)
    except TransferConflict:
        messages.error(request, _("That order was already placed."))
    else:
        messages.success(
            request,
            _("Bought: %(item)s, active until %(end)s.")
            % {"item": purchase.get_item_display(), "end": _when(purchase.ends_at)},
        )
    return redirect("economy:rewards")


def _when(at: datetime) -> str:
    return formats.date_format(timezone.localtime(at), "SHORT_DATETIME_FORMAT")


def header_coins(request: HttpRequest) -> HttpResponse:
    """The header's balance alone: the end of a paid match asks for it again."""
    return render(request, "economy/_header_coins.html", coins.header_coins(request.user))
