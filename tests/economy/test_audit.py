"""``manage.py audit_ledger``: problems, then a one-line summary; non-zero on failure."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from accounts.models import User
from economy.models import Account
from economy.services import daily_bonus, wallet_of

pytestmark = pytest.mark.django_db


def run() -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("audit_ledger", stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_a_clean_ledger_passes_with_a_one_line_summary(anna: User, bruno: User) -> None:
    daily_bonus(user=anna)
    code, out, err = run()
    assert code == 0 and err == ""
    assert out.strip().splitlines()[-1] == "audit_ledger: 3 transfers, 4 accounts, 0 problems"


def _corrupt(sql: str, *params: int) -> None:
    """What only a bug or a hand in the database could do (the ORM refuses)."""
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        if postgres:  # run the pending checks now, then write past the triggers
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        if postgres:
            cursor.execute("SET LOCAL session_replication_role = origin")


def test_a_cached_balance_that_differs_from_the_ledger_fails(anna: User) -> None:
    account = wallet_of(user=anna)
    Account.objects.filter(pk=account.pk).update(balance=account.balance + 5)
    code, out, err = run()
    assert code == 2
    assert f"wallet of user {anna.pk}: cached balance 1005, ledger 1000" in err
    assert out.strip().splitlines()[-1].endswith("1 problems")


def test_a_transfer_that_does_not_balance_fails(anna: User) -> None:
    account = wallet_of(user=anna)
    _corrupt("UPDATE economy_entry SET amount = 999 WHERE account_id = %s", account.pk)
    Account.objects.filter(pk=account.pk).update(balance=999)
    code, _out, err = run()
    assert code == 2
    assert f"transfer signup:{anna.pk}: 2 legs summing to -1" in err
    assert "all entries sum to -1, not 0" in err


def test_an_xp_cache_without_awards_fails(anna: User) -> None:
    User.objects.filter(pk=anna.pk).update(xp=10)
    code, _out, err = run()
    assert code == 2 and f"user {anna.pk}: xp 10, awards 0" in err
