"""The parts of a viewer's view of a table that come from the engine alone.

``games.selectors`` builds a table's view for the site from the database's state;
the offline table (``games/offline/``, run by the browser under Pyodide) builds
one from a match it holds.  Both make their seats, hand, log, scores and results
here, from the engine's ``PlayerView`` for the viewer's seat, so the same
templates draw the same table.  No Django: only the engine and ``accounts.names``.

The view itself, ``TableView``, is one class for both.  The parts are NamedTuples:
immutable and hashable like frozen dataclasses (shared fragments are keyed by them),
but built, hashed and compared in C — a frame builds a few dozen of them for every
viewer at every version.
"""

from __future__ import annotations

import uuid
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, NamedTuple, Protocol

from accounts.names import Who
from games.engine import Draw, Match, Pass, Play, PlayerView, RoundResult, Rules, Tile

if TYPE_CHECKING:
    from datetime import datetime

    from games.hooks.payouts import Payout
    from games.hooks.seat_notes import SeatNote

#: Where each seat sits on the viewer's screen, from the viewer's own (bottom) round.
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}


class SeatInfo(NamedTuple):
    number: int
    name: str
    is_bot: bool
    bot_level: str
    is_free: bool
    is_you: bool
    is_partner: bool
    is_host: bool
    tiles: int | None
    is_turn: bool
    position: str
    is_filler: bool = False
    is_away: bool = False
    is_ready: bool = False  # pressed "next hand" on the hand's result
    is_online: bool = True  # a person with a live socket at the table (bots always are)
    user_id: int | None = None  # never shown: the consumer checks presence by it
    is_dealer: bool = False
    last_action: str = ""  # "pass" or "draw" when the hand's latest move was theirs
    has_left: bool = False  # a friend who left the game: the computer plays it

    @property
    def fragments(self) -> tuple[tuple[str, dict[str, Hashable]], ...]:
        """What the seat's box says, whoever looks, as shared fragments (template, values):
        who sits there, and apart from it how many tiles they hold, which changes at every
        move of theirs (the name and its tags seldom do)."""
        return (
            ("games/_seat_label.html", {"seat": self.label}),
            ("games/_seat_count.html", {"tiles": self.tiles}),
        )

    @property
    def label(self) -> SeatLabel:
        """Who sits there and their tags, whoever looks."""
        return SeatLabel(
            self.name,
            self.is_bot,
            self.bot_level,
            self.is_filler,
            self.is_online,
            self.is_away,
            self.is_partner,
            self.is_dealer,
            self.last_action,
            self.has_left,
        )


class SeatLabel(NamedTuple):
    name: str
    is_bot: bool
    bot_level: str
    is_filler: bool
    is_online: bool
    is_away: bool
    is_partner: bool
    is_dealer: bool
    last_action: str
    has_left: bool = False


class HandTile(NamedTuple):
    """A tile of the viewer's hand and the moves it allows now."""

    tile: Tile
    moves: tuple[tuple[str, str], ...]  # (end, move text) for each legal end

    @property
    def playable(self) -> bool:
        return bool(self.moves)

    @property
    def single_move(self) -> str | None:
        """The move text when the tile fits in one place only (no end to choose)."""
        return self.moves[0][1] if len(self.moves) == 1 else None


class LogLine(NamedTuple):
    name: str
    kind: str  # "play", "draw", "pass"; "left": the seat's player left, the computer plays it
    tile: Tile | None
    end: str
    draws: int  # a draw's line: the seat's draws in a row
    ends: tuple[int, int] | None
    actor: str = "person"  # who made the move: Move.Actor (the clock, a stand-in bot…)

    @property
    def words(self) -> LogLine:
        """The line as its words tell it (``games/_log_line.html``, ``_say_move.html``),
        whoever made the move: what kept words are looked up by.  A tile laid is told by
        the tile and its end, not by the ends it leaves open."""
        return self._replace(name="", ends=None) if self.kind == "play" else self._replace(name="")


class LastMove(NamedTuple):
    """The hand's latest move, for the table to highlight and animate."""

    seat: int
    kind: str  # "play", "draw", "pass"
    tile: Tile | None
    end: str  # "left" or "right" for a play on a line; "" for the opening and the rest
    key: str  # "<hand>-<ply>": a new key is a new move


class SideScore(NamedTuple):
    names: Who
    points: int
    is_yours: bool
    won: bool


class RevealedHand(NamedTuple):
    name: str
    tiles: tuple[Tile, ...]
    pips: int
    won: bool


class HandSummary(NamedTuple):
    number: int
    winners: Who
    points: int
    reason: str


class DealProof(NamedTuple):
    """What the table shows of its deals (``games.engine.deals``): the hand being played's
    commitment from its deal on, its seeds once it is over, never before; and the
    commitment of the next hand, for the seated players' browsers to add their seeds to."""

    hand: int  # the hand being played, from 1; 0: none dealt yet
    commitment: str  # "": a hand dealt before deals could be verified
    seed: str  # revealed once the hand is over
    client_seeds: tuple[str, ...]  # revealed with the seed
    next_commitment: str  # "": no hand to come


NO_PROOF = DealProof(0, "", "", (), "")


#: No player: a hand or a match without a winner, nobody's turn.
NOBODY = Who(())


#: The namespace of the "another table at this stake" tokens (``TableView.sit_again_token``).
_SIT_AGAIN = uuid.UUID("7b0f5d0e-6c1a-4d4e-9a51-3d2f0c6b8e21")


class TableFacts(Protocol):
    """What a view's readers in Python read of its table: the site's ``games.models.Table``,
    or the offline game's ``OfflineTable`` (the templates read more)."""

    @property
    def code(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def stake(self) -> int: ...
    @property
    def mode(self) -> str: ...


class TableView(NamedTuple):
    """Everything one viewer may see of a table, and nothing more (a seat's view: the
    engine's ``PlayerView``).  The site's is built by ``games.selectors.view_of``; the
    offline game's by ``games.offline.table``, whose ``table`` is an ``OfflineTable``."""

    table: TableFacts
    rules: Rules
    version: int
    you: int | None
    is_host: bool
    seats: tuple[SeatInfo, ...]
    hand_number: int
    player: PlayerView | None
    hand: tuple[HandTile, ...]
    draw_move: str | None
    pass_move: str | None
    your_turn: bool
    turn_name: Who
    log: tuple[LogLine, ...]
    scores: tuple[SideScore, ...]
    result: RoundResult | None
    hand_winner_names: Who
    revealed: tuple[RevealedHand, ...]
    hand_summaries: tuple[HandSummary, ...]
    match_over: bool
    winner_names: Who
    you_won: bool
    mode_label: str  # the table's mode, as its players read it (``games.describe``)
    invitations: tuple[str, ...] = ()
    next_hand_at: datetime | None = None
    turn_ends_at: datetime | None = None  # the turn clock's deadline, from the server
    fill_ends_at: datetime | None = None  # a stake table's time to fill
    forced_at: datetime | None = None  # when this player's only move is played for them
    # this seated person's choice (None: no choice here, a spectator, the offline game)
    plays_forced_moves: bool | None = None
    text_mode: bool = False  # this seated person's choice: the table as text too
    last_move: LastMove | None = None
    you_are_away: bool = False
    you_are_ready: bool = False
    payouts: tuple[Payout, ...] = ()  # what the table paid this viewer, once it is over
    seat_notes: tuple[SeatNote, ...] = ()  # every seat's, once finished (a rating's change)
    deal: DealProof = NO_PROOF

    @property
    def playing(self) -> bool:
        return self.player is not None

    @property
    def waiting(self) -> bool:
        return self.table.status == "waiting"  # Table.Status.WAITING

    @property
    def free_seats(self) -> int:
        return sum(s.is_free for s in self.seats)

    @property
    def watching(self) -> bool:
        """A spectator (or a visitor): no seat at the table."""
        return self.you is None

    @property
    def hand_over(self) -> bool:
        return self.result is not None

    @property
    def pot(self) -> int:
        """The coins in a stake table's pot: every person seated paid the stake as they
        sat, and the pot stays whole until the match's end (0 at other tables, and at
        a cancelled one, whose stakes went back)."""
        stake = self.table.stake
        if not stake or self.table.status == "cancelled":  # Table.Status.CANCELLED
            return 0
        if self.waiting:
            return stake * sum(not s.is_free for s in self.seats)
        return stake * self.rules.players

    @property
    def sit_again_token(self) -> str:
        """The stake sit form's token for "another table at this stake" from this table:
        the same for this player on every frame and every click, so the button seats
        them once (``StakeSit``), however often it is pressed."""
        seat = next((s for s in self.seats if s.is_you), None)
        if seat is None or seat.user_id is None:
            return ""
        return str(uuid.uuid5(_SIT_AGAIN, f"{self.table.code}:{seat.user_id}"))

    @property
    def move_ends(self) -> tuple[int, int] | None:
        """The line's ends, as the hand's end buttons show them (only on this player's turn)."""
        return self.player.ends if self.your_turn and self.player else None

    @property
    def move_version(self) -> int | None:
        """The version the hand's buttons send; None when there are no buttons (not
        this player's turn), so an unchanged hand is the same fragment version after version."""
        return self.version if self.your_turn else None


def named(
    seats: tuple[int, ...], names: dict[int, str], you: int | None, language: str | None = None
) -> Who:
    """The players at ``seats``, as sentences name them (``accounts.names``) in the active
    language (``language``, when the caller knows it already)."""
    place = seats.index(you) if you in seats else -1
    return Who([names[s] for s in seats], you=place, language=language)


def side_scores(
    rules: Rules,
    match: Match | None,
    names: dict[int, str],
    you: int | None,
    language: str | None = None,
) -> tuple[SideScore, ...]:
    """Each side's points in the match, this viewer's side marked."""
    scores = match.scores if match is not None else (0,) * rules.sides
    winners = match.winners if match is not None else ()
    your_side = rules.side_of(you) if you is not None else None
    winning_side = rules.side_of(winners[0]) if winners else None
    return tuple(
        SideScore(
            names=named(rules.seats_of(side), names, you, language),
            points=points,
            is_yours=side == your_side,
            won=side == winning_side,
        )
        for side, points in enumerate(scores)
    )


def hand_and_moves(
    player: PlayerView | None,
) -> tuple[tuple[HandTile, ...], str | None, str | None]:
    """The viewer's tiles with the moves each allows, and the draw or pass move, if any."""
    if player is None:
        return (), None, None
    by_tile: dict[Tile, list[tuple[str, str]]] = {}
    draw_move = pass_move = None
    for move in player.legal_moves:
        if isinstance(move, Play):
            by_tile.setdefault(move.tile, []).append((move.end, str(move)))
        elif isinstance(move, Draw):
            draw_move = str(move)
        elif isinstance(move, Pass):
            pass_move = str(move)
    # Both ends showing one number: either end leaves the same line, so one move, no choice.
    same_ends = player.ends is not None and player.ends[0] == player.ends[1]
    ordered = sorted(player.hand, key=lambda t: (t.high, t.low), reverse=True)
    hand = tuple(
        HandTile(t, tuple(by_tile.get(t, ()))[: 1 if same_ends else None]) for t in ordered
    )
    return hand, draw_move, pass_move


def last_move(player: PlayerView, hand_number: int) -> LastMove | None:
    """The hand's latest move, keyed by the hand's number and the move's ply."""
    if not player.log:
        return None
    event = player.log[-1]
    key = f"{hand_number}-{len(player.log)}"
    move = event.move
    if isinstance(move, Play):
        end = move.end if event.ends is not None else ""
        return LastMove(event.seat, "play", move.tile, end, key)
    kind = "draw" if isinstance(move, Draw) else "pass"
    return LastMove(event.seat, kind, None, "", key)


def log_lines(
    player: PlayerView,
    names: dict[int, str],
    actors: tuple[str, ...] = (),
    left: dict[int, list[int]] | None = None,
) -> list[LogLine]:
    """The public log, newest first, consecutive draws by one seat counted together;
    ``actors``: who made each move (a person unless said); ``left``: the seats whose
    player left the game, by the ply they left before."""
    lines: list[LogLine] = []
    left = left or {}
    for ply in range(len(player.log) + 1):
        for seat in left.get(ply, ()):
            lines.append(LogLine(names[seat], "left", None, "", 0, None))
        if ply == len(player.log):
            break
        event = player.log[ply]
        actor = actors[ply] if ply < len(actors) else "person"
        move = event.move
        if isinstance(move, Draw):
            last = lines[-1] if lines else None
            if last and last.kind == "draw" and last.name == names[event.seat]:
                # the line says who made the latest draw (a draw played for the player)
                lines[-1] = LogLine(last.name, "draw", None, "", last.draws + 1, last.ends, actor)
                continue
            lines.append(LogLine(names[event.seat], "draw", None, "", 1, event.ends, actor))
        elif isinstance(move, Pass):
            lines.append(LogLine(names[event.seat], "pass", None, "", 0, event.ends, actor))
        else:
            end = move.end if event.ends is not None else ""
            lines.append(LogLine(names[event.seat], "play", move.tile, end, 0, event.ends, actor))
    return lines[::-1]


def revealed(player: PlayerView, names: dict[int, str]) -> tuple[RevealedHand, ...]:
    """Every hand's tiles once the hand is over (none while it is played)."""
    if player.revealed is None or player.result is None:
        return ()
    result = player.result
    return tuple(
        RevealedHand(names[seat], tiles, result.pips[seat], seat in result.winners)
        for seat, tiles in enumerate(player.revealed)
    )


def hand_summaries(
    hands: Iterable[tuple[int, str, str, int]],
    names: dict[int, str],
    you: int | None,
    language: str | None = None,
) -> list[HandSummary]:
    """One line per hand played: ``hands`` as (number from 0, reason, winners "0,2",
    points); a hand still being played (no reason) is left out."""
    out = []
    for number, reason, winners, points in hands:
        if not reason:
            continue
        seats = tuple(int(s) for s in winners.split(",") if s)
        out.append(HandSummary(number + 1, named(seats, names, you, language), points, reason))
    return out
