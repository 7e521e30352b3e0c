from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import User
from .services import username_check
from .usernames import username_clean


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only to reset a forgotten password. We send a link to confirm it."),
    )

    class Meta:
        model = User
        fields = ("username",)

    def clean_username(self) -> str:
        return username_check(self.cleaned_data["username"])

    def save(self, commit: bool = True) -> User:
        raise NotImplementedError("accounts.services.account_signup creates the account")


class ClaimForm(forms.Form):
    """A guest picks a username and password and keeps everything played so far."""

    username = forms.CharField(label=_("Username"), max_length=150)
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password2 = forms.CharField(label=_("Password again"), widget=forms.PasswordInput, strip=False)

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self) -> str:
        username = username_clean(self.cleaned_data["username"])
        User.username_validator(username)
        return username_check(username, exclude=self.user)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            raise ValidationError(_("The two passwords differ."))
        if first:
            probe = User(username=data.get("username", ""))
            validate_password(first, probe)
        return data


class EmailForm(forms.Form):
    """The address a player adds or changes: kept once they open the link sent to it."""

    email = forms.EmailField(label=_("E-mail"), max_length=254)
