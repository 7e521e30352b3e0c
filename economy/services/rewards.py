"""Coins and XP for a finished match, from its result rows (docs/rules.md §7).

Online: every person by final rank.  With friends: the winning side only, at
half the online rate.  Against the computer: nothing.  At a stake table the pot
is the prize: XP as online, no coins from the house.  Bots, simulated players
and guests are never paid; a person whose seat a bot finished (away at the end)
is not paid either.  An active booster or VIP pass multiplies coins and XP.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from economy import numbers
from economy.models import Account, Reason, XpAward
from games.models import SeatResult, Table

from .ledger import house, post_transfer, wallet_of
from .shop import active_percent


@dataclass(frozen=True)
class Reward:
    user: User
    coins: int
    xp: int
    boosted: bool


def seating_of(table: Table) -> str:
    """The key of the reward tables: "2", "3", "4" or "pairs"."""
    return "pairs" if table.players == 4 and table.teams else str(table.players)


def base_reward(*, mode: str, seating: str, rank: int) -> tuple[int, int]:
    """Coins and XP for a rank before any booster: the numbers on the rewards page."""
    policy = numbers.REWARDED_MODES.get(mode)
    coins, xp = numbers.ONLINE_COINS[seating], numbers.ONLINE_XP[seating]
    if policy is None or rank > len(coins):
        return 0, 0
    if policy == "winners_half":
        if rank != 1:
            return 0, 0
        half = (numbers.FRIENDS_RATE_NUMERATOR, numbers.FRIENDS_RATE_DENOMINATOR)
        return coins[0] * half[0] // half[1], xp[0] * half[0] // half[1]
    return coins[rank - 1], xp[rank - 1]


def match_rewards(*, table: Table) -> list[Reward]:
    """What each person at the finished table earns, in user-id order."""
    seating = seating_of(table)
    at = table.finished_at or timezone.now()
    rewards = []
    results = (
        SeatResult.objects.filter(
            table=table, user__isnull=False, user__is_guest=False, is_bot=False, is_filler=False
        )
        .select_related("user")
        .order_by("user_id")
    )
    for result in results:
        assert result.user is not None
        coins, xp = base_reward(mode=table.mode, seating=seating, rank=result.rank)
        if table.stake:
            coins = 0
        if not coins and not xp:
            continue
        percent = active_percent(user_id=result.user.pk, at=at)
        rewards.append(
            Reward(result.user, coins * percent // 100, xp * percent // 100, percent > 100)
        )
    return rewards


def award_xp(*, user_id: int, amount: int, key: str, table: Table | None, boosted: bool) -> bool:
    """Record XP once per ``key`` and move the ``User.xp`` cache with it."""
    try:
        with transaction.atomic():
            XpAward.objects.create(
                key=key, user_id=user_id, amount=amount, table=table, boosted=boosted
            )
    except IntegrityError:
        return False  # already awarded (perhaps by a racing twin)
    User.objects.filter(pk=user_id).update(xp=F("xp") + amount)
    return True


@transaction.atomic
def pay_match_rewards(*, table_id: int) -> None:
    """Pay the finished match's rewards; paying twice pays once.

    Called in the transaction that finishes the match (``match_finished``, after
    the table lock).  Coins first, then XP, each in user-id order: the wallets,
    then the players' rows, as the stake pot paid in the same transaction does.
    """
    table = Table.objects.get(pk=table_id)
    rewards = match_rewards(table=table)
    source = house(Account.Source.REWARDS)
    for r in rewards:
        if r.coins:
            post_transfer(
                key=f"reward:{table.pk}:{r.user.pk}",
                reason=Reason.REWARD,
                legs=[(source, -r.coins), (wallet_of(user=r.user), r.coins)],
                boosted=r.boosted,
                memo=f"{table.mode} {seating_of(table)}",
            )
    for r in rewards:
        if r.xp:
            award_xp(
                user_id=r.user.pk,
                amount=r.xp,
                key=f"xp:{table.pk}:{r.user.pk}",
                table=table,
                boosted=r.boosted,
            )
