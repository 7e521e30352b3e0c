"""Text forms round-trip: tiles, moves, positions, rules and whole match records."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import ALL_TILES, DRAW, PASS, PRESETS, Match, Play, Round, Rules, Tile, parse_move
from games.engine.tiles import Placed

from .strategies import EVERY_TABLE, random_round, seeds, tables


def test_tile_text_round_trips_for_all_28() -> None:
    for tile in ALL_TILES:
        assert Tile.parse(str(tile)) is tile
    assert str(Tile(3, 5)) == "5|3" and Tile(3, 5) == Tile(5, 3)
    assert Tile.parse("[4-6]") is Tile(6, 4)


@pytest.mark.parametrize("text", ["7|1", "6|", "x|1", "6|4|2", ""])
def test_bad_tile_text_is_refused_with_a_clear_message(text: str) -> None:
    with pytest.raises(ValueError, match="tile"):
        Tile.parse(text)


def test_tiles_are_immutable_values() -> None:
    with pytest.raises(AttributeError):
        Tile(6, 4).high = 5  # type: ignore[misc]
    assert len({Tile(6, 4), Tile(4, 6)}) == 1


def test_move_text_round_trips() -> None:
    moves = [Play(t, end) for t in ALL_TILES for end in ("left", "right")] + [DRAW, PASS]
    for move in moves:
        assert parse_move(str(move)) == move
    assert parse_move("6|4 right") == Play(Tile(6, 4), "right")
    with pytest.raises(ValueError, match="not a move"):
        parse_move("jump")


def test_placed_tiles_keep_their_orientation() -> None:
    assert str(Placed.parse("3|6")) == "3|6" and Placed.parse("3|6").tile is Tile(6, 3)


@settings(max_examples=150, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=50))
def test_a_position_round_trips_through_its_text(rules: Rules, seed: int, depth: int) -> None:
    r = random_round(rules, seed, stop_after=depth)
    again = Round.from_position(rules, r.position())
    assert again.position() == r.position()
    assert again.legal_moves() == r.legal_moves()
    assert again.result == r.result


@settings(max_examples=100, deadline=None)
@given(tables, seeds)
def test_initial_position_and_moves_replay_the_same_round(rules: Rules, seed: int) -> None:
    r = random_round(rules, seed)
    replayed = Round.replay(rules, r.initial_position, [str(m) for m in r.moves])
    assert replayed.position() == r.position() and replayed.log == r.log


def test_rules_text_round_trips_for_every_offered_table() -> None:
    for rules in EVERY_TABLE:
        assert Rules.parse(rules.to_text()) == rules
    assert Rules.parse("domino players=4") == Rules("domino", players=4)


def test_a_match_record_round_trips() -> None:
    rng = random.Random(5)
    m = Match(PRESETS["duello"], rng=rng)
    while not m.over:
        while not m.round.over:
            m.round.play(rng.choice(m.round.legal_moves()))
        if not m.over:
            m.next_round()
    again = Match.from_record(m.record())
    assert again.record() == m.record() and again.scores == m.scores and again.winners == m.winners


def test_a_position_with_a_broken_line_is_refused() -> None:
    with pytest.raises(ValueError, match="broken"):
        Round.from_position(
            PRESETS["duello"], "hands=1|1/2|2 boneyard=- line=6|5,4|4 turn=0 dealer=0"
        )
    with pytest.raises(ValueError, match="twice"):
        Round.from_position(PRESETS["duello"], "hands=6|5/2|2 boneyard=- line=6|5 turn=0 dealer=0")


def test_tiles_and_moves_may_be_given_as_text() -> None:
    r = Round.from_hands(PRESETS["duello"], [["6|6", "6|1"], ["1|0"]], boneyard=["2|2"])
    assert r.hands == ((Tile(6, 1), Tile(6, 6)), (Tile(1, 0),))
    r.play("6|6L")
    assert Play("6|6", "left") == r.moves[0] and r.legal_moves() == (DRAW,)
