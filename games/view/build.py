"""The one builder of a ``TableView``: what one viewer may see of a table, and nothing more.

The site (``games.selectors.view_of``, from the database's state) and the offline
game (``games.offline.table``, from the match the browser holds) describe their
seats as ``SeatFacts`` and call ``build_view``; so the two tables cannot drift
apart.  It starts from the engine's ``PlayerView`` for the viewer's seat (a
spectator's holds no tiles), so nothing it returns can hold another hand's tiles
or the boneyard's while a hand is being played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine import Match, PlayerView, Rules

from .parts import (
    NO_PROOF,
    NOBODY,
    POSITIONS,
    DealProof,
    HandSummary,
    LastMove,
    SeatInfo,
    TableFacts,
    TableView,
    hand_and_moves,
    hand_summaries,
    last_move,
    log_lines,
    named,
    revealed,
    side_scores,
)

if TYPE_CHECKING:
    from games.hooks.payouts import Payout
    from games.hooks.seat_notes import SeatNote


class SeatFacts(NamedTuple):
    """A seat as every viewer sees it, before it is placed round this viewer's table."""

    number: int
    name: str  # as the others name it ("You" is the builder's)
    is_bot: bool = False
    bot_level: str = ""
    is_free: bool = False
    user_id: int | None = None
    is_host: bool = False
    is_filler: bool = False
    is_away: bool = False
    is_ready: bool = False
    has_left: bool = False  # a friend who left the game: the computer plays it
    is_online: bool = True  # a person with a live socket at the table (bots always are)
    left_at: tuple[int, int] | None = None  # (hand from 0, ply) its player left before


class Clocks(NamedTuple):
    """The table's deadlines a view shows (from the server; none offline)."""

    next_hand_at: datetime | None = None
    turn_ends_at: datetime | None = None
    fill_ends_at: datetime | None = None
    forced_at: datetime | None = None  # a person's only move, played for them


def build_view(
    *,
    table: TableFacts,
    rules: Rules,
    version: int,
    match: Match | None,
    seats: Sequence[SeatFacts],
    you: int | None,
    is_host: bool,
    mode_label: str,
    actors: tuple[str, ...] = (),
    invitations: tuple[str, ...] = (),
    clocks: Clocks = Clocks(),  # noqa: B008  (an immutable NamedTuple)
    payouts: tuple[Payout, ...] = (),
    seat_notes: tuple[SeatNote, ...] = (),
    deal: DealProof = NO_PROOF,
    plays_forced_moves: bool | None = None,
    text_mode: bool = False,
    language: str | None = None,
) -> TableView:
    """The view of the seat ``you`` (None: a spectator) of a table whose ``match`` is
    being played (None: not started).  ``actors``: who made each move of the current
    hand; ``clocks``: the deadlines the screen counts down to; ``payouts``: what the
    table paid this viewer, ``seat_notes``: what other apps say of every seat, once the
    table is over (a rating's change).  ``language``: the active one, when the caller
    knows it already."""
    language = language or get_language()
    names = {s.number: (_you(language) if s.number == you else s.name) for s in seats}
    mine = next((s for s in seats if s.number == you), None)
    player = match.round.view(you) if match is not None else None
    winners = match.winners if match is not None else ()
    match_over = match is not None and match.over
    hand_number = len(match.rounds) if match is not None else 0
    last = last_move(player, hand_number) if player else None
    turn = player.turn if player and not player.over else None
    hand, draw_move, pass_move = hand_and_moves(player)
    return TableView(
        table=table,
        rules=rules,
        version=version,
        you=you,
        is_host=is_host,
        seats=_placed(seats, rules, you, names, player, last),
        hand_number=hand_number,
        player=player,
        hand=hand,
        draw_move=draw_move,
        pass_move=pass_move,
        your_turn=bool(player and player.legal_moves),
        turn_name=named((turn,), names, you, language) if turn is not None else NOBODY,
        log=tuple(log_lines(player, names, actors, _left_at(seats, hand_number - 1)))
        if player
        else (),
        scores=side_scores(rules, match, names, you, language),
        result=player.result if player else None,
        hand_winner_names=named(player.result.winners, names, you, language)
        if player and player.result and player.result.winners
        else NOBODY,
        revealed=revealed(player, names) if player else (),
        hand_summaries=_summaries(match, names, you, language),
        match_over=match_over,
        winner_names=named(winners, names, you, language) if winners else NOBODY,
        you_won=you is not None and you in winners,
        mode_label=mode_label,
        invitations=invitations,
        next_hand_at=clocks.next_hand_at if player and player.over and not match_over else None,
        turn_ends_at=clocks.turn_ends_at,
        fill_ends_at=clocks.fill_ends_at,
        forced_at=clocks.forced_at if player and player.legal_moves else None,
        plays_forced_moves=plays_forced_moves,
        text_mode=text_mode,
        last_move=last,
        you_are_away=bool(mine and mine.is_away),
        you_are_ready=bool(mine and mine.is_ready),
        payouts=payouts,
        seat_notes=seat_notes,
        deal=deal,
    )


#: "You", by language: every view names its viewer so.
_yous: dict[str, str] = {}


def _you(language: str) -> str:
    """ "You" in ``language`` (the active one)."""
    you = _yous.get(language)
    if you is None:
        you = _yous[language] = _("You")
    return you


def _placed(
    seats: Sequence[SeatFacts],
    rules: Rules,
    you: int | None,
    names: Mapping[int, str],
    player: PlayerView | None,
    last: LastMove | None,
) -> tuple[SeatInfo, ...]:
    """Every seat as this viewer sees it, theirs at the bottom and the others round the
    table in playing order."""
    counts = player.hand_counts if player else None
    turn = player.turn if player and not player.over else None
    base = you if you is not None else 0
    positions = POSITIONS[rules.players]
    return tuple(
        SeatInfo(
            number=s.number,
            name=names[s.number],
            is_bot=s.is_bot,
            bot_level=s.bot_level,
            is_free=s.is_free,
            is_you=s.number == you,
            is_partner=you is not None
            and rules.partnerships
            and s.number != you
            and rules.side_of(s.number) == rules.side_of(you),
            is_host=s.is_host,
            tiles=counts[s.number] if counts else None,
            is_turn=s.number == turn,
            position=positions[(s.number - base) % rules.players],
            is_filler=s.is_filler,
            is_away=s.is_away,
            is_ready=s.is_ready,
            is_online=s.is_online,
            user_id=s.user_id,
            is_dealer=player is not None and player.dealer == s.number,
            last_action=last.kind if last and last.seat == s.number and last.kind != "play" else "",
            has_left=s.has_left,
        )
        for s in sorted(seats, key=lambda s: (s.number - base) % rules.players)
    )


def _summaries(
    match: Match | None, names: Mapping[int, str], you: int | None, language: str
) -> tuple[HandSummary, ...]:
    """One line per hand played to its end."""
    if match is None:
        return ()
    hands = (
        (n, r.result.reason, ",".join(map(str, r.result.winners)), r.result.points)
        if r.result is not None
        else (n, "", "", 0)
        for n, r in enumerate(match.rounds)
    )
    return tuple(hand_summaries(hands, dict(names), you, language))


def _left_at(seats: Sequence[SeatFacts], hand: int) -> dict[int, list[int]]:
    """The seats whose player left during ``hand``, by the ply they left before."""
    left: dict[int, list[int]] = {}
    for s in seats:
        if s.left_at is not None and s.left_at[0] == hand:
            left.setdefault(s.left_at[1], []).append(s.number)
    return left
