"""What a seat deduces about hidden tiles, and the deals sampled from it."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import DRAW, PASS, PRESETS, Round, Rules, Tile, parse_move
from games.engine.bots.knowledge import Knowledge, WorldSampler
from games.engine.tiles import SUIT, mask_of

from .strategies import random_round, seeds, tables


def _voids_since_last_draw(r: Round, seat: int) -> set[int]:
    """Numbers ``seat`` passed or drew on since its last draw: it holds none of them.

    None while it is still drawing: the tile it just drew may fit.
    """
    if r.log and r.log[-1].seat == seat and r.log[-1].move == DRAW:
        return set()
    numbers: set[int] = set()
    for event in r.log:
        if event.seat != seat or event.ends is None:
            continue
        if event.move == DRAW:
            numbers = set(event.ends)
        elif event.move == PASS:
            numbers |= set(event.ends)
    return numbers


def _check_world(r: Round, seat: int, hands: list[int], pile: list[int]) -> None:
    """A sampled deal agrees with everything ``seat`` can see (checked independently)."""
    view = r.view(seat)
    assert hands[seat] == mask_of(view.hand)
    assert [h.bit_count() for h in hands] == list(view.hand_counts)
    assert len(pile) == view.boneyard_count
    on_table = mask_of(p.tile for p in view.line)
    every = [*hands, *(1 << i for i in pile), on_table]
    assert sum(m.bit_count() for m in every) == 28
    union = 0
    for m in every:
        union |= m
    assert union == (1 << 28) - 1
    for other in range(r.rules.players):
        if other == seat:
            continue
        for number in _voids_since_last_draw(r, other):
            assert not hands[other] & SUIT[number], (other, number)


@settings(max_examples=120, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=45))
def test_sampled_deals_agree_with_the_public_information(
    rules: Rules, seed: int, depth: int
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    rng = random.Random(seed)
    for seat in range(rules.players):
        knowledge = Knowledge.from_view(r.view(seat))
        sampler = WorldSampler(knowledge)
        for _ in range(5):
            hands, pile = sampler.sample(rng)
            _check_world(r, seat, hands, pile)
            assert knowledge.consistent(hands, pile)


@settings(max_examples=120, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=45))
def test_the_deductions_are_sound_the_real_deal_is_always_possible(
    rules: Rules, seed: int, depth: int
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    truth = [r.hand_mask(s) for s in range(rules.players)]
    pile = [t.index for t in reversed(r.boneyard)]
    for seat in range(rules.players):
        assert Knowledge.from_view(r.view(seat)).consistent(truth, pile)


def test_a_pass_shows_the_seat_holds_neither_number() -> None:
    block = replace(PRESETS["luciano"], draw=False)
    r = Round.from_position(
        block, "hands=6|4,1|1/5|0,2|1 boneyard=3|3,5|5 line=6|3 turn=1 dealer=0"
    )
    r.play(PASS)
    knowledge = Knowledge.from_view(r.view(0))
    assert knowledge.cannot_match(1, 6) and knowledge.cannot_match(1, 3)
    assert not knowledge.cannot_match(1, 0)


def test_a_draw_restarts_what_the_seat_cannot_hold() -> None:
    r = Round.from_position(
        PRESETS["duello"],
        "hands=5|1,4|4/5|0,2|2 boneyard=4|0,6|5,6|6,3|0,1|1 line=6|3 turn=1 dealer=0",
    )
    for move in ["draw", "draw", "6|5L"]:  # seat 1 cannot match 6 or 3
        r.play(parse_move(move))
    assert Knowledge.from_view(r.view(0)).cannot_match(1, 6)
    for move in ["5|1L", "draw", "draw", "3|0R"]:  # facing 1 and 3 it draws 6|6, then 3|0
        r.play(parse_move(move))
    knowledge = Knowledge.from_view(r.view(0))
    assert not knowledge.cannot_match(1, 6)  # it holds 6|6 now
    assert knowledge.cannot_match(1, 1) and knowledge.cannot_match(1, 3)
    truth = [r.hand_mask(s) for s in range(2)]
    assert knowledge.consistent(truth, [t.index for t in reversed(r.boneyard)])


def test_the_forced_opening_shows_nobody_holds_a_higher_double() -> None:
    rules = replace(PRESETS["domino"], players=3, hand_size=5)
    rng = random.Random(2)
    for _ in range(200):
        r = Round.deal(rules, rng=rng)
        if r.opening_tile != Tile(5, 5):
            continue
        r.play(r.legal_moves()[0])
        seat = r.turn
        sampler = WorldSampler(Knowledge.from_view(r.view(seat)))
        six_six = Tile(6, 6).bit
        for _ in range(20):
            hands, pile = sampler.sample(rng)
            assert not any(h & six_six for h in hands)  # 6|6 is in the boneyard
            assert Tile(6, 6).index in pile
        return
    raise AssertionError("no deal opened with 5|5")


def test_tight_constraints_are_solved_by_the_checked_placement() -> None:
    # Seat 1 may hold only 6s; seat 2 no 6s at all; the boneyard takes the rest.
    unseen = SUIT[6] | SUIT[5]
    knowledge = Knowledge(
        seat=0,
        hand=0,
        unseen=unseen,
        counts=(0, 7, 4),
        boneyard=2,
        excluded=(0, unseen & ~SUIT[6], SUIT[6]),
    )
    rng = random.Random(1)
    for sampler in (WorldSampler(knowledge), WorldSampler(knowledge, retries=0)):
        seen_in_pile = 0
        for _ in range(50):
            hands, pile = sampler.sample(rng)
            assert knowledge.consistent(hands, pile)
            assert hands[1] == SUIT[6]
            for i in pile:
                seen_in_pile |= 1 << i
        assert seen_in_pile == SUIT[5] & ~SUIT[6]  # every 5 reaches the boneyard sometimes


def test_contradictory_deductions_are_dropped_rather_than_failing() -> None:
    unseen = SUIT[6]
    knowledge = Knowledge(
        seat=0, hand=0, unseen=unseen, counts=(0, 4, 3), boneyard=0, excluded=(0, unseen, unseen)
    )
    hands, pile = WorldSampler(knowledge).sample(random.Random(3))
    assert hands[1] | hands[2] == unseen and pile == []


def test_tiles_left_out_of_a_set_up_position_are_dealt_to_nobody() -> None:
    r = Round.from_position(
        PRESETS["duello"], "hands=6|6,6|1/1|0 boneyard=2|2 line=5|5 turn=0 dealer=1"
    )
    knowledge = Knowledge.from_view(r.view(0))
    hands, pile = WorldSampler(knowledge).sample(random.Random(4))
    assert hands[1].bit_count() == 1 and len(pile) == 1
    assert knowledge.consistent(hands, pile)
