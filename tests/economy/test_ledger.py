"""The ledger: one posting function, double entry, idempotent keys, constraints."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import translation

from accounts.models import User
from economy.audit import audit_ledger
from economy.errors import InsufficientCoins, TransferConflict
from economy.models import Account, AppendOnlyError, Entry, Reason, Transfer
from economy.selectors import balance_of
from economy.services import house, post_transfer, wallet_of
from tests.fixtures import race

from .conftest import balance

pytestmark = pytest.mark.django_db

GIFT = Account.Source.ADJUSTMENTS


def give(user: User, coins: int, key: str) -> Transfer:
    return post_transfer(
        key=key,
        reason=Reason.ADJUSTMENT,
        legs=[(house(GIFT), -coins), (wallet_of(user=user), coins)],
    )


def test_a_transfer_that_does_not_balance_is_refused_and_changes_nothing(anna: User) -> None:
    before = balance(anna), Transfer.objects.count()
    with pytest.raises(ValueError, match="do not balance: they sum to 10"):
        post_transfer(
            key="x",
            reason=Reason.ADJUSTMENT,
            legs=[(house(GIFT), -90), (wallet_of(user=anna), 100)],
        )
    assert (balance(anna), Transfer.objects.count()) == before


@pytest.mark.parametrize(
    "amounts, message",
    [
        ((0, 0), "a leg of zero coins"),
        ((5,), "at least two legs"),
        ((2.5, -2.5), "whole numbers"),
        ((True, -1), "whole numbers"),
    ],
)
def test_zero_single_and_fractional_legs_are_refused(
    anna: User, bruno: User, amounts: tuple[int, ...], message: str
) -> None:
    accounts = [wallet_of(user=anna), wallet_of(user=bruno)]
    with pytest.raises(ValueError, match=message):
        legs = list(zip(accounts, amounts, strict=False))
        post_transfer(key="x", reason=Reason.ADJUSTMENT, legs=legs)
    assert not Transfer.objects.filter(key="x").exists()


def test_an_account_twice_in_one_transfer_is_refused(anna: User) -> None:
    w = wallet_of(user=anna)
    with pytest.raises(ValueError, match="twice"):
        post_transfer(key="x", reason=Reason.ADJUSTMENT, legs=[(w, 5), (w, -5)])


def test_entries_move_the_cached_balances_in_the_same_transaction(anna: User) -> None:
    start = balance(anna)
    account = wallet_of(user=anna)
    give(anna, 70, "gift:1")
    assert balance(anna) == start + 70
    assert account.balance == start  # a stale object is not trusted…
    transfer = give(anna, 5, "gift:2")
    assert sorted(transfer.entries.values_list("amount", flat=True)) == [-5, 5]


def test_the_caller_s_account_objects_show_the_new_balance(anna: User) -> None:
    account = wallet_of(user=anna)
    start = account.balance
    post_transfer(key="g", reason=Reason.ADJUSTMENT, legs=[(house(GIFT), -3), (account, 3)])
    assert account.balance == start + 3


def test_the_same_key_pays_once(anna: User) -> None:
    start = balance(anna)
    first = give(anna, 50, "gift:once")
    again = give(anna, 50, "gift:once")
    assert again.pk == first.pk
    assert balance(anna) == start + 50
    assert Transfer.objects.filter(key="gift:once").count() == 1


def test_a_key_reused_for_other_coins_is_an_error(anna: User) -> None:
    give(anna, 50, "gift:k")
    with pytest.raises(TransferConflict):
        give(anna, 60, "gift:k")


def test_a_wallet_short_of_coins_raises_insufficient_coins_and_nothing_changes(
    anna: User, bruno: User
) -> None:
    have = balance(anna)
    with pytest.raises(InsufficientCoins) as caught:
        post_transfer(
            key="pay",
            reason=Reason.ADJUSTMENT,
            legs=[(wallet_of(user=anna), -(have + 1)), (wallet_of(user=bruno), have + 1)],
        )
    assert caught.value.needed == have + 1 and caught.value.balance == have
    assert balance(anna) == have and not Transfer.objects.filter(key="pay").exists()


def test_insufficient_coins_speaks_italian_by_default(anna: User) -> None:
    with translation.override("it"):
        error = InsufficientCoins(needed=100, balance=40)
    assert error.message.startswith("Non hai abbastanza monete")
    assert "100" in error.message and "40" in error.message


def test_house_accounts_may_go_negative_they_are_the_issuance(anna: User) -> None:
    give(anna, 10, "gift:h")
    assert not house(GIFT).keeps_balance
    assert Entry.objects.filter(account=house(GIFT)).get().amount == -10


def test_a_booster_multiplies_only_rewards_from_the_house(anna: User, bruno: User) -> None:
    legs = [(house(Account.Source.REWARDS), -10), (wallet_of(user=anna), 10)]
    with pytest.raises(ValueError, match="booster multiplies rewards"):
        post_transfer(key="b", reason=Reason.SHOP, legs=legs, boosted=True)
    with pytest.raises(ValueError, match="booster multiplies rewards"):
        post_transfer(key="b", reason=Reason.POT, legs=legs, boosted=True)
    from_a_player = [(wallet_of(user=bruno), -10), (wallet_of(user=anna), 10)]
    with pytest.raises(ValueError, match="paid by the house's rewards account"):
        post_transfer(key="b", reason=Reason.REWARD, legs=from_a_player, boosted=True)
    assert post_transfer(key="b", reason=Reason.REWARD, legs=legs, boosted=True).boosted


def test_the_database_refuses_a_negative_wallet(anna: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=wallet_of(user=anna).pk).update(balance=-1)


def test_the_database_refuses_a_zero_entry(anna: User) -> None:
    transfer = give(anna, 1, "gift:z")
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.bulk_create([Entry(transfer=transfer, account=house(GIFT), amount=0)])


def test_the_database_refuses_a_second_transfer_with_the_same_key(anna: User) -> None:
    give(anna, 1, "k")
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(key="k", reason=Reason.ADJUSTMENT)


def test_the_database_refuses_a_boosted_transfer_that_is_not_a_reward() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(key="k", reason=Reason.SHOP, boosted=True)


def test_entries_transfers_and_accounts_are_never_edited_or_deleted(anna: User) -> None:
    transfer = give(anna, 1, "gift:a")
    entry = transfer.entries.first()
    assert entry is not None
    transfer.memo = "changed"
    for attempt in (
        transfer.save,
        transfer.delete,
        entry.save,
        entry.delete,
        wallet_of(user=anna).save,
        lambda: Entry.objects.filter(pk=entry.pk).update(amount=2),
        lambda: Transfer.objects.all().delete(),
    ):
        with pytest.raises(AppendOnlyError):
            attempt()


@pytest.mark.postgres
def test_postgres_refuses_to_commit_a_transfer_that_does_not_balance(anna: User) -> None:
    account = wallet_of(user=anna)
    with pytest.raises(IntegrityError, match="2 legs summing to 10"), transaction.atomic():
        transfer = Transfer.objects.create(key="raw", reason=Reason.ADJUSTMENT)
        Entry.objects.bulk_create(
            [
                Entry(transfer=transfer, account=account, amount=5),
                Entry(transfer=transfer, account=house(GIFT), amount=5),
            ]
        )
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.mark.postgres
def test_postgres_refuses_to_commit_a_transfer_without_legs() -> None:
    with pytest.raises(IntegrityError, match="0 legs"), transaction.atomic():
        Transfer.objects.create(key="empty", reason=Reason.ADJUSTMENT)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.mark.postgres
def test_postgres_refuses_to_update_or_delete_an_entry(anna: User) -> None:
    give(anna, 4, "gift:pg")
    for sql in ("UPDATE economy_entry SET amount = amount * 2", "DELETE FROM economy_transfer"):
        with (
            pytest.raises(IntegrityError, match="never updated or deleted"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_threads_paying_the_same_key_pay_once(anna: User) -> None:
    start = balance_of(user=anna)

    def pay(_i: int) -> Transfer:
        return post_transfer(
            key="bonus:once",
            reason=Reason.ADJUSTMENT,
            legs=[(house(Account.Source.ADJUSTMENTS), -70), (wallet_of(user=anna), 70)],
        )

    results = race(4, pay)
    assert len({r.pk for r in results}) == 1, results
    assert balance_of(user=anna) == start + 70
    assert audit_ledger().ok
