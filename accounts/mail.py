"""A player's e-mail address: optional, kept only once confirmed.

Adding or changing it sends a signed link to the new address (``django.core.signing``:
the account, the new address and the one it replaces); opening it and pressing the
button keeps the address.  ``User.email`` therefore only ever holds a confirmed
address, the one a password reset is sent to.  A link works for
``EMAIL_CONFIRM_AGE`` and once: it names the address it replaces, so after use (or
any later change) it no longer matches.
"""

from __future__ import annotations

from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from .constants import EMAIL_CONFIRM_AGE
from .models import User

SALT = "accounts.email-confirm"


def email_confirm_send(*, request: HttpRequest, user: User, email: str) -> None:
    """Send ``email`` the link that makes it the player's address."""
    email = User.objects.normalize_email(email)
    token = signing.dumps({"u": user.pk, "e": email, "was": user.email}, salt=SALT)
    context = {
        "user": user,
        "link": request.build_absolute_uri(reverse("accounts:email_confirm", args=[token])),
        "days": EMAIL_CONFIRM_AGE.days,
    }
    subject = render_to_string("accounts/mail/email_confirm_subject.txt", context).strip()
    body = render_to_string("accounts/mail/email_confirm_body.txt", context)
    send_mail(subject, body, None, [email])


def _unsigned(token: str) -> tuple[int, str, str]:
    try:
        data = signing.loads(token, salt=SALT, max_age=EMAIL_CONFIRM_AGE)
        return int(data["u"]), str(data["e"]), str(data["was"])
    except signing.SignatureExpired:
        raise ValidationError(_("This link has expired: add the address again.")) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise ValidationError(_("This link is not valid.")) from None


def email_pending(*, token: str) -> tuple[User, str]:
    """The account and address a link would confirm; ValidationError if it would not."""
    pk, email, was = _unsigned(token)
    user = User.objects.filter(pk=pk, is_active=True).first()
    if user is None or user.email != was:
        raise ValidationError(_("This link has already been used, or is no longer valid."))
    return user, email


@transaction.atomic
def email_confirm(*, token: str) -> User:
    """Keep the address the link names (once)."""
    pk, email, was = _unsigned(token)
    user = User.objects.select_for_update().filter(pk=pk, is_active=True).first()
    if user is None or user.email != was:
        raise ValidationError(_("This link has already been used, or is no longer valid."))
    user.email = email
    user.save(update_fields=["email"])
    return user


@transaction.atomic
def email_remove(*, user: User) -> None:
    """The player no longer wants an address on file (no password reset by e-mail)."""
    User.objects.filter(pk=user.pk).update(email="")
    user.email = ""
