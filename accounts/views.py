from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from . import backends, constants
from .forms import ClaimForm, SignupForm
from .guests import signed_in
from .levels import level_for
from .limits import TOO_MANY, attempt_limited
from .models import User
from .names import say
from .services import account_signup, guest_claim
from .usernames import username_key

TOO_MANY_REQUESTS = 429


def _refused(request: HttpRequest, template: str, form: BaseForm) -> HttpResponse:
    """The form again, saying to wait: a rate limit answers 429, never 500."""
    form.add_error(None, str(TOO_MANY))
    return render(request, template, {"form": form}, status=TOO_MANY_REQUESTS)


def signup(request: HttpRequest) -> HttpResponse:
    # An empty post is still a post: the form is bound, so a refusal can be added to it.
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method != "POST":
        return render(request, "accounts/signup.html", {"form": form})
    if attempt_limited(
        request,
        group="signup",
        per_ip=constants.SIGNUP_RATE_PER_IP,
        per_username=constants.SIGNUP_RATE_PER_USERNAME,
    ):
        return _refused(request, "accounts/signup.html", form)
    if form.is_valid():
        try:
            user = account_signup(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except ValidationError as error:
            form.add_error("username", error)
        else:
            login(request, user, backend=backends.PATH)
            messages.success(request, say(_("Welcome, %(name)s!"), name=user.username))
            return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's login, counted per address and per username."""

    template_name = "accounts/login.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if attempt_limited(
            request,
            group="login",
            per_ip=constants.LOGIN_RATE_PER_IP,
            per_username=constants.LOGIN_RATE_PER_USERNAME,
        ):
            form = self.get_form()
            form.add_error(None, str(TOO_MANY))
            return self.render_to_response(
                self.get_context_data(form=form), status=TOO_MANY_REQUESTS
            )
        return super().post(request, *args, **kwargs)


@login_required
def claim(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    if not user.is_guest:
        return redirect("accounts:profile", username=user.username)
    form = ClaimForm(request.POST if request.method == "POST" else None, user=user)
    if request.method != "POST":
        return render(request, "accounts/claim.html", {"form": form, "next": _next_page(request)})
    if attempt_limited(
        request,
        group="claim",
        per_ip=constants.CLAIM_RATE_PER_IP,
        per_username=constants.CLAIM_RATE_PER_USERNAME,
    ):
        return _refused(request, "accounts/claim.html", form)
    if form.is_valid():
        try:
            claimed = guest_claim(
                user=user,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as error:
            form.add_error("username", error)
        else:
            update_session_auth_hash(request, claimed)
            messages.success(
                request,
                say(_("Your account is yours: welcome, %(name)s!"), name=claimed.username),
            )
            return redirect(
                _next_page(request) or reverse("accounts:profile", args=[claimed.username])
            )
    return render(request, "accounts/claim.html", {"form": form, "next": _next_page(request)})


def _next_page(request: HttpRequest) -> str | None:
    """Where the player was going (the online lobby, say), if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else None


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username_key=username_key(username))
    return render(
        request, "accounts/profile.html", {"player": player, "level": level_for(player.xp)}
    )


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    return profile(request, request.user.username)
