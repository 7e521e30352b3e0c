"""Writes: a finished match's rating changes (once), an operator's reset, a browser seen.

**Who is rated** (``is_rated``): the people of a finished online match, stake tables
included.  Simulated players take part with their level's fixed rating and never
move; friends' games and games against the computer are not rated.

**Exactly once.** ``rate_table`` runs in the transaction that writes the match's
``SeatResult`` rows (``games.signals.match_finished``).  It locks the table (a no-op
inside the ending transaction, which holds it), returns at once if the table has
rating changes already, and the changes are unique per (table, player) besides.

**Locks**, after the global order's table, seats and wallets (the coins are paid
first, by the receivers of the apps listed before this one): the players' rating
rows, in user id order.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import BotLevel, SeatResult, Table

from .models import BrowserSeen, Rating, RatingChange, RatingReset
from .policy import FILLER_SKILL, START, Entrant, format_of, model_for, rate


def is_rated(table: Table) -> bool:
    """An online match (stake tables are online too): rated once played to its end,
    which its results say (the ending transaction saves the table's status last)."""
    return table.mode == Table.Mode.ONLINE


def _outcome(rank: int, ranks: list[int], left: bool) -> str:
    if left or rank > 1:
        return RatingChange.Outcome.LOSS
    return RatingChange.Outcome.DRAW if ranks.count(1) > 1 else RatingChange.Outcome.WIN


@transaction.atomic
def rate_table(*, table_id: int) -> list[RatingChange]:
    """Rate the people of a finished match, once; the changes written (none the
    second time, nor for a table that is not rated)."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if not is_rated(table) or RatingChange.objects.filter(table=table).exists():
        return []
    results = list(SeatResult.objects.filter(table=table).order_by("seat"))  # none: not over
    users = {r.seat: r.user_id for r in results}
    seats = {s.number: s for s in table.seats.all()}
    people = sorted(r.user_id for r in results if r.user_id is not None)
    if not people:
        return []
    fmt = format_of(table.players, table.teams)
    Rating.objects.bulk_create(
        [Rating(user_id=pk, format=fmt) for pk in people], ignore_conflicts=True
    )
    ratings = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(format=fmt, user_id__in=people)
        .order_by("user_id")
    }
    entrants = []
    for r in results:
        seat = seats.get(r.seat)
        if r.user_id is not None:
            # r.is_bot for a person: a computer played their seat at the end (away)
            left = r.is_bot or (seat is not None and seat.has_left)
            entrants.append(Entrant(r.seat, r.side, r.rank, ratings[r.user_id].skill, left=left))
        else:
            level = (seat.bot_level if seat is not None else "") or BotLevel.MEDIUM
            entrants.append(Entrant(r.seat, r.side, r.rank, FILLER_SKILL[level], rated=False))
    new = rate(entrants, model_for(table.target))
    side_ranks = list({r.side: r.rank for r in results}.values())
    now = timezone.now()
    changes = []
    for entrant in entrants:
        if entrant.seat not in new:
            continue
        user_id = users[entrant.seat]
        assert user_id is not None
        rating, after = ratings[user_id], new[entrant.seat]
        outcome = _outcome(entrant.rank, side_ranks, entrant.left)
        changes.append(
            RatingChange(
                table=table,
                user_id=user_id,
                seat=entrant.seat,
                format=fmt,
                outcome=outcome,
                left=entrant.left,
                mu_before=rating.mu,
                sigma_before=rating.sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
                shown_before=rating.shown,
                shown_after=after.shown,
                provisional_after=after.provisional,
                created_at=now,
            )
        )
        rating.mu, rating.sigma = after.mu, after.sigma
        rating.shown, rating.provisional = after.shown, after.provisional
        rating.matches += 1
        rating.wins += outcome == RatingChange.Outcome.WIN
        rating.losses += outcome == RatingChange.Outcome.LOSS
        rating.draws += outcome == RatingChange.Outcome.DRAW
        rating.updated_at = now
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_update(
        list(ratings.values()),
        ["mu", "sigma", "shown", "provisional", "matches", "wins", "losses", "draws", "updated_at"],
    )
    return changes


@transaction.atomic
def rating_reset(*, user: User, format: str, by: User, reason: str) -> RatingReset:
    """Put ``user``'s rating in ``format`` back to a new player's, recording who did it
    and why; the record of matches won and lost stays."""
    reason = reason.strip()
    if not reason:
        raise ValueError("A reset says why.")
    Rating.objects.bulk_create([Rating(user=user, format=format)], ignore_conflicts=True)
    rating = Rating.objects.select_for_update().get(user=user, format=format)
    reset = RatingReset.objects.create(
        user=user,
        format=format,
        by=by,
        reason=reason[:200],
        mu_before=rating.mu,
        sigma_before=rating.sigma,
        shown_before=rating.shown,
    )
    rating.mu, rating.sigma = START.mu, START.sigma
    rating.shown, rating.provisional = START.shown, START.provisional
    rating.updated_at = reset.created_at
    rating.save()
    return reset


def browser_seen(*, user_id: int, browser: str) -> None:
    """``user`` signed in from ``browser`` (kept once)."""
    BrowserSeen.objects.bulk_create(
        [BrowserSeen(user_id=user_id, browser=browser)], ignore_conflicts=True
    )
