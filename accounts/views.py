from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import backends, constants
from .forms import ClaimForm, EmailForm, SignupForm
from .guests import signed_in
from .levels import level_for
from .limits import attempt_limited, too_many
from .mail import email_confirm, email_confirm_send, email_pending, email_remove
from .models import User
from .names import say
from .services import account_signup, guest_claim
from .usernames import username_key

TOO_MANY_REQUESTS = 429


def _refused(
    request: HttpRequest, template: str, form: BaseForm, wait: int, **context: Any
) -> HttpResponse:
    """The form again, saying how long to wait: a rate limit answers 429, never 500."""
    form.add_error(None, too_many(wait))
    response = render(request, template, {"form": form, **context}, status=TOO_MANY_REQUESTS)
    response["Retry-After"] = str(wait)
    return response


def signup(request: HttpRequest) -> HttpResponse:
    # An empty post is still a post: the form is bound, so a refusal can be added to it.
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method != "POST":
        return render(request, "accounts/signup.html", {"form": form})
    wait = attempt_limited(
        request,
        group="signup",
        per_ip=constants.SIGNUP_RATE_PER_IP,
        per_username=constants.SIGNUP_RATE_PER_USERNAME,
    )
    if wait:
        return _refused(request, "accounts/signup.html", form, wait)
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
            if form.cleaned_data.get("email"):
                _confirmation_sent(request, user, form.cleaned_data["email"])
            return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's login, counted per address and per username."""

    template_name = "accounts/login.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = attempt_limited(
            request,
            group="login",
            per_ip=constants.LOGIN_RATE_PER_IP,
            per_username=constants.LOGIN_RATE_PER_USERNAME,
        )
        if wait:
            form = self.get_form()
            form.add_error(None, too_many(wait))
            response = self.render_to_response(
                self.get_context_data(form=form), status=TOO_MANY_REQUESTS
            )
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)


@login_required
def claim(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    if not user.is_guest:
        return redirect("accounts:profile", username=user.username)
    form = ClaimForm(request.POST if request.method == "POST" else None, user=user)
    if request.method != "POST":
        return render(request, "accounts/claim.html", {"form": form, "next": _next_page(request)})
    wait = attempt_limited(
        request,
        group="claim",
        per_ip=constants.CLAIM_RATE_PER_IP,
        per_username=constants.CLAIM_RATE_PER_USERNAME,
    )
    if wait:
        return _refused(request, "accounts/claim.html", form, wait, next=_next_page(request))
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
    if player.deleted_at is not None:  # its name stays in others' games: say where it went
        return render(request, "accounts/deleted.html", {"player": player})
    return render(
        request, "accounts/profile.html", {"player": player, "level": level_for(player.xp)}
    )


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    return profile(request, request.user.username)


# ---- the player's account: e-mail, password, and (privacy) export and deletion ----


def _account_page(
    request: HttpRequest,
    *,
    email_form: EmailForm | None = None,
    password_form: PasswordChangeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user = signed_in(request)
    password_form = password_form or PasswordChangeForm(user)
    # Django's form focuses the old password: on a phone, a keyboard over the whole page.
    password_form.fields["old_password"].widget.attrs.pop("autofocus", None)
    context = {"email_form": email_form or EmailForm(), "password_form": password_form}
    return render(request, "accounts/account.html", context, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """Your account: the e-mail address, the password, your data (export, delete)."""
    if signed_in(request).is_guest:
        return redirect("accounts:claim")
    return _account_page(request)


def _confirmation_sent(request: HttpRequest, user: User, email: str) -> None:
    email_confirm_send(request=request, user=user, email=email)
    messages.info(
        request,
        _("We sent a link to %(email)s: open it to confirm the address.") % {"email": email},
    )


@require_POST
@login_required
def email_change(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    if user.is_guest:
        return redirect("accounts:claim")
    form = EmailForm(request.POST)
    if not form.is_valid():
        return _account_page(request, email_form=form, status=400)
    _confirmation_sent(request, user, form.cleaned_data["email"])
    return redirect("accounts:account")


@require_POST
@login_required
def email_delete(request: HttpRequest) -> HttpResponse:
    email_remove(user=signed_in(request))
    messages.success(request, _("Your e-mail address has been removed."))
    return redirect("accounts:account")


def email_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """The link's page: a button that confirms (a link scanner's visit changes nothing)."""
    try:
        user, email = email_pending(token=token)
    except ValidationError as error:
        return render(request, "accounts/email_confirm.html", {"error": error.messages[0]})
    if request.method != "POST":
        return render(request, "accounts/email_confirm.html", {"player": user, "email": email})
    try:
        email_confirm(token=token)
    except ValidationError as error:
        return render(request, "accounts/email_confirm.html", {"error": error.messages[0]})
    messages.success(request, _("Your e-mail address is confirmed: %(email)s.") % {"email": email})
    return redirect("accounts:account" if request.user == user else "home")


@require_POST
@login_required
def password_change(request: HttpRequest) -> HttpResponse:
    """A new password: this session stays, every other one of the account ends."""
    user = signed_in(request)
    if user.is_guest:
        return redirect("accounts:claim")
    form = PasswordChangeForm(user, request.POST)
    if not form.is_valid():
        return _account_page(request, password_form=form, status=400)
    form.save()
    update_session_auth_hash(request, form.user)
    messages.success(
        request, _("Your password has been changed. Other devices have been logged out.")
    )
    return redirect("accounts:account")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset by e-mail, counted per address and per e-mail: the same answer
    whether or not an account has that address."""

    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/mail/password_reset_body.txt"
    subject_template_name = "accounts/mail/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    @property
    def extra_email_context(self) -> dict[str, int]:  # type: ignore[override]
        return {"hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)}

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = attempt_limited(
            request,
            group="reset",
            per_ip=constants.RESET_RATE_PER_IP,
            per_username=constants.RESET_RATE_PER_EMAIL,
            field="email",
        )
        if wait:
            return _refused(request, self.template_name, self.get_form(), wait)
        return super().post(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")
