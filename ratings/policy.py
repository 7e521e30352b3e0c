"""The rating policy as plain Python (no Django): formats, the number players see,
who moves, and leavers; the maths is openskill's Plackett–Luce model (Weng–Lin),
which rates a two-player game, a free-for-all and two pairs in one call.

>>> display(START.mu), START.provisional
(1500, True)
>>> a, b = Entrant(0, 0, 1, START), Entrant(1, 1, 2, START)
>>> new = rate([a, b])
>>> display(new[0].mu) - 1500, display(new[1].mu) - 1500
(79, -79)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce
from openskill.models.weng_lin.plackett_luce import PlackettLuceRating

#: The formats a player has a rating in: two players, each for themselves (3 players,
#: or 4 without partners), and four in pairs.
DUEL, FREE, PAIRS = "duel", "free", "pairs"
FORMATS = (DUEL, FREE, PAIRS)

#: The library's defaults: a new player is mu 25, sigma 25/3; beta (a match's luck)
#: 25/6, for a match played to a target score.
MODEL = PlackettLuce()
#: A single hand (blocco's) is far luckier than a match to 100: its beta is six times
#: the library's, or its chances are over-confident (the log loss of the pre-match
#: chances, measured on simulated seasons: docs/ratings.md, bench/ratings_estimate.py).
SINGLE_HAND = PlackettLuce(beta=6 * MODEL.beta)


def model_for(target: int | None) -> PlackettLuce:
    """The model rating a match played to ``target`` points (None: a single hand)."""
    return SINGLE_HAND if target is None else MODEL


#: What players read: 1500 for a new player; 30 points for each unit of mu, so that
#: differences read like Elo's (a mu ahead by sqrt(2)*beta wins about 73% of duels to a
#: target, some 175 points, as in Elo).
BASE, SCALE = 1500, 30.0
#: A rating is provisional ("1500?") while its sigma is above this: 195 points against
#: a new player's 250, some 12 to 21 matches of what people play online, more of
#: single hands alone (bench/ratings.py and bench/ratings_estimate.py measure it).
PROVISIONAL_SIGMA = 6.5


def format_of(players: int, teams: bool | None) -> str:
    """The rating format of a table of ``players`` (``teams``: in pairs)."""
    if players == 2:
        return DUEL
    return PAIRS if teams else FREE


@dataclass(frozen=True)
class Skill:
    """A rating as the model keeps it: the mean and its uncertainty."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The number players see."""
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


START = Skill(MODEL.mu, MODEL.sigma)

#: Simulated players (matchmaking's fillers) enter with the fixed rating of their
#: level, measured by ``bench/ratings.py`` (the pure computer accounts' final ratings,
#: docs/ratings.md), and are never updated.
FILLER_SKILL = {
    "easy": Skill(19.23, 2.0),  # 1327
    "medium": Skill(29.27, 2.0),  # 1628
    "hard": Skill(36.74, 2.0),  # 1852
}


def display(mu: float) -> int:
    """The familiar number for a mean: 1500 for a new player."""
    return round(BASE + SCALE * (mu - MODEL.mu))


def label(skill: Skill) -> str:
    """``1512`` or, while provisional, ``1512?``."""
    return f"{skill.shown}{'?' if skill.provisional else ''}"


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished match as the maths sees it.

    ``rank``: the seat's side's rank, 1 the best (partners share it, a tie shares
    it).  ``rated``: a person whose rating moves (a filler only takes part).
    ``left``: the person left or was away until the end: rated as a loss."""

    seat: int
    side: int
    rank: int
    skill: Skill
    rated: bool = True
    left: bool = False


def _team(entrants: Sequence[Entrant]) -> list[PlackettLuceRating]:
    return [PlackettLuceRating(e.skill.mu, e.skill.sigma) for e in entrants]


def rate(entrants: Sequence[Entrant], model: PlackettLuce = MODEL) -> dict[int, Skill]:
    """Each rated seat's new skill after the match, by seat.

    The match is rated as it ended, except that a side made only of leavers is
    put last (the computer that played their seats won nothing for them); and a
    leaver whose partner stayed is rated alone as if their side had lost."""
    sides = sorted({e.side for e in entrants})
    if len(sides) < 2:
        raise ValueError("a match has two sides or more")
    members = {s: [e for e in entrants if e.side == s] for s in sides}
    teams = [_team(members[s]) for s in sides]
    last = max(e.rank for e in entrants) + 1
    ranks = [float(last if all(e.left for e in members[s]) else members[s][0].rank) for s in sides]
    rated = model.rate(teams, ranks=ranks)
    new: dict[int, Skill] = {}
    for i, side in enumerate(sides):
        for e, r in zip(members[side], rated[i], strict=True):
            if e.rated and not (e.left and ranks[i] != last):
                new[e.seat] = Skill(r.mu, r.sigma)
    for i, side in enumerate(sides):
        for k, e in enumerate(members[side]):
            if e.rated and e.left and ranks[i] != last:
                lost = [float(last) if j == i else rank for j, rank in enumerate(ranks)]
                alone = model.rate([_team(members[s]) for s in sides], ranks=lost)[i][k]
                new[e.seat] = Skill(alone.mu, alone.sigma)
    return new


def win_chances(sides: Sequence[Sequence[Skill]], model: PlackettLuce = MODEL) -> list[float]:
    """The model's chance of each side winning, before the match."""
    teams = [[PlackettLuceRating(s.mu, s.sigma) for s in side] for side in sides]
    return list(model.predict_win(teams))
