"""Reads: a player's ratings, their history, the leaderboards, what a match changed,
and the accounts that share a browser."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from accounts.models import User
from games.hooks.seat_notes import SeatNote
from games.models import Table

from .models import BrowserSeen, Format, Rating, RatingChange, RatingReset
from .policy import FORMATS, START, Skill

#: The leaderboards' length.
TOP = 100


@dataclass(frozen=True)
class FormatRating:
    """A player's rating and record in one format (a new player's without a row)."""

    format: str
    shown: int
    provisional: bool
    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def label(self) -> str:
        return str(Format(self.format).label)

    @property
    def text(self) -> str:
        """``1512`` or, while provisional, ``1512?``."""
        return f"{self.shown}{'?' if self.provisional else ''}"


def _of(row: Rating | None, fmt: str) -> FormatRating:
    if row is None:
        return FormatRating(fmt, START.shown, START.provisional)
    return FormatRating(
        fmt, row.shown, row.provisional, row.matches, row.wins, row.losses, row.draws
    )


def ratings_of(*, user: User | None) -> list[FormatRating]:
    """The player's rating in each format, in the formats' order."""
    rows = (
        {}
        if user is None or user.pk is None
        else {r.format: r for r in Rating.objects.filter(user_id=user.pk)}
    )
    return [_of(rows.get(fmt), fmt) for fmt in FORMATS]


def skills_of(*, user_ids: Iterable[int], format: str) -> dict[int, Skill]:
    """The players' skills in ``format`` (a new player's for those without a row)."""
    ids = list(user_ids)
    found = {
        pk: Skill(mu, sigma)
        for pk, mu, sigma in Rating.objects.filter(format=format, user_id__in=ids).values_list(
            "user_id", "mu", "sigma"
        )
    }
    return {pk: found.get(pk, START) for pk in ids}


@dataclass(frozen=True)
class Point:
    """The rating after a match (or a reset), for the chart and its table."""

    at: datetime
    shown: int
    provisional: bool
    change: int
    reset: bool = False


def history(*, user: User, format: str) -> list[Point]:
    """The player's rating in ``format`` over time, oldest first: where it started,
    then after each rated match and each reset."""
    changes = RatingChange.objects.filter(user=user, format=format).values_list(
        "created_at", "shown_before", "shown_after", "provisional_after"
    )
    resets = RatingReset.objects.filter(user=user, format=format).values_list(
        "created_at", "shown_before"
    )
    events = [(at, a, b, p, False) for at, a, b, p in changes]
    events += [(at, before, START.shown, START.provisional, True) for at, before in resets]
    events.sort(key=lambda e: e[0])
    points = [
        Point(at, after, prov, after - before, reset) for at, before, after, prov, reset in events
    ]
    if points:
        first = events[0]
        points.insert(0, Point(first[0], first[1], True, 0))
    return points


@dataclass(frozen=True)
class Place:
    rank: int
    user_id: int
    name: str
    shown: int
    matches: int


@dataclass(frozen=True)
class Leaderboard:
    format: str
    places: list[Place]
    yours: Place | None  # the viewer's place, when they have a settled rating
    your_rating: FormatRating | None  # the viewer's rating, provisional or not

    @property
    def label(self) -> str:
        return str(Format(self.format).label)


def _settled() -> Q:
    return Q(provisional=False, user__is_active=True)


def leaderboard(*, format: str, viewer: User | None) -> Leaderboard:
    """The top ``TOP`` settled ratings in ``format`` (provisional ones are left out)
    and the viewer's own place."""
    rows = (
        Rating.objects.filter(_settled(), format=format)
        .select_related("user")
        .order_by("-shown", "-matches", "user_id")[:TOP]
    )
    places = [
        Place(rank, r.user_id, r.user.display_name, r.shown, r.matches)
        for rank, r in enumerate(rows, start=1)
    ]
    yours = your_rating = None
    if viewer is not None and viewer.pk is not None:
        mine = Rating.objects.filter(user_id=viewer.pk, format=format).first()
        your_rating = _of(mine, format)
        if mine is not None and not mine.provisional:
            ahead = (
                Rating.objects.filter(_settled(), format=format)
                .filter(
                    Q(shown__gt=mine.shown)
                    | Q(shown=mine.shown, matches__gt=mine.matches)
                    | Q(shown=mine.shown, matches=mine.matches, user_id__lt=mine.user_id)
                )
                .count()
            )
            yours = Place(ahead + 1, viewer.pk, viewer.display_name, mine.shown, mine.matches)
    return Leaderboard(format, places, yours, your_rating)


def table_notes(table: Table) -> Iterator[SeatNote]:
    """What a finished match did to each person's rating (``games.hooks.seat_notes``)."""
    for seat, before, after, provisional in RatingChange.objects.filter(table=table).values_list(
        "seat", "shown_before", "shown_after", "provisional_after"
    ):
        yield SeatNote(seat, "rating", before, after, "?" if provisional else "")


def browsers_of(*, user_ids: Iterable[int]) -> dict[int, frozenset[str]]:
    """The browsers each of these players signed in from."""
    found: dict[int, set[str]] = defaultdict(set)
    for pk, browser in BrowserSeen.objects.filter(user_id__in=list(user_ids)).values_list(
        "user_id", "browser"
    ):
        found[pk].add(browser)
    return {pk: frozenset(b) for pk, b in found.items()}


def sharing_a_browser(user: User) -> set[int]:
    """The other accounts signed in from one of ``user``'s browsers."""
    mine = BrowserSeen.objects.filter(user_id=user.pk).values("browser")
    return set(
        BrowserSeen.objects.filter(browser__in=mine)
        .exclude(user_id=user.pk)
        .values_list("user_id", flat=True)
    )
