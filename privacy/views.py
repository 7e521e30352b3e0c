from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from accounts.guests import signed_in

from . import pages
from .deletion import AccountInUse, account_delete, coins_held, running_table
from .export import account_export
from .forms import DeleteForm


def _page(request: HttpRequest, name: str) -> HttpResponse:
    """A page written in each language (``templates/privacy/<language>/<name>.html``)."""
    language = (get_language() or "it")[:2]
    page = select_template([f"privacy/{language}/{name}.html", f"privacy/it/{name}.html"])
    return HttpResponse(page.render(pages.figures(), request))


def privacy(request: HttpRequest) -> HttpResponse:
    """What is kept about players, for how long, and how to export or delete it."""
    return _page(request, "privacy")


def terms(request: HttpRequest) -> HttpResponse:
    """The terms of use: coins and the shop's items are virtual, with no cash value."""
    return _page(request, "terms")


@never_cache
@login_required
def export(request: HttpRequest) -> HttpResponse:
    """Everything kept about the player, as one JSON file to download."""
    user = signed_in(request)
    body = json.dumps(account_export(user=user), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="domino-account-{stamp}.json"'
    return response


@never_cache
@login_required
def delete(request: HttpRequest) -> HttpResponse:
    """Delete the account, with its password: what goes and what stays is said first."""
    user = signed_in(request)
    form = DeleteForm(request.POST if request.method == "POST" else None, user=user)
    refused = running_table(user)
    if request.method == "POST" and refused is None and form.is_valid():
        try:
            account_delete(user=user)
        except AccountInUse as error:
            refused = error
        else:
            logout(request)
            messages.success(request, _("Your account has been deleted. Thank you for playing."))
            return redirect("home")
    context = {"form": form, "refused": refused, "coins": coins_held(user)}
    status = 409 if request.method == "POST" and refused is not None else 200
    return render(request, "privacy/delete.html", context, status=status)
