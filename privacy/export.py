"""What the site keeps about a player, as one JSON document (``/accounts/export/``).

Exactly the player's own rows: the profile, every table they sit or sat at (with
the match's record once it is over), their coin transfers (each entry on their
wallet), their shop purchases and XP awards, and their league weeks (each match's
points and each closed week's place).  Other players appear only by the names
every visitor of a replay sees.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from accounts.levels import level_for
from accounts.models import User
from economy.models import Entry, Purchase, XpAward
from games.history.selectors import record_of
from games.models import Seat, SeatResult, Table
from games.selectors import seat_name
from games.view.presets import describe_rules
from league.models import Entry as LeagueEntry
from league.models import Finish, Member

FORMAT = "domino-account-export/1"


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _profile(user: User) -> dict[str, Any]:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "guest": user.is_guest,
        "joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "xp": user.xp,
        "level": level_for(user.xp).number,
        # their choices at the table (docs/accessibility.md)
        "forced_moves_played_for_me": user.plays_forced_moves,
        "table_as_text": user.text_mode,
    }


def _games(user: User) -> list[dict[str, Any]]:
    results = {
        r.table_id: r for r in SeatResult.objects.filter(user=user).order_by("table_id", "seat")
    }
    seats = (
        Seat.objects.filter(user=user)
        .select_related("table")
        .prefetch_related("table__seats__user")
        .order_by("table__created_at", "table__pk")
    )
    games = []
    for seat in seats:
        table = seat.table
        result = results.get(table.pk)
        over = table.status == Table.Status.FINISHED
        games.append(
            {
                "table": table.code,
                "mode": table.mode,
                "stake": table.stake,
                "settings": str(describe_rules(table.rules)),
                "status": table.status,
                "created": _when(table.created_at),
                "started": _when(table.started_at),
                "finished": _when(table.finished_at),
                "seat": seat.number,
                "players": [seat_name(s) for s in table.seats.all()],
                "result": None
                if result is None
                else {"rank": result.rank, "side": result.side, "points": result.points},
                "record": record_of(table) if over else None,
            }
        )
    return games


def _transfers(user: User) -> list[dict[str, Any]]:
    entries = (
        Entry.objects.filter(account__user=user)
        .select_related("transfer")
        .order_by("transfer__created_at", "transfer__pk")
    )
    return [
        {
            "at": _when(e.transfer.created_at),
            "reason": e.transfer.reason,
            "coins": e.amount,
            "memo": e.transfer.memo,
            "boosted": e.transfer.boosted,
        }
        for e in entries
    ]


def _purchases(user: User) -> list[dict[str, Any]]:
    return [
        {"item": p.item, "price": p.price, "starts": _when(p.starts_at), "ends": _when(p.ends_at)}
        for p in Purchase.objects.filter(user=user).order_by("starts_at", "pk")
    ]


def _xp(user: User) -> list[dict[str, Any]]:
    awards = XpAward.objects.filter(user=user).select_related("table").order_by("created_at", "pk")
    return [
        {
            "at": _when(a.created_at),
            "xp": a.amount,
            "table": a.table.code if a.table is not None else None,
        }
        for a in awards
    ]


def _league(user: User) -> dict[str, Any]:
    member = Member.objects.filter(user=user).first()
    matches = LeagueEntry.objects.filter(user=user).select_related("week", "table")
    finishes = Finish.objects.filter(user=user).select_related("week")
    return {
        "division": member.get_tier_display() if member is not None else None,
        "matches": [
            {
                "week": e.week.key,
                "table": e.table.code,
                "rank": e.rank,
                "points": e.points,
                "halved": e.halved,
                "at": _when(e.created_at),
            }
            for e in matches.order_by("created_at", "pk")
        ],
        "weeks": [
            {
                "week": f.week.key,
                "division": f.get_tier_display(),
                "rank": f.rank,
                "points": f.points,
                "matches": f.matches,
                "move": f.get_move_display(),
                "prize": f.prize,
            }
            for f in finishes.order_by("week__starts_at")
        ],
    }


def account_export(*, user: User) -> dict[str, Any]:
    """Everything kept about ``user``, ready for ``json.dumps``."""
    return {
        "format": FORMAT,
        "exported": _when(timezone.now()),
        "profile": _profile(user),
        "games": _games(user),
        "coins": {"transfers": _transfers(user), "purchases": _purchases(user)},
        "xp": _xp(user),
        "league": _league(user),
    }
