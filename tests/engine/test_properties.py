"""Properties over random deals and random legal play, for every table the presets offer."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import ALL_TILES, DRAW, PASS, IllegalMoveError, Play, Round, Rules
from games.engine.scoring import RoundResult

from .strategies import EVERY_TABLE, random_round, seeds, tables
from .test_rules_book import _tiles_in

MAX_MOVES = 28 + 28 + 4 * 28  # every tile laid once, drawn once, and passes between


def _accounted(r: Round) -> list[int]:
    tiles = [t for h in r.hands for t in h] + list(r.boneyard) + [p.tile for p in r.line]
    return sorted(t.index for t in tiles)


@settings(max_examples=150, deadline=None)
@given(tables, seeds)
def test_all_28_tiles_are_always_accounted_for(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    r = Round.deal(rules, rng=rng)
    while True:
        assert _accounted(r) == list(range(28))
        if r.over:
            break
        r.play(rng.choice(r.legal_moves()))


@settings(max_examples=120, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=40))
def test_legal_moves_are_exactly_the_moves_the_round_accepts(
    rules: Rules, seed: int, depth: int
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    legal = r.legal_moves()
    if r.over:
        assert legal == ()
        return
    candidates = [Play(t, end) for t in ALL_TILES for end in ("left", "right")] + [DRAW, PASS]
    accepted = []
    for move in candidates:
        twin = r.copy()
        before = twin.position()
        try:
            twin.play(move)
        except IllegalMoveError:
            assert twin.position() == before  # a refused move changes nothing
            continue
        accepted.append(move)
    if r.ends is None:  # on an empty line both ends are one place
        accepted = [m for m in accepted if not (isinstance(m, Play) and m.end == "right")]
    assert set(accepted) == set(legal)
    hand = r.hands[r.turn]
    fitting = [t for t in hand if r.ends is None or any(t.has(n) for n in r.ends)]
    played = {m.tile for m in legal if isinstance(m, Play)}
    if r.ends is not None:
        assert played == set(fitting)  # every playable tile appears among the legal moves
    assert (DRAW in legal) == (not fitting and rules.draw and bool(r.boneyard))


@settings(max_examples=200, deadline=None)
@given(tables, seeds)
def test_a_round_always_ends(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    r = Round.deal(rules, rng=rng)
    for _ in range(MAX_MOVES):
        if r.over:
            break
        r.play(rng.choice(r.legal_moves()))
    assert r.over and r.result is not None


def _expected(rules: Rules, r: Round) -> tuple[tuple[int, ...], int]:
    """docs/rules.md §4 computed directly from the final hands."""
    pips = [sum(t.value for t in h) for h in r.hands]
    sides = {rules.side_of(s) for s in range(rules.players)}
    side_pips = {
        side: sum(p for s, p in enumerate(pips) if rules.side_of(s) == side) for side in sides
    }
    empty = [s for s, h in enumerate(r.hands) if not h]
    if empty:
        side = rules.side_of(empty[0])
        return tuple(s for s in range(rules.players) if rules.side_of(s) == side), sum(
            p for other, p in side_pips.items() if other != side
        )
    low = min(side_pips.values())
    winners = [side for side, p in side_pips.items() if p == low]
    if len(winners) > 1:
        return (), 0
    side = winners[0]
    points = {
        "all": sum(pips),
        "difference": sum(p - low for p in side_pips.values()),
        "none": 0,
    }[rules.blocked_scoring]
    return tuple(s for s in range(rules.players) if rules.side_of(s) == side), points


@settings(max_examples=250, deadline=None)
@given(tables, seeds)
def test_scores_follow_section_4(rules: Rules, seed: int) -> None:
    r = random_round(rules, seed)
    result = r.result
    assert isinstance(result, RoundResult)
    winners, points = _expected(rules, r)
    assert tuple(sorted(result.winners)) == winners
    assert result.points == points
    assert result.reason == ("domino" if any(not h for h in r.hands) else "blocked")
    if result.reason == "blocked":  # truly nobody could play
        assert r.ends is not None
        assert not any(t.has(n) for h in r.hands for t in h for n in r.ends)


@settings(max_examples=150, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=60))
def test_a_player_view_never_holds_another_hands_tile_or_the_boneyards(
    rules: Rules, seed: int, depth: int
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    for seat in [*range(rules.players), None]:
        view = r.view(seat)
        seen = _tiles_in(view)
        if r.over:
            continue
        hidden = {t for s, h in enumerate(r.hands) if s != seat for t in h} | set(r.boneyard)
        assert not seen & hidden
        own = set(r.hands[seat]) if seat is not None else set()
        assert seen <= own | {p.tile for p in r.line}


def test_every_offered_table_is_covered() -> None:
    assert len(EVERY_TABLE) == 4 + 6 + 1 + 2
