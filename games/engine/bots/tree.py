"""Information-set Monte Carlo tree search (single observer), for the hard bot.

One tree of moves serves every sampled deal.  Each deal descends it from the
bot's decision by the moves legal in that deal: at each node the seat to act
takes the move with the best upper confidence bound (UCB1) for its side, its
mean counted over the deals that reached it and its exploration over the times
the move was legal there (which differs from deal to deal: the others' hands
do).  The first move not yet in the tree is added, the hand is played out at
random from there (:meth:`Round.finish <games.engine.round.Round.finish>`),
and the result, for the bot's side, is added along the path.  Unlike the flat
search, the others answer each play as the tree learns they would, not at
random.  The play chosen is the one tried most often.

Deals are drawn in proportion to how likely the others' plays were on them: a
batch is sampled, weighed, and drawn from again by weight.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from ..moves import Move, Play
from ..round import Round
from ..view import PlayerView
from .endgame import Score
from .knowledge import WorldSampler
from .value import points_per_unit

#: weight(hands): how likely a sampled deal is, up to a factor the same for every deal.
Weight = Callable[[Sequence[int]], float]

#: Deals sampled, then drawn from again by weight, at a time.
BATCH = 16


class Node:
    """The results, for the searching side, of the deals that made the move into
    this node, and how many times that move was legal when its parent was met."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Move, Node] = {}


class TreeSearch:
    """One decision's search: ``exploration`` is UCB1's constant, in points (on a
    single-hand table, a won hand counts :data:`~.value.WIN_POINTS`)."""

    def __init__(
        self,
        view: PlayerView,
        plays: list[Play],
        *,
        score: Score,
        weight: Weight | None,
        exploration: float,
        randomness: float,
        count: float,
        rng: random.Random,
        sampler: WorldSampler,
    ) -> None:
        rules = view.rules
        assert view.seat is not None
        mine = rules.side_of(view.seat)
        self.ours = [rules.side_of(s) == mine for s in range(rules.players)]
        self.view = view
        self.plays = plays
        self.score = score
        self.weight = weight
        self.exploration = exploration / points_per_unit(rules)  # in units of ``score``
        self.randomness = randomness
        self.count = count
        self.rng = rng
        self.sampler = sampler
        self.root = Node()
        self._batch: list[tuple[list[int], list[int]]] = []

    def run(self, *, iterations: int | None, deadline: float) -> Play:
        """Search ``iterations`` deals, or until ``time.perf_counter()`` reaches
        ``deadline``; the play tried most often (the first of those tied)."""
        while True:
            self.descend()
            if iterations is not None:
                if self.root.visits >= iterations:  # one visit of the root a deal
                    break
            elif time.perf_counter() >= deadline:
                break
        children = self.root.children
        visits = [children[p].visits if p in children else 0 for p in self.plays]
        return self.plays[visits.index(max(visits))]

    def descend(self) -> None:
        """One deal: down the tree, one node added, a play-out, its result along the path."""
        if not self._batch:
            self._batch = self._draw()
        hands, pile = self._batch.pop()
        r = Round.sampled(self.view, hands, pile)
        rng, ours, c = self.rng, self.ours, self.exploration
        node = self.root
        path = [node]
        while not r.over:
            moves = self.plays if node is self.root else _distinct(r)
            mover_ours = ours[r.turn]
            children = node.children
            untried: list[Move] = []
            best: Node | None = None
            best_move: Move | None = None
            best_bound = -math.inf
            for move in moves:
                child = children.get(move)
                if child is None:
                    untried.append(move)
                    continue
                child.available += 1
                mean = child.total / child.visits
                bound = (mean if mover_ours else -mean) + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if bound > best_bound:
                    best_bound, best, best_move = bound, child, move
            if untried:
                move = untried[int(rng.random() * len(untried))]
                child = Node()
                child.available = 1
                children[move] = child
                r.push(move)
                path.append(child)
                break
            assert best is not None and best_move is not None
            r.push(best_move)
            path.append(best)
            node = best
        outcome, at_end = r.finish(rng.random, self.randomness, self.count)
        value = self.score(at_end, outcome)
        for visited in path:
            visited.visits += 1
            visited.total += value

    def _draw(self) -> list[tuple[list[int], list[int]]]:
        """A batch of deals, drawn in proportion to their weight."""
        rng = self.rng
        deals = [self.sampler.sample(rng) for _ in range(BATCH)]
        if self.weight is None:
            return deals
        weights = [self.weight(hands) for hands, _ in deals]
        total = math.fsum(weights)
        if total <= 0.0:  # every weight underflowed (absurd odds): as if unweighed
            return deals
        drawn = rng.choices(deals, weights, k=BATCH)
        return [
            (list(hands), list(pile)) for hands, pile in drawn
        ]  # a deal drawn twice is searched twice


def _distinct(r: Round) -> list[Move]:
    """The moves of the seat to act, one per distinct position after it."""
    moves = r.legal_moves()
    left = r.left_end
    if left < 0 or left != r.right_end:
        return list(moves)
    return [m for m in moves if type(m) is not Play or m.end == "left"]
