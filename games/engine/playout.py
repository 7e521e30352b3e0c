"""Fast play to the end of a hand, on bare tile masks.

:class:`~games.engine.round.Round` is the referee: it validates every move and
keeps the line and the log.  Searching bots need millions of moves a minute
and no referee, so this module plays the same rules (docs/rules.md §3) on bare
masks with a simple policy.  A test plays both side by side to prove they agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .round import find_opening
from .rules import Rules
from .scoring import RoundResult, score_blocked, score_domino
from .tiles import _BITS_HI, _BITS_LO, _HALF, _HALF_MASK, HIGH, LOW, SUIT, VALUE

BLOCKED: Final = -1


def _heaviest(bits: tuple[int, ...]) -> int:
    best = -1
    for i in bits:
        if best < 0 or (VALUE[i], i) > (VALUE[best], best):
            best = i
    return best


# The heaviest tile in each 14-bit half of a mask (-1 for none), ties to the higher half.
_HEAVY_LO: Final = tuple(_heaviest(b) for b in _BITS_LO)
_HEAVY_HI: Final = tuple(_heaviest(b) for b in _BITS_HI)
_KEY: Final = tuple(v * 32 + i for i, v in enumerate(VALUE))
# _OTHER_HALF[i][n]: the other half of tile i laid on an end showing n; -1 if it does not fit.
_OTHER_HALF: Final = tuple(
    tuple(LOW[i] if HIGH[i] == n else HIGH[i] if LOW[i] == n else -1 for n in range(7))
    for i in range(28)
)
_DECK: Final = tuple(range(28))
_BIT: Final = tuple(1 << i for i in _DECK)


def play_out(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    pile: list[int],
    draws: bool,
    rnd: Callable[[], float],
    randomness: float = 1.0,
) -> int:
    """Play on from an opened line until the hand ends; ``hands`` and ``pile`` change.

    ``pile`` is the boneyard, next tile to draw last.  Each move is random with
    probability ``randomness`` (uniform over the fitting tiles, then over the
    ends it fits), otherwise greedy: the heaviest fitting tile, on the left
    end when it fits both.  Returns the seat that went out, or ``BLOCKED``.
    """
    players = len(hands)
    suit = SUIT
    bits_lo, bits_hi, half, half_mask = _BITS_LO, _BITS_HI, _HALF, _HALF_MASK
    heavy_lo, heavy_hi, key = _HEAVY_LO, _HEAVY_HI, _KEY
    other = _OTHER_HALF
    always_random = randomness >= 1.0
    ends_suit = suit[left] | suit[right]
    stuck = 0
    while True:
        hand = hands[turn]
        fits = hand & ends_suit
        if not fits and draws and pile:
            while pile:
                i = pile.pop()
                hand |= 1 << i
                if ends_suit >> i & 1:
                    fits = 1 << i
                    break
            hands[turn] = hand
        if fits:
            if not fits & (fits - 1):  # a single tile fits: nothing to choose but the end
                i = fits.bit_length() - 1
                randomly = always_random
            elif always_random or rnd() < randomness:
                choices = bits_lo[fits & half_mask] + bits_hi[fits >> half]
                i = choices[int(rnd() * len(choices))]
                randomly = True
            else:
                i = heavy_hi[fits >> half]
                j = heavy_lo[fits & half_mask]
                if i < 0 or (j >= 0 and key[j] > key[i]):
                    i = j
                randomly = False
            hand ^= 1 << i
            hands[turn] = hand
            halves = other[i]
            if halves[left] >= 0:
                if randomly and halves[right] >= 0 and rnd() < 0.5:
                    right = halves[right]
                else:
                    left = halves[left]
            else:
                right = halves[right]
            ends_suit = suit[left] | suit[right]
            if not hand:
                return turn
            stuck = 0
        else:
            stuck += 1
            if stuck == players:
                return BLOCKED
        turn += 1
        if turn == players:
            turn = 0


def score_play_out(rules: Rules, hands: list[int], outcome: int) -> RoundResult:
    """Score the end reached by :func:`play_out`."""
    if outcome == BLOCKED:
        return score_blocked(rules, hands)
    return score_domino(rules, hands, outcome)


def quick_deal(players: int, size: int, rnd: Callable[[], float]) -> tuple[list[int], list[int]]:
    """Shuffle on ``rnd`` and deal: hand masks and the pile.

    Sorting on random keys is a uniform shuffle (a tie between two 53-bit
    floats is negligible) and runs in C, a quarter cheaper than Fisher–Yates
    in Python.  Not for real tables — :meth:`Round.deal` shuffles with the
    secure generator.
    """
    keys = [rnd() for _ in _DECK]
    deck = sorted(_DECK, key=keys.__getitem__)
    bits = [_BIT[i] for i in deck]
    dealt = players * size
    hands = [sum(bits[start : start + size]) for start in range(0, dealt, size)]
    return hands, deck[dealt:]


def random_hand(rules: Rules, rng: random.Random) -> RoundResult:
    """Deal and play one hand of uniformly random legal play (for benchmarks)."""
    hands, pile = quick_deal(rules.players, rules.hand_size, rng.random)
    seat, tile = find_opening(hands, 0)
    hands[seat] ^= 1 << tile
    outcome = play_out(
        hands, HIGH[tile], LOW[tile], (seat + 1) % rules.players, pile, rules.draws, rng.random
    )
    return score_play_out(rules, hands, outcome)
