"""The ledger's audit: what must always be true, checked against the database."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

from accounts.models import User
from economy.models import Account, Entry, Reason, StakeInPlay, Transfer
from games.models import Table


@dataclass
class AuditReport:
    transfers: int = 0
    accounts: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        return (
            f"audit_ledger: {self.transfers} transfers, {self.accounts} accounts, "
            f"{len(self.problems)} problems"
        )


def audit_ledger() -> AuditReport:
    """Every transfer balances and has two legs or more; cached balances equal
    the ledger; no wallet or pot below zero; finished and cancelled tables'
    pots are empty; an open stake table's pot holds one stake per stake in play
    there, and only open tables have any stake in play; the XP cache equals the XP awards."""
    report = AuditReport(transfers=Transfer.objects.count(), accounts=Account.objects.count())
    problems = report.problems

    unbalanced = Transfer.objects.annotate(
        total=Coalesce(Sum("entries__amount"), 0), legs=Count("entries")
    ).filter(~Q(total=0) | Q(legs__lt=2))
    for t in unbalanced.values("key", "total", "legs"):
        problems.append(f"transfer {t['key']}: {t['legs']} legs summing to {t['total']}")

    accounts = Account.objects.annotate(ledger=Coalesce(Sum("entries__amount"), 0))
    for a in accounts.exclude(kind=Account.Kind.SYSTEM).exclude(ledger=F("balance")):
        problems.append(f"{a}: cached balance {a.balance}, ledger {a.ledger}")
    for a in accounts.exclude(kind=Account.Kind.SYSTEM).filter(Q(ledger__lt=0) | Q(balance__lt=0)):
        problems.append(f"{a}: below zero ({a.ledger})")
    closed = (Table.Status.FINISHED, Table.Status.CANCELLED)
    for a in accounts.filter(kind=Account.Kind.ESCROW, table__status__in=closed).exclude(ledger=0):
        problems.append(f"{a}: table is over but its pot holds {a.ledger}")

    open_ = (Table.Status.WAITING, Table.Status.PLAYING)
    over = StakeInPlay.objects.exclude(table__status__in=open_).values_list("user", "table")
    for user, table in over:
        problems.append(f"user {user}: stake in play at table {table}, over")
    held = dict(
        StakeInPlay.objects.values("table").annotate(n=Count("pk")).values_list("table", "n")
    )
    paid_in = (
        Entry.objects.filter(account__kind=Account.Kind.ESCROW, account__table__status__in=open_)
        .values("account__table")
        .annotate(
            stakes=Count("pk", filter=Q(transfer__reason=Reason.STAKE)),
            refunds=Count("pk", filter=Q(transfer__reason=Reason.REFUND)),
        )
        .values_list("account__table", "stakes", "refunds")
    )
    for table, stakes, refunds in paid_in:
        if stakes - refunds != held.get(table, 0):
            in_play = held.get(table, 0)
            problems.append(
                f"table {table}: {stakes - refunds} stakes in its pot, {in_play} in play"
            )

    xp = User.objects.annotate(awarded=Coalesce(Sum("xp_awards__amount"), 0)).exclude(
        xp=F("awarded")
    )
    for u in xp:
        problems.append(f"user {u.pk}: xp {u.xp}, awards {u.awarded}")

    total = Entry.objects.aggregate(total=Sum("amount"))["total"] or 0
    if total != 0:
        problems.append(f"all entries sum to {total}, not 0")
    return report
