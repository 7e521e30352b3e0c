"""What a seat can deduce about the hidden tiles, and deals consistent with it.

Everything here is read from a :class:`PlayerView` (docs/rules.md §5): the seat's own
tiles, the line, every hand's size, the boneyard's size and the public log.

A seat that passes facing ends ``(a, b)`` holds no tile showing ``a`` or ``b``,
and never will until it draws.  A seat that draws facing ``(a, b)`` held no such
tile either, but the tiles it draws may show numbers it could not match before,
so at a draw its exclusions restart from ``{a, b}`` alone (the drawn tiles that
did not fit show neither, and the one that fits is played at once; until then,
while the seat is still drawing, nothing is excluded for it).

The opening adds a little: under the highest-double rule nobody was dealt a
double above the opening one (nor, when the opening tile is not a double, any
double or any heavier tile), so until a seat draws it holds none of those.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..moves import Draw, Event, Pass
from ..tiles import ALL_TILES, FULL_SET, SUIT, indices, mask_of
from ..view import PlayerView


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's deductions about the tiles it cannot see.

    ``unseen``: the tiles in other hands or the boneyard.  ``excluded[s]``:
    tiles seat ``s`` cannot hold (always 0 for this seat itself).
    """

    seat: int
    hand: int
    unseen: int
    counts: tuple[int, ...]
    boneyard: int
    excluded: tuple[int, ...]

    @classmethod
    def from_view(cls, view: PlayerView) -> Knowledge:
        """Read the view: sizes, unseen tiles and what each seat cannot hold."""
        if view.seat is None:
            raise ValueError("a spectator holds no tiles and deduces nothing for a seat")
        hand = mask_of(view.hand)
        on_table = mask_of(p.tile for p in view.line)
        unseen = FULL_SET & ~hand & ~on_table
        excluded = list(_opening_exclusions(view, hand))
        for event in view.log:
            if event.ends is None:
                continue
            a, b = event.ends
            if type(event.move) is Pass:
                excluded[event.seat] |= SUIT[a] | SUIT[b]
            elif type(event.move) is Draw:
                excluded[event.seat] = SUIT[a] | SUIT[b]
        last = view.log[-1] if view.log else None
        if last is not None and type(last.move) is Draw:
            excluded[last.seat] = 0  # still drawing: the tile just drawn may fit
        excluded[view.seat] = 0
        return cls(
            seat=view.seat,
            hand=hand,
            unseen=unseen,
            counts=view.hand_counts,
            boneyard=view.boneyard_count,
            excluded=tuple(e & unseen for e in excluded),
        )

    @property
    def players(self) -> int:
        """How many seats are at the table."""
        return len(self.counts)

    def possible(self, seat: int) -> int:
        """The tiles ``seat`` may hold (its own hand, for this seat)."""
        if seat == self.seat:
            return self.hand
        return self.unseen & ~self.excluded[seat]

    def cannot_match(self, seat: int, number: int) -> bool:
        """``seat`` surely holds no tile showing ``number``."""
        return not self.possible(seat) & SUIT[number]

    def consistent(self, hands: Sequence[int], pile: Sequence[int]) -> bool:
        """Whether a deal of the hidden tiles agrees with everything known."""
        if len(hands) != self.players or hands[self.seat] != self.hand:
            return False
        seen = 0
        for seat, mask in enumerate(hands):
            if seen & mask or mask.bit_count() != self.counts[seat]:
                return False
            if seat != self.seat and mask & ~self.possible(seat):
                return False
            seen |= mask
        pile_mask = 0
        for i in pile:
            pile_mask |= 1 << i
        hidden = seen & ~self.hand
        return (
            len(pile) == self.boneyard
            and pile_mask.bit_count() == self.boneyard
            and not hidden & pile_mask
            and not (hidden | pile_mask) & ~self.unseen
        )


def _opening_exclusions(view: PlayerView, hand: int) -> list[int]:
    """What the forced opening shows nobody was dealt, for every seat."""
    none = [0] * view.rules.players
    log: tuple[Event, ...] = view.log
    if view.rules.next_opener != "highest_double" or not log or log[0].ends is not None:
        return none
    move = log[0].move
    tile = getattr(move, "tile", None)
    if tile is None:
        return none
    if tile.is_double:
        above = sum(t.bit for t in ALL_TILES if t.is_double and t.high > tile.high)
    else:
        above = sum(t.bit for t in ALL_TILES if t.is_double or t.value > tile.value)
    if above & hand:
        return none  # not a forced opening after all (a position set up by hand)
    return [above] * view.rules.players


class WorldSampler:
    """Deals the unseen tiles at random, consistently with a :class:`Knowledge`.

    Each sample gives every other seat exactly its number of tiles, none it is
    known not to hold, and the rest to the boneyard in random order.  A plain
    shuffle is tried first and kept if it breaks no deduction (exactly uniform
    over the consistent deals).  Failing that, the most constrained tiles are
    placed first, each with odds proportional to the room left in the hands
    that may take it; a rare dead end starts again, and a search that checks
    the remaining room (Hall's condition) settles it for good if that keeps
    happening.
    """

    _DEALS = 2  # plain shuffles tried before placing tile by tile

    def __init__(self, knowledge: Knowledge, *, retries: int = 20) -> None:
        self.knowledge = knowledge
        self.retries = retries  # tile-by-tile placements tried before the checked search
        k = knowledge
        others = [s for s in range(k.players) if s != k.seat]
        self._tiles = indices(k.unseen)
        room = [k.counts[s] for s in others] + [k.boneyard]
        surplus = len(self._tiles) - sum(room)
        if surplus < 0:
            raise ValueError(f"{len(self._tiles)} unseen tiles cannot fill {sum(room)} places")
        # Holders of hidden tiles: the other seats, the boneyard (-1) and, in a
        # position set up with tiles left out of play, the tiles out of play (-2).
        self._holders = [*others, -1] + ([-2] if surplus else [])
        self._room = room + ([surplus] if surplus else [])
        self._seats = len(others)
        everyone = (1 << len(self._holders)) - 1
        self._eligible: dict[int, int] = {}
        for i in self._tiles:
            allowed = everyone
            for h, seat in enumerate(others):
                if k.excluded[seat] >> i & 1:
                    allowed &= ~(1 << h)
            self._eligible[i] = allowed
        self.constrained = any(a != everyone for a in self._eligible.values())
        if self.constrained and not self._feasible(self._type_counts(self._tiles), self._room):
            # Contradictory deductions (a position set up by hand): forget them.
            self._eligible = dict.fromkeys(self._tiles, everyone)
            self.constrained = False
        # Tiles allowed the same holders are interchangeable, so a fixed order is fair.
        self._by_constraint = sorted(
            self._tiles, key=lambda i: (self._eligible[i].bit_count(), self._eligible[i])
        )

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """Hands by seat (this seat's own included) and the pile, next to draw last."""
        if not self.constrained:
            return self._deal(rng)
        for _ in range(self._DEALS):
            hands, pile = self._deal(rng)
            if self._allowed(hands):
                return hands, pile
        for _ in range(self.retries):
            placed = self._place_greedily(rng)
            if placed is not None:
                return self._finish(placed, rng)
        return self._finish(self._place_checked(rng), rng)

    def _allowed(self, hands: list[int]) -> bool:
        excluded = self.knowledge.excluded
        return not any(hands[s] & excluded[s] for s in self._holders[: self._seats])

    def _deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        tiles = list(self._tiles)
        shuffle(tiles, rng.random)
        k = self.knowledge
        hands = [0] * k.players
        hands[k.seat] = k.hand
        start = 0
        for seat, room in zip(self._holders[: self._seats], self._room, strict=False):
            mask = 0
            for i in tiles[start : start + room]:
                mask |= 1 << i
            hands[seat] = mask
            start += room
        return hands, tiles[start : start + k.boneyard]

    def _place_greedily(self, rng: random.Random) -> list[list[int]] | None:
        room = list(self._room)
        placed: list[list[int]] = [[] for _ in self._holders]
        for i in self._by_constraint:
            allowed = self._eligible[i]
            total = 0
            for h, r in enumerate(room):
                if allowed >> h & 1:
                    total += r
            if total == 0:
                return None
            pick = rng.random() * total
            chosen = -1
            for h, r in enumerate(room):
                if allowed >> h & 1 and r:
                    chosen = h
                    pick -= r
                    if pick < 0:
                        break
            room[chosen] -= 1
            placed[chosen].append(i)
        return placed

    def _place_checked(self, rng: random.Random) -> list[list[int]]:
        room = list(self._room)
        placed: list[list[int]] = [[] for _ in self._holders]
        left = list(self._by_constraint)
        types = self._type_counts(left)
        for i in left:
            allowed = self._eligible[i]
            types[allowed] -= 1
            options = [h for h, r in enumerate(room) if allowed >> h & 1 and r]
            rng.shuffle(options)
            for h in options:
                room[h] -= 1
                if self._feasible(types, room):
                    placed[h].append(i)
                    break
                room[h] += 1
            else:  # pragma: no cover - the constructor checked feasibility
                raise AssertionError("no consistent deal")
        return placed

    def _finish(self, placed: list[list[int]], rng: random.Random) -> tuple[list[int], list[int]]:
        k = self.knowledge
        hands = [0] * k.players
        hands[k.seat] = k.hand
        for seat, tiles in zip(self._holders[: self._seats], placed, strict=False):
            mask = 0
            for i in tiles:
                mask |= 1 << i
            hands[seat] = mask
        pile = placed[self._seats]
        shuffle(pile, rng.random)
        return hands, pile

    def _type_counts(self, tiles: Sequence[int]) -> dict[int, int]:
        types: dict[int, int] = {}
        for i in tiles:
            allowed = self._eligible[i]
            types[allowed] = types.get(allowed, 0) + 1
        return types

    def _feasible(self, types: dict[int, int], room: Sequence[int]) -> bool:
        """Hall's condition: every set of holders has room for the tiles only it may take."""
        holders = len(room)
        for subset in range(1, 1 << holders):
            need = sum(n for allowed, n in types.items() if allowed & ~subset == 0)
            space = sum(r for h, r in enumerate(room) if subset >> h & 1)
            if need > space:
                return False
        return True


def shuffle(items: list[int], uniform: Callable[[], float]) -> None:
    """Fisher–Yates in place, on a generator's ``random`` (quicker than ``Random.shuffle``)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(uniform() * (i + 1))
        items[i], items[j] = items[j], items[i]
