from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from games.selectors import player_record

from .forms import ClaimForm, SignupForm
from .levels import level_for
from .models import User
from .services import guest_claim


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.username})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def claim(request: HttpRequest) -> HttpResponse:
    user = request.user
    if not user.is_guest:
        return redirect("accounts:profile", username=user.username)
    form = ClaimForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        claimed = guest_claim(
            user=user,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
        )
        update_session_auth_hash(request, claimed)
        messages.success(
            request, _("Your account is yours: welcome, %(name)s!") % {"name": claimed.username}
        )
        return redirect("accounts:profile", username=claimed.username)
    return render(request, "accounts/claim.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username__iexact=username)
    record = player_record(user=player)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "record": record,
            "played": sum(r.played for r in record),
            "won": sum(r.won for r in record),
            "level": level_for(player.xp),
        },
    )


def my_profile(request: HttpRequest) -> HttpResponse:
    return profile(request, request.user.username)
