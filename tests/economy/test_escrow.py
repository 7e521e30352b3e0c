"""Stake tables' pots (docs/rules.md §7): stakes into escrow, refunds, the pot to the winners."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError, transaction

from accounts.models import User
from economy import numbers
from economy.audit import audit_ledger
from economy.errors import InsufficientCoins
from economy.models import Account, Reason, StakeInPlay, Transfer
from economy.selectors import balance_of
from economy.services import (
    escrow_of,
    pot_pay,
    pot_shares,
    stake_in_play,
    stake_refund,
    stake_sit,
    stakes_refund_all,
)
from economy.services.escrow import CoinEscrow
from games.engine import Round
from games.hooks.escrow import StakedElsewhere, escrow
from games.models import Hand, SeatResult, Table
from games.services.stakes import stake_table_sit
from games.view.errors import GameError
from tests.fixtures import race
from tests.stakes import DUEL, PAIRS, play_to_the_end, pot, rich  # noqa: F401  (rich: a fixture)

from .conftest import balance, drain_to

pytestmark = pytest.mark.django_db


def test_stakes_are_100_250_500_or_1000() -> None:
    assert numbers.STAKES == (100, 250, 500, 1000)


def test_sitting_moves_the_stake_from_the_wallet_into_the_pot(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(status="waiting")
    start = balance_of(user=anna)
    transfer = stake_sit(table=table, seat=0, user=anna, amount=250)
    assert transfer.key == f"stake:{table.pk}:0:0"
    assert balance_of(user=anna) == start - 250
    assert escrow_of(table=table).balance == 250
    again = stake_sit(table=table, seat=0, user=anna, amount=250)  # a retried request
    assert again.pk == transfer.pk and balance_of(user=anna) == start - 250


def test_a_stake_that_is_not_on_the_list_is_refused(
    make_table: Callable[..., Table], anna: User
) -> None:
    with pytest.raises(ValueError, match="stakes are"):
        stake_sit(table=make_table(), seat=0, user=anna, amount=300)


def test_a_short_balance_cannot_sit_and_nothing_changes(
    make_table: Callable[..., Table], anna: User
) -> None:
    drain_to(anna, 99)
    table = make_table(status="waiting")
    with pytest.raises(InsufficientCoins):
        stake_sit(table=table, seat=0, user=anna, amount=100)
    assert escrow_of(table=table).balance == 0 and balance_of(user=anna) == 99
    assert stake_in_play(user=anna) is None


def test_a_player_stakes_at_one_table_at_a_time_until_the_stake_comes_back(
    make_table: Callable[..., Table], anna: User
) -> None:
    first, second = make_table(status="waiting"), make_table(status="waiting")
    stake_sit(table=first, seat=0, user=anna, amount=100)
    with pytest.raises(StakedElsewhere) as refused:
        stake_sit(table=second, seat=0, user=anna, amount=100)
    assert refused.value.table_id == first.pk == stake_in_play(user=anna)
    assert escrow_of(table=second).balance == 0 and balance_of(user=anna) == 900
    stake_refund(table=first, seat=0)  # stood up: free to sit elsewhere
    assert stake_in_play(user=anna) is None
    stake_sit(table=second, seat=0, user=anna, amount=100)
    assert stake_in_play(user=anna) == second.pk and audit_ledger().ok


def test_the_database_refuses_a_second_stake_in_play_for_one_player(
    make_table: Callable[..., Table], anna: User
) -> None:
    first, second = make_table(status="waiting"), make_table(status="waiting")
    StakeInPlay.objects.create(user=anna, table=first, seat=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        StakeInPlay.objects.create(user=anna, table=second, seat=1)


def test_the_audit_flags_a_pot_whose_stakes_in_play_disagree(
    make_table: Callable[..., Table], anna: User, bruno: User
) -> None:
    table = make_table(status="waiting")
    stake_sit(table=table, seat=0, user=anna, amount=100)
    stake_sit(table=table, seat=1, user=bruno, amount=100)
    assert audit_ledger().ok
    StakeInPlay.objects.filter(user=bruno).delete()  # as if bruno could stake elsewhere
    assert audit_ledger().problems == [f"table {table.pk}: 2 stakes in its pot, 1 in play"]


def test_guests_cannot_stake(
    make_table: Callable[..., Table], make_user: Callable[..., User]
) -> None:
    guest = make_user("guest-q", guest=True)
    with pytest.raises(GameError):
        stake_sit(table=make_table(), seat=0, user=guest, amount=100)


def test_leaving_before_the_start_refunds_the_stake_once(
    make_table: Callable[..., Table], anna: User, bruno: User
) -> None:
    table = make_table(status="waiting")
    start = balance_of(user=anna)
    stake_sit(table=table, seat=0, user=anna, amount=500)
    refund = stake_refund(table=table, seat=0)
    assert refund is not None and refund.key == f"refund:{table.pk}:0:0"
    assert stake_refund(table=table, seat=0) is None
    assert balance_of(user=anna) == start and escrow_of(table=table).balance == 0
    # the seat is free again: the next sitting has its own keys
    second = stake_sit(table=table, seat=0, user=bruno, amount=500)
    assert second.key == f"stake:{table.pk}:0:1"
    assert escrow_of(table=table).balance == 500


def test_a_table_that_does_not_fill_is_cancelled_and_every_stake_refunded(
    make_table: Callable[..., Table], anna: User, bruno: User
) -> None:
    table = make_table(players=3, status="waiting")
    before = balance_of(user=anna), balance_of(user=bruno)
    stake_sit(table=table, seat=0, user=anna, amount=100)
    stake_sit(table=table, seat=2, user=bruno, amount=100)
    assert len(stakes_refund_all(table=table)) == 2
    assert stakes_refund_all(table=table) == []
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CANCELLED)
    assert (balance_of(user=anna), balance_of(user=bruno)) == before
    assert audit_ledger().ok


def test_the_whole_pot_goes_to_the_winner_with_no_commission(
    make_table: Callable[..., Table], anna: User, bruno: User
) -> None:
    table = make_table()
    start = balance_of(user=anna), balance_of(user=bruno)
    stake_sit(table=table, seat=0, user=anna, amount=1000)
    stake_sit(table=table, seat=1, user=bruno, amount=1000)
    pot = pot_pay(table=table, winners=[(1, bruno)])
    assert pot is not None and pot.reason == Reason.POT and pot.key == f"pot:{table.pk}"
    assert pot_pay(table=table, winners=[(1, bruno)]) == pot  # paid once
    assert (balance_of(user=anna), balance_of(user=bruno)) == (start[0] - 1000, start[1] + 1000)
    assert escrow_of(table=table).balance == 0


def test_partners_split_the_pot_an_odd_coin_going_to_the_lower_seat() -> None:
    assert pot_shares(1000, [0, 2]) == {0: 500, 2: 500}
    assert pot_shares(1001, [3, 1]) == {1: 501, 3: 500}
    assert pot_shares(250, [2]) == {2: 250}


def test_a_tied_hand_returns_the_stakes(
    make_table: Callable[..., Table], anna: User, bruno: User
) -> None:
    table = make_table()
    start = balance_of(user=anna), balance_of(user=bruno)
    stake_sit(table=table, seat=0, user=anna, amount=250)
    stake_sit(table=table, seat=1, user=bruno, amount=250)
    stakes_refund_all(table=table)
    assert (balance_of(user=anna), balance_of(user=bruno)) == start


def test_the_audit_flags_a_finished_table_whose_pot_is_not_empty(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table()
    stake_sit(table=table, seat=0, user=anna, amount=100)
    assert audit_ledger().ok
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    problems = audit_ledger().problems
    assert problems == [
        f"pot of table {table.pk}: table is over but its pot holds 100",
        f"user {anna.pk}: stake in play at table {table.pk}, over",
    ]
    assert Account.objects.filter(kind=Account.Kind.ESCROW).count() == 1
    assert Transfer.objects.filter(reason=Reason.STAKE).count() == 1


# --- Through the stake tables (games.services.stakes), which pay through CoinEscrow. ---


def test_the_stake_tables_pay_through_the_coins_escrow() -> None:
    assert isinstance(escrow(), CoinEscrow)  # registered as the app started
    assert escrow().stakes() == numbers.STAKES


def test_the_whole_pot_goes_to_the_winner_in_the_transaction_that_ends_the_match(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna, bruno = rich("anna_w"), rich("bruno_w")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    play_to_the_end(table)
    results = {r.user: r.rank for r in SeatResult.objects.filter(table=table)}
    if results[anna] == results[bruno]:
        assert balance(anna) == balance(bruno) == 1000  # a drawn hand: stakes back
    else:
        winner = anna if results[anna] == 1 else bruno
        loser = bruno if winner == anna else anna
        assert balance(winner) == 1100 and balance(loser) == 900
        assert Transfer.objects.get(key=f"pot:{table.pk}").reason == "pot"
    assert pot(table) == 0
    assert audit_ledger().ok


def test_a_drawn_single_hand_returns_the_stakes(rich: Callable[[str], User]) -> None:  # noqa: F811
    anna, bruno = rich("anna_d"), rich("bruno_d")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    stake_table_sit(user=bruno, rules=DUEL, stake=100)
    r = Round.from_hands(DUEL, [["6|6", "2|0"], ["1|1", "0|0"]], dealer=1)  # blocked, 2 - 2
    Hand.objects.filter(table=table).update(initial_position=r.initial_position)
    play_to_the_end(table)
    assert balance(anna) == balance(bruno) == 1000 and pot(table) == 0
    assert not Transfer.objects.filter(key=f"pot:{table.pk}").exists()


def test_partners_split_the_pot(rich: Callable[[str], User]) -> None:  # noqa: F811
    people = [rich(f"p{n}") for n in range(4)]
    table = None
    for person in people:
        table = stake_table_sit(user=person, rules=PAIRS, stake=250)
    assert table is not None
    play_to_the_end(table)
    ranks = {r.user: r.rank for r in SeatResult.objects.filter(table=table)}
    winners = [p for p in people if ranks[p] == 1]
    if len(winners) == 4:
        return  # a drawn hand: covered above
    assert len(winners) == 2
    for person in people:
        assert balance(person) == (1250 if person in winners else 750)
    assert audit_ledger().ok


def test_stake_accounts_are_wallets_and_escrows_only(
    rich: Callable[[str], User],  # noqa: F811
) -> None:
    anna = rich("anna_k")
    table = stake_table_sit(user=anna, rules=DUEL, stake=100)
    kinds = set(
        Account.objects.filter(entries__transfer__key__startswith="stake:").values_list(
            "kind", flat=True
        )
    )
    assert kinds == {Account.Kind.WALLET, Account.Kind.ESCROW}
    assert escrow_of(table=table).table == table


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_threads_staking_one_player_at_four_tables_at_once_take_one_stake(
    anna: User, make_table: Callable[..., Table]
) -> None:
    """No player's lock here, and coins for all four: the database's key decides."""
    drain_to(anna, 1000)
    tables = [make_table(status="waiting") for _ in range(4)]
    results = race(4, lambda i: stake_sit(table=tables[i], seat=0, user=anna, amount=100))
    [staked] = [i for i, r in enumerate(results) if isinstance(r, Transfer)]
    refused = [r for r in results if isinstance(r, StakedElsewhere)]
    assert len(refused) == 3 and {r.table_id for r in refused} == {tables[staked].pk}
    assert balance_of(user=anna) == 900 and stake_in_play(user=anna) == tables[staked].pk
    assert audit_ledger().ok


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_paying_the_same_pot_pay_once(
    anna: User, bruno: User, make_table: Callable[..., Table]
) -> None:
    table = make_table(status="playing")
    stake_sit(table=table, seat=0, user=anna, amount=500)
    stake_sit(table=table, seat=1, user=bruno, amount=500)
    start = balance_of(user=anna)
    results = race(3, lambda i: pot_pay(table=table, winners=[(0, anna)]))
    assert len({r.pk for r in results if isinstance(r, Transfer)}) == 1, results
    assert balance_of(user=anna) == start + 1000
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert audit_ledger().ok
