"""Operators see the ledger read-only; a correction is an adjustment with who and why."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from economy.models import Reason, Transfer
from economy.selectors import balance_of
from economy.services import wallet_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(make_user: Callable[..., User]) -> User:
    user = make_user("operator")
    user.is_staff = True
    user.save()
    for codename in ("view_account", "view_transfer", "view_entry", "adjust_account"):
        user.user_permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label="economy")
        )
    return user


def test_the_ledger_is_read_only_in_the_admin(client: Client, operator: User, anna: User) -> None:
    client.force_login(operator)
    transfer = Transfer.objects.get(key=f"signup:{anna.pk}")
    account = wallet_of(user=anna)
    assert client.get("/admin/economy/transfer/").status_code == 200
    page = client.get(f"/admin/economy/transfer/{transfer.pk}/change/")
    assert page.status_code == 200 and b'name="key"' not in page.content
    assert client.get("/admin/economy/transfer/add/").status_code == 403
    assert client.post(f"/admin/economy/transfer/{transfer.pk}/delete/").status_code == 403
    assert client.get(f"/admin/economy/account/{account.pk}/change/").status_code == 200
    assert client.post(f"/admin/economy/account/{account.pk}/change/", {}).status_code == 403


def test_an_operator_corrects_a_balance_with_a_recorded_reason(
    client: Client, operator: User, anna: User
) -> None:
    client.force_login(operator)
    account = wallet_of(user=anna)
    url = f"/admin/economy/account/{account.pk}/adjust/"
    assert b"Record the adjustment" in client.get(url).content
    token = str(uuid.uuid4())
    form = {"amount": "-200", "reason": "refund of a bug's double reward", "token": token}
    assert client.post(url, form).status_code == 302
    assert client.post(url, form).status_code == 302  # the form sent twice
    assert balance_of(user=anna) == 800
    transfer = Transfer.objects.get(reason=Reason.ADJUSTMENT)
    assert (transfer.created_by, transfer.memo, transfer.key) == (
        operator,
        "refund of a bug's double reward",
        f"adjust:{token}",
    )


def test_an_adjustment_below_zero_is_refused_in_the_form(
    english: Client, operator: User, anna: User
) -> None:
    english.force_login(operator)
    url = f"/admin/economy/account/{wallet_of(user=anna).pk}/adjust/"
    response = english.post(url, {"amount": "-5000", "reason": "x", "token": str(uuid.uuid4())})
    assert response.status_code == 200 and b"enough coins" in response.content
    assert balance_of(user=anna) == 1000


def test_staff_without_the_permission_cannot_adjust(
    client: Client, make_user: Callable[..., User], anna: User
) -> None:
    clerk = make_user("clerk")
    clerk.is_staff = True
    clerk.save()
    clerk.user_permissions.add(
        Permission.objects.get(codename="view_account", content_type__app_label="economy")
    )
    client.force_login(clerk)
    url = f"/admin/economy/account/{wallet_of(user=anna).pk}/adjust/"
    client.post(url, {"amount": "5", "reason": "gift", "token": str(uuid.uuid4())})
    assert balance_of(user=anna) == 1000
