"""Level ``hard``: Monte Carlo search over deals consistent with the view.

By default the deals descend a tree of moves (:mod:`.tree`): the others answer
each play as the search learns they would.  The flat search below (``tree=0``)
plays every candidate out at random on each deal; it is what the coach weighs
plays with, and the classic bot.

In the flat search each iteration deals the unseen tiles at random, consistently
with everything public (:class:`~games.engine.bots.knowledge.WorldSampler`), then
plays every candidate move in that deal to the end of the hand (:meth:`Round.finish
<games.engine.round.Round.finish>`, the candidate pushed on a
:class:`~games.engine.round.Round` of the deal, then taken back; half the
play-outs' moves at random, half greedy: the heaviest tile, less what the
others may follow with), every candidate on the same deal and the same random
numbers, so that their difference is the move's own.  The move with the best
average result for this seat's side is laid, each deal weighed by how likely the
other seats' plays were on it (they are taken to prefer heavy tiles and doubles,
as most players do: a seat that laid 1|0 where 6|5 fitted probably did not hold
6|5).
With a time budget, the search goes on past it while the two best candidates
are within the noise of each other, and stops at half of it once one clearly
leads: the time goes where it can change the move.  Optionally, candidates
that fall clearly behind are dropped, and the search ends early once a single
one is left.

The result of a hand is the side's margin: the points it scores, or minus the
points an opposing side scores (shared among the opponents with three or more
sides), plus a bonus for winning the hand; a single-hand table counts the win
alone.  Optionally (``match_aware``), when the view carries the match scores,
a hand that takes a side to the target counts as the match won or lost instead
(:mod:`.value`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from itertools import cycle

from ..moves import Draw, Play
from ..round import Round
from ..tiles import HIGH, LOW, SUIT, VALUE
from ..view import PlayerView
from .base import WeighingBot
from .endgame import EndgameSolver, Score
from .knowledge import Knowledge, WorldSampler
from .tree import TreeSearch
from .value import margin_scorer, match_scorer

#: The site's thinking time per decision, in milliseconds.
DEFAULT_BUDGET_MS = 40.0

#: How much likelier the others are taken to lay a tile one pip heavier (1: not at
#: all, every sampled deal counts the same: the bot before this reading, "classic").
DEFAULT_INFER = 1.3

#: How long a close decision may take in all, in milliseconds (the budget is spent
#: where it changes the move: see docs/bots.md).
DEFAULT_EXTEND_MS = 70.0

#: What a tile out of sight showing a number left open costs the play-outs' greedy
#: moves, in pips (0: they lay the heaviest tile; see docs/bots.md).
DEFAULT_COUNT = 2.0

#: The tree search's exploration constant, in points (0: the flat search; see
#: docs/bots.md, "Why a tree").
DEFAULT_TREE = 80.0

# Random numbers shared by every candidate's play-out on one deal, read in a
# cycle: about as many as a play-out uses (one to three per tile laid).
_NUMBERS_PER_DEAL = 37


class HardBot(WeighingBot):
    """Searches sampled deals within a time budget (or a fixed number of them)."""

    level = "hard"

    def __init__(
        self,
        *,
        seed: int | None = None,
        budget_ms: float = DEFAULT_BUDGET_MS,
        iterations: int | None = None,
        randomness: float = 0.5,
        win_bonus: float = 10.0,
        endgame_tiles: int = 0,
        prune_z: float = 0.0,
        infer: float = DEFAULT_INFER,
        infer_double: int = 4,
        extend_ms: float = DEFAULT_EXTEND_MS,
        extend_z: float = 1.0,
        settle_z: float = 5.0,
        match_aware: bool = False,
        count: float = DEFAULT_COUNT,
        tree: float = DEFAULT_TREE,
    ) -> None:
        """``iterations``: deals per decision, which makes the bot deterministic for a
        ``seed`` and ignores ``budget_ms``; ``randomness``: the play-outs' share of
        random moves (the rest are greedy); ``win_bonus``: points a won hand is worth
        on top of its score; ``endgame_tiles``: with this many tiles or fewer left to
        play (in hands, and in the boneyard when drawing), each deal is played out
        exactly (:mod:`~games.engine.bots.endgame`) instead of at random (off by
        default: measured no stronger, see docs/bots.md);
        ``prune_z``: a candidate whose paired deficit to the best exceeds this many
        standard errors is dropped, and the search stops when one is left (saves
        time, but measured a little weaker: off, 0, by default; see docs/bots.md);
        ``infer``: each sampled deal is weighed by how likely the other seats' plays
        were on it, taking each to lay a fitting tile with odds ``infer`` to the
        power of its pips, plus ``infer_double`` for a double (1 weighs every deal
        the same); ``extend_ms``: when the budget is spent and the two best
        candidates are still within ``extend_z`` standard errors of each other, the
        search goes on, checking again every quarter of the budget, up to this many
        milliseconds in all (0: off); ``settle_z``: the search stops at half the
        budget if the best candidate leads the second by more than this many
        standard errors (0: off).  The last three apply to a time budget only.
        ``match_aware``: when the view carries the match scores, a play-out that
        ends the match counts as the match won or lost, not as its margin
        (:func:`~games.engine.bots.value.match_scorer`; off by default: measured
        no stronger, see docs/bots.md).
        ``count``: the play-outs' greedy moves count the tiles (:meth:`Round.play_out
        <games.engine.round.Round.play_out>`): each tile out of the mover's sight
        that shows a number the move leaves open costs this many pips (0: off).
        ``tree``: when positive (the default), the search is a tree of moves over
        the deals (:mod:`~games.engine.bots.tree`), ``tree`` its exploration
        constant in points (a won single hand counts 40); the time options,
        ``endgame_tiles`` and ``prune_z`` apply to the flat search only
        (``tree=0``), which :meth:`evaluate` always runs.
        ``hard:tree=0,infer=1,extend_ms=0,settle_z=0,count=0`` is the bot as it was
        before the reading, the time spent where the move is close, the counting
        and the tree ("classic")."""
        if budget_ms <= 0 and iterations is None:
            raise ValueError("the hard bot needs a positive time budget or a number of iterations")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        super().__init__(seed=seed)
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.randomness = randomness
        self.win_bonus = win_bonus
        self.endgame_tiles = endgame_tiles
        self.prune_z = prune_z
        if infer < 1.0:
            raise ValueError(f"infer is a ratio of at least 1 (1 is off), not {infer}")
        self.infer = infer
        self.infer_double = infer_double
        self.extend_ms = extend_ms
        self.extend_z = extend_z
        self.settle_z = settle_z
        self.match_aware = bool(match_aware)
        self.count = count
        if tree < 0:
            raise ValueError(f"tree is an exploration constant (0 is off), not {tree}")
        self.tree = tree

    def pick(self, view: PlayerView, plays: list[Play]) -> Play:
        """The candidate play with the best average result over sampled deals (with
        ``tree``: the play the tree search tried most)."""
        if self.tree > 0:
            knowledge = Knowledge.from_view(view)
            likelihood = self._likelihood(view, knowledge)
            search = TreeSearch(
                view,
                plays,
                score=_scorer(self, view),
                weight=None if likelihood is None else likelihood.weight,
                exploration=self.tree,
                randomness=self.randomness,
                count=self.count,
                rng=self._rng,
                sampler=WorldSampler(knowledge),
            )
            deadline = time.perf_counter() + self.budget_ms / 1000.0
            return search.run(iterations=self.iterations, deadline=deadline)
        means = [-math.inf if m is None else m for m in self.evaluate(view, plays)]
        return plays[means.index(max(means))]

    def evaluate(self, view: PlayerView, plays: list[Play]) -> list[float | None]:
        """Each play's average result over the sampled deals; None for a play dropped
        as clearly worse than another."""
        start = time.perf_counter()
        deadline = start + self.budget_ms / 1000.0
        halfway = start + self.budget_ms / 2000.0 if self.settle_z > 0 else math.inf
        last_call = start + self.extend_ms / 1000.0  # the extended search's end
        trial = _Trial(self, view, plays, self._rng.random)
        knowledge = Knowledge.from_view(view)
        sampler = WorldSampler(knowledge)
        likelihood = self._likelihood(view, knowledge)
        weights: list[float] = []
        rng = self._rng
        results: list[list[float]] = [[] for _ in plays]
        alive = list(range(len(plays)))
        deals = 0
        checkpoint = _FIRST_CHECK
        while True:
            hands, pile = sampler.sample(rng)
            if likelihood is not None:
                weights.append(likelihood.weight(hands))
            for k, value in zip(alive, trial.results(hands, pile, alive), strict=True):
                results[k].append(value)
            deals += 1
            if self.iterations is not None:
                if deals >= self.iterations:
                    break
            elif (now := time.perf_counter()) >= halfway:
                halfway = math.inf
                if not _close(results, weights, alive, self.settle_z):
                    break
            elif now >= deadline:
                if now >= last_call or not _close(results, weights, alive, self.extend_z):
                    break
                deadline = min(now + self.budget_ms / 4000.0, last_call)
            if deals == checkpoint and self.prune_z > 0:
                checkpoint *= 2
                alive = _survivors(results, alive, self.prune_z)
                if len(alive) == 1:
                    break
        # fsum, correctly rounded: the builtin sum() of floats rounds differently from
        # Python 3.12 on (Pyodide's 3.14), which tipped tied candidates differently.
        total = math.fsum(weights)
        if total > 0.0:  # weighed (0: not weighing, or every weight underflowed at absurd odds)
            return [
                math.fsum([w * v for w, v in zip(weights, results[k], strict=True)]) / total
                if k in alive
                else None
                for k in range(len(plays))
            ]
        return [math.fsum(results[k]) / deals if k in alive else None for k in range(len(plays))]

    def _likelihood(self, view: PlayerView, knowledge: Knowledge) -> _Likelihood | None:
        """How the sampled deals are weighed (None: all alike)."""
        if self.infer > 1.0:
            return _Likelihood(view, knowledge, self.infer, self.infer_double)
        return None


def _close(results: list[list[float]], weights: list[float], alive: list[int], z: float) -> bool:
    """The two best live candidates are within ``z`` standard errors of each other
    (their paired difference over the deals, each deal weighed as in the mean)."""
    if len(alive) < 2:
        return False
    n = len(results[alive[0]])
    w = weights if weights else [1.0] * n
    total = math.fsum(w)
    if total <= 0.0:
        return False

    def weighed(values: list[float]) -> float:
        return math.fsum([a * v for a, v in zip(w, values, strict=True)])

    ranked = sorted(alive, key=lambda k: -weighed(results[k]))
    best, second = results[ranked[0]], results[ranked[1]]
    gaps = [b - s for b, s in zip(best, second, strict=True)]
    mean = weighed(gaps) / total
    spread = math.fsum([(a * (g - mean)) ** 2 for a, g in zip(w, gaps, strict=True)])
    spread /= total * total
    return mean <= z * math.sqrt(spread)


# Pruning looks at the deals so far after this many, then each time their number doubles.
_FIRST_CHECK = 24


def _survivors(results: list[list[float]], alive: list[int], z: float) -> list[int]:
    """The candidates not clearly worse than the best, on the same deals.

    A candidate goes when its mean deficit to the best exceeds ``z`` standard
    errors, or when it has done exactly as well as the best on every deal (a
    twin: keeping one of them is enough).
    """
    best = max(alive, key=lambda k: math.fsum(results[k]))  # fsum: as in HardBot.evaluate
    top = results[best]
    kept = []
    for k in alive:
        if k == best:
            kept.append(k)
            continue
        gaps = [b - v for b, v in zip(top, results[k], strict=True)]
        n = len(gaps)
        mean = math.fsum(gaps) / n
        spread = math.fsum((g - mean) * (g - mean) for g in gaps) / (n - 1)
        if not any(gaps) or mean > z * math.sqrt(spread / n):
            continue
        kept.append(k)
    return kept


class _Likelihood:
    """How likely the plays the other seats made are on a sampled deal.

    A seat is taken to lay each fitting tile with odds ``ratio`` to the power of
    its weight (its pips, plus ``double`` for a double): heavy tiles and doubles
    go first, as most players lay them.  Its hand at each of its plays is its
    sampled hand now plus the tiles it laid since (plays before its last draw
    are left out: the tiles it drew then are not known).  The chosen tile's own
    odds are the same on every deal, so a deal's weight is one over the product
    of each play's total odds.  Powers are taken by multiplying (no ``exp``,
    whose last bit may differ between C libraries).
    """

    def __init__(self, view: PlayerView, knowledge: Knowledge, ratio: float, double: int) -> None:
        odds = []
        for i in range(len(VALUE)):
            value = 1.0
            for _ in range(VALUE[i] + (double if HIGH[i] == LOW[i] else 0)):
                value *= ratio
            odds.append(value)
        self._odds = {1 << i: o for i, o in enumerate(odds)}
        me = knowledge.seat
        later = [0] * knowledge.players  # tiles each seat laid after the play at hand
        stopped = [False] * knowledge.players
        terms: list[tuple[int, int, float]] = []
        for event in reversed(view.log):
            seat, move = event.seat, event.move
            if seat == me or stopped[seat]:
                continue
            if type(move) is Draw:
                stopped[seat] = True
                continue
            if type(move) is not Play or event.ends is None:
                continue
            bit = move.tile.bit
            fits = SUIT[event.ends[0]] | SUIT[event.ends[1]]
            known = (later[seat] | bit) & fits
            later[seat] |= bit
            hidden = fits & knowledge.possible(seat)
            if hidden:  # otherwise the play's odds are the same on every deal
                terms.append((seat, hidden, self._sum(known)))
        self._terms = terms

    def _sum(self, mask: int) -> float:
        odds = self._odds
        total = 0.0
        while mask:
            low = mask & -mask
            total += odds[low]
            mask ^= low
        return total

    def weight(self, hands: Sequence[int]) -> float:
        """The deal's weight, up to a factor the same for every deal."""
        product = 1.0
        odds = self._odds
        for seat, hidden, known in self._terms:
            total = known
            mask = hands[seat] & hidden
            while mask:  # _sum's loop, written out: it runs for every term of every deal
                low = mask & -mask
                total += odds[low]
                mask ^= low
            product *= total
        return 1.0 / product


def _scorer(bot: HardBot, view: PlayerView) -> Score:
    """What a finished play-out is worth to ``view``'s side, as ``bot`` counts it."""
    assert view.seat is not None
    if bot.match_aware and view.match_scores is not None:
        return match_scorer(view.rules, view.seat, bot.win_bonus, view.match_scores)
    return margin_scorer(view.rules, view.seat, bot.win_bonus)


class _Trial:
    """Plays every live candidate on one sampled deal: at random, or exactly late on."""

    def __init__(
        self, bot: HardBot, view: PlayerView, plays: list[Play], uniform: Callable[[], float]
    ) -> None:
        rules = view.rules
        seat = view.seat
        assert seat is not None
        self.view = view
        self.plays = plays
        self.randomness = bot.randomness
        self.count = bot.count
        self.uniform = uniform
        self.score = _scorer(bot, view)
        left_to_play = sum(view.hand_counts) + (view.boneyard_count if rules.draw else 0)
        self.solver = None
        if left_to_play <= bot.endgame_tiles:
            self.solver = EndgameSolver(rules, seat, self.score)

    def results(self, hands: list[int], pile: list[int], alive: list[int]) -> list[float]:
        """The result of each live candidate on this deal, in the order of ``alive``."""
        r = Round.sampled(self.view, hands, pile)
        score, solver = self.score, self.solver
        values = []
        if solver is not None:
            solver.new_deal()
        else:
            numbers = [self.uniform() for _ in range(_NUMBERS_PER_DEAL)]
        for k in alive:
            r.push(self.plays[k])
            if solver is not None:
                values.append(solver.value(r))
            else:
                outcome, at_end = r.finish(cycle(numbers).__next__, self.randomness, self.count)
                values.append(score(at_end, outcome))
            r.pop()
        return values
