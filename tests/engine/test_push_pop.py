"""The fast path (push, pop, fitting_ends) agrees with positions replayed from their text."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import DRAW, PASS, PRESETS, IllegalMoveError, Play, Round, Rules
from games.engine.round import BLOCKED

from .strategies import random_round, seeds, tables


def _snapshot(r: Round) -> tuple[object, ...]:
    """Everything a reader of the round can see, as comparable values."""
    return (
        r.position(),
        r.initial_position,
        r.log,
        r.line,
        r.moves,
        r.legal_moves(),
        r.over,
        r.outcome,
        r.result,
        r.fitting_ends(),
        r.view(r.turn),
        r.view(None),
    )


def _wander(r: Round, rng: random.Random, steps: int) -> None:
    """Random legal moves made and taken back, in any order."""
    for _ in range(steps):
        if r.moves and (r.over or rng.random() < 0.3):
            r.pop()
        elif not r.over:
            r.push(rng.choice(r.legal_moves()))


@settings(max_examples=200, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=40), st.integers(1, 60))
def test_pop_returns_exactly_to_the_same_position_after_any_sequence(
    rules: Rules, seed: int, depth: int, steps: int
) -> None:
    rng = random.Random(seed)
    r = random_round(rules, seed, stop_after=depth)
    start = len(r.moves)
    before = [_snapshot(r)]
    made = []
    for _ in range(steps):
        if r.over:
            break
        move = rng.choice(r.legal_moves())
        r.push(move)
        made.append(move)
        before.append(_snapshot(r))
    before.pop()
    while made:
        assert r.pop() is made.pop()
        assert _snapshot(r) == before.pop()
    assert len(r.moves) == start


@settings(max_examples=200, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=40), st.integers(0, 80))
def test_the_fast_path_agrees_with_the_position_replayed_from_text(
    rules: Rules, seed: int, depth: int, steps: int
) -> None:
    rng = random.Random(seed ^ 0x5EED)
    r = random_round(rules, seed, stop_after=depth)
    _wander(r, rng, steps)
    from_text = Round.from_position(rules, r.position())
    assert from_text.position() == r.position()
    assert from_text.legal_moves() == r.legal_moves()
    assert (from_text.over, from_text.outcome, from_text.result) == (r.over, r.outcome, r.result)
    assert from_text.fitting_ends() == r.fitting_ends()
    replayed = Round.replay(rules, r.initial_position, r.moves)  # every move checked
    assert replayed.position() == r.position() and replayed.log == r.log
    on_left, on_right = r.fitting_ends()
    plays = [(m.tile.index, m.end) for m in r.legal_moves() if isinstance(m, Play)]
    assert {i for i, end in plays if end == "left"} == {i for i in range(28) if on_left >> i & 1}
    if r.ends is not None:
        assert {i for i, end in plays if end == "right"} == {
            i for i in range(28) if on_right >> i & 1
        }
    if not r.over and not plays:
        assert r.legal_moves() == (r.stuck_move(),)


@settings(max_examples=120, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=40))
def test_a_checked_play_is_taken_back_by_pop_and_a_refused_one_changes_nothing(
    rules: Rules, seed: int, depth: int
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    own = r.hands[r.turn] if not r.over else ()
    for move in [*(Play(t, e) for t in own for e in ("left", "right")), DRAW, PASS]:
        before = r.position()
        try:
            r.play(move)
        except IllegalMoveError:
            assert r.position() == before
            continue
        r.pop()
        assert r.position() == before


@settings(max_examples=100, deadline=None)
@given(tables, seeds)
def test_random_games_through_push_end_with_every_tile_accounted_for(
    rules: Rules, seed: int
) -> None:
    rng = random.Random(seed)
    r = Round.deal(rules, rng=rng, dealer=rng.randrange(rules.players))
    while not r.over:
        r.push(rng.choice(r.legal_moves()))
        tiles = [t for h in r.hands for t in h] + list(r.boneyard) + [p.tile for p in r.line]
        assert sorted(t.index for t in tiles) == list(range(28))
    result = r.result
    assert result is not None
    assert (r.outcome == BLOCKED) == (result.reason == "blocked")
    assert r.legal_moves() == () and r.fitting_ends() == (0, 0)


def test_pop_with_nothing_to_take_back_is_refused() -> None:
    r = Round.deal(PRESETS["duello"], rng=random.Random(1))
    with pytest.raises(IndexError, match="no move to take back"):
        r.pop()


@settings(max_examples=100, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=30), st.integers(0, 60))
def test_pop_to_takes_back_what_pops_one_by_one_take_back(
    rules: Rules, seed: int, depth: int, steps: int
) -> None:
    rng = random.Random(seed)
    r = random_round(rules, seed, stop_after=depth)
    _wander(r, rng, steps)
    keep = rng.randint(0, len(r.moves))
    one_by_one = r.copy()
    while len(one_by_one.moves) > keep:
        one_by_one.pop()
    r.pop_to(keep)
    assert _snapshot(r) == _snapshot(one_by_one)
    with pytest.raises(IndexError):
        r.pop_to(keep + 1)


@pytest.mark.parametrize("seed", range(20))
def test_a_seeded_deal_is_the_one_random_shuffle_gives(seed: int) -> None:
    deck = list(range(28))
    random.Random(seed).shuffle(deck)
    hands = [deck[s : s + 7] for s in range(0, 28, 7)]
    r = Round.deal(replace(PRESETS["domino"], players=4, hand_size=7), rng=random.Random(seed))
    assert [sorted(t.index for t in h) for h in r.hands] == [sorted(h) for h in hands]
    duello = Round.deal(PRESETS["duello"], rng=random.Random(seed))
    assert [t.index for t in duello.boneyard] == deck[14:]
