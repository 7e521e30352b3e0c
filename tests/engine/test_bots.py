"""The computer players: legal on every table, blind to hidden tiles, and as good as they say."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine
from games.engine import PASS, PRESETS, Match, Move, Play, PlayerView, Round, Rules
from games.engine.bots import LEVELS, Bot, make_bot
from games.engine.bots.medium import MediumBot, MediumWeights
from games.engine.tiles import format_tiles, parse_tiles

from .strategies import EVERY_TABLE, random_round, seeds, tables

PAIRS = replace(PRESETS["domino"], players=4, hand_size=7)
QUICK = {"easy": {}, "medium": {}, "hard": {"iterations": 6, "match_aware": True}}
#: The levels, and the hard bot's flat search (the coach's and the classic bot's).
SEARCHES = (*LEVELS, "hard:flat")


def quick_bot(level: str, seed: int) -> Bot:
    """A bot of ``level`` (or ``hard:flat``); ``hard`` with a few fixed iterations, to be
    quick and reproducible (and playing for the match, so that the tests reach its
    match-aware path too)."""
    if level == "hard:flat":
        return make_bot("hard", seed=seed, tree=0, **QUICK["hard"])
    return make_bot(level, seed=seed, **QUICK[level])


def play_hand(r: Round, bots: list[Bot], match_scores: tuple[int, ...] | None = None) -> None:
    """Play ``r`` to the end, checking that every bot's choice is legal."""
    while not r.over:
        view = r.view(r.turn, match_scores=match_scores)
        move = bots[r.turn].choose(view)
        assert move in view.legal_moves
        r.play(move)


# The interface -----------------------------------------------------------------


def test_make_bot_is_exported_by_the_engine_and_knows_three_levels() -> None:
    assert games.engine.make_bot is make_bot
    assert "make_bot" in games.engine.__all__
    assert [make_bot(level).level for level in LEVELS] == ["easy", "medium", "hard"]


def test_an_unknown_level_or_option_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match=r"unknown bot level 'expert'.*easy, medium, hard"):
        make_bot("expert")
    with pytest.raises(ValueError, match="bad option for the easy bot"):
        make_bot("easy", budget_ms=10)
    with pytest.raises(ValueError, match="positive time budget"):
        make_bot("hard", budget_ms=0)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_is_asked_only_when_its_seat_is_to_play(level: str) -> None:
    r = Round.deal(PRESETS["duello"], rng=random.Random(1))
    with pytest.raises(ValueError, match="only when its seat is to play"):
        make_bot(level).choose(r.view(1 - r.turn))


# Legal on every table ---------------------------------------------------------------


@pytest.mark.parametrize("level", SEARCHES)
@pytest.mark.parametrize("rules", EVERY_TABLE, ids=lambda r: r.to_text().replace(" ", ","))
def test_every_level_plays_a_whole_match_legally_on_every_offered_table(
    level: str, rules: Rules
) -> None:
    rng = random.Random(f"{level} {rules}")
    match = Match(replace(rules, target=50) if rules.target else rules, rng=rng)
    bots = [quick_bot(level, seed) for seed in range(rules.players)]
    while True:
        play_hand(match.round, bots, match.scores_before_hand)
        if match.over:
            break
        match.next_round()
    assert match.winners or match.rules.target is None


def test_a_match_shows_each_seat_the_scores_before_the_hand() -> None:
    match = Match(PAIRS, rng=random.Random(5))
    assert match.view(0).match_scores == (0, 0)
    bots = [quick_bot("easy", seed) for seed in range(4)]
    play_hand(match.round, bots)
    assert match.view(1).match_scores == (0, 0)  # the finished hand is not "before" it
    first = match.scores
    assert first != (0, 0)
    match.next_round()
    assert [match.view(seat).match_scores for seat in range(4)] == [first] * 4
    assert match.view(None).match_scores == first and match.round.view(0).match_scores is None


@settings(max_examples=60, deadline=None)
@given(tables, seeds, st.integers(min_value=0, max_value=40), st.sampled_from(SEARCHES))
def test_every_level_returns_a_legal_move_mid_hand(
    rules: Rules, seed: int, depth: int, level: str
) -> None:
    r = random_round(rules, seed, stop_after=depth)
    if r.over:
        return
    view = r.view(r.turn)
    assert quick_bot(level, seed).choose(view) in view.legal_moves


def test_bots_in_a_mixed_partnership_play_together() -> None:
    r = Round.deal(PAIRS, rng=random.Random(4))
    play_hand(r, [quick_bot(level, 1) for level in ("hard", "easy", "medium", "easy")])
    assert r.result is not None


# Only the view -------------------------------------------------------------------------


def _reshuffled_twin(r: Round, seat: int, rng: random.Random) -> Round | None:
    """The same hand with the tiles ``seat`` has never seen dealt differently.

    The tiles other seats were dealt and still hold, and the tiles still in
    the boneyard, are shuffled among those places; every tile laid or drawn
    stays put, so the same moves replay.  None when the shuffle makes a move
    of the log illegal.
    """
    fields = dict(part.split("=", 1) for part in r.initial_position.split())
    dealt = [list(parse_tiles(h)) for h in fields["hands"].split("/")]
    pile = list(parse_tiles(fields["boneyard"]))
    undrawn = len(r.boneyard)
    still_held = {t for s, hand in enumerate(r.hands) if s != seat for t in hand}
    places = [dealt[s] for s in range(len(dealt)) if s != seat] + [pile]
    slots = [(k, i) for k, tiles in enumerate(places) for i in range(len(tiles))]
    slots = [
        (k, i)
        for k, i in slots
        if (i >= len(pile) - undrawn if places[k] is pile else places[k][i] in still_held)
    ]
    hidden = [places[k][i] for k, i in slots]
    rng.shuffle(hidden)
    for (k, i), tile in zip(slots, hidden, strict=True):
        places[k][i] = tile
    fields["hands"] = "/".join(format_tiles(h) for h in dealt)
    fields["boneyard"] = format_tiles(pile)
    position = " ".join(f"{k}={v}" for k, v in fields.items())
    try:
        twin = Round.replay(r.rules, position, r.moves)
    except ValueError:
        return None
    return twin if twin.turn == r.turn else None


@pytest.mark.parametrize("level", SEARCHES)
@pytest.mark.parametrize("rules", [PAIRS, PRESETS["duello"], replace(PRESETS["domino"], players=3)])
def test_a_bot_decides_only_from_its_view(level: str, rules: Rules) -> None:
    rng = random.Random(7)
    checked = 0
    for depth in range(4, 40, 3):
        r = random_round(rules, rng.getrandbits(32), stop_after=depth)
        if r.over:
            continue
        twin = None
        for _ in range(30):
            twin = _reshuffled_twin(r, r.turn, rng)
            if twin is not None and (twin.hands, twin.boneyard) != (r.hands, r.boneyard):
                break
        if twin is None or (twin.hands, twin.boneyard) == (r.hands, r.boneyard):
            continue
        scores = (95, 60, 80, 40)[: rules.sides]  # near the target: match-aware play
        view = r.view(r.turn, match_scores=scores)
        twin_view = twin.view(twin.turn, match_scores=scores)
        assert view == twin_view  # the same public information: a different deal
        assert quick_bot(level, depth).choose(view) == quick_bot(level, depth).choose(twin_view)
        checked += 1
    assert checked >= 5


def test_hard_is_reproducible_for_a_seed_with_fixed_iterations() -> None:
    r = random_round(PRESETS["duello"], 5, stop_after=3)
    view = r.view(r.turn)
    choices = {make_bot("hard", seed=9, iterations=20).choose(view) for _ in range(3)}
    assert len(choices) == 1


# Medium's rules of thumb -------------------------------------------------------------------


def _medium_choice(rules: Rules, position: str, moves: str = "", **weights: float) -> Move:
    r = Round.from_position(rules, position)
    for move in moves.split():
        r.play(PASS if move == "pass" else games.engine.parse_move(move))
    view: PlayerView = r.view(r.turn)
    return MediumBot(weights=replace(MediumWeights(), **weights)).choose(view)


def _play(text: str) -> Play:
    move = games.engine.parse_move(text)
    assert isinstance(move, Play)
    return move


def test_medium_sheds_the_heavier_tile_when_all_else_is_equal() -> None:
    # 6|5 and 5|1 both fit the 5s and leave the same numbers and follow-ups.
    position = "hands=6|5,5|1,6|1/3|0,2|0 boneyard=4|4 line=5|5 turn=0 dealer=1"
    assert _medium_choice(PRESETS["duello"], position) == _play("6|5L")


def test_medium_lays_a_double_early() -> None:
    # 3|3 is lighter than 6|5, but a double fits only one number: lay it now.
    position = "hands=3|3,6|5/2|0,1|0 boneyard=4|4 line=3|5 turn=0 dealer=1"
    assert _medium_choice(PRESETS["duello"], position) == _play("3|3L")
    assert _medium_choice(PRESETS["duello"], position, double=0) == _play("6|5R")


def test_medium_keeps_a_variety_of_numbers() -> None:
    # 6|5 is heavier than 6|4, but it is the only 5 in hand.
    position = "hands=6|4,4|2,6|5/5|0,5|5 boneyard=5|4 line=6|2 turn=0 dealer=1"
    assert _medium_choice(PRESETS["duello"], position) == _play("6|4L")
    assert _medium_choice(PRESETS["duello"], position, variety=0) == _play("6|5L")


def test_medium_plays_on_the_numbers_an_opponent_passed_on() -> None:
    position = "hands=6|3,6|5,2|0/5|0,2|1 boneyard=- line=6|4,4|3 turn={turn} dealer=0"
    blocco = PRESETS["blocco"]
    # Nothing known: shed the heavier 6|5.
    assert _medium_choice(blocco, position.format(turn=0)) == _play("6|5L")
    # The opponent passed facing 6 and 3: 6|3 turns the 3 into a 6, both ends theirs to lack.
    assert _medium_choice(blocco, position.format(turn=1), "pass") == _play("6|3R")
    assert _medium_choice(
        blocco, position.format(turn=1), "pass", rival_stuck=0, rival_short=0
    ) == _play("6|5L")


def test_medium_plays_on_the_numbers_an_opponent_drew_on() -> None:
    # Seat 1 drew facing 6 and 3, then laid the drawn 3|3: it holds no 6 and no 3.
    position = "hands=6|3,6|5,2|0/5|0,2|1 boneyard=3|3 line=6|4,4|3 turn=1 dealer=0"
    duello = PRESETS["duello"]
    assert _medium_choice(duello, position, "draw 3|3R") == _play("6|3R")
    assert _medium_choice(duello, position, "draw 3|3R", rival_stuck=0, rival_short=0) == _play(
        "6|5L"
    )


def test_medium_avoids_opening_numbers_its_partner_passed_on() -> None:
    hands = "hands=6|2,6|1,4|0/5|5,1|0/5|0,1|1/3|2,4|1 boneyard=- line=6|4,4|3"
    # Seat 3 turns the 3 into a 2; 6|2 on the 2 would leave 6 at both ends.
    assert _medium_choice(PAIRS, f"{hands} turn=3 dealer=0", "3|2R") == _play("6|2R")
    # But partner (seat 2) passed facing 6 and 3: do not leave it stuck.
    after_pass = f"{hands} turn=2 dealer=0"
    assert _medium_choice(PAIRS, after_pass, "pass 3|2R") == _play("6|1L")
    assert _medium_choice(
        PAIRS, after_pass, "pass 3|2R", partner_stuck=0, partner_short=0
    ) == _play("6|2R")


def test_medium_counting_leaves_ends_whose_numbers_it_has_mostly_seen() -> None:
    # 6|1 and 6|2 both fit the 6. Three 1s are on the table and none of the 2s:
    # the opponent is likelier to lack a 1: counting, 6|1 goes, though 6|2 is heavier.
    position = "hands=6|1,6|2/4|4,2|0 boneyard=5|5 line=6|5,5|1,1|1,1|3,3|0 turn=0 dealer=1"
    assert _medium_choice(PRESETS["duello"], position, unseen=2) == _play("6|1L")
    assert _medium_choice(PRESETS["duello"], position) == _play("6|2L")
    assert make_bot("medium", unseen=2).choose(
        Round.from_position(PRESETS["duello"], position).view(0)
    ) == _play("6|1L")


# Strength -----------------------------------------------------------------------------------------


def _hand_points(rules: Rules, levels: tuple[str, str], hands: int, seed: int) -> list[int]:
    """Points won by each level over ``hands`` hands, seats swapped every hand."""
    points = [0, 0]
    rng = random.Random(seed)
    for n in range(hands):
        order = (0, 1) if n % 2 == 0 else (1, 0)
        bots = [
            make_bot(levels[order[s % 2]], seed=n * 4 + s, **_FIXED[levels[order[s % 2]]])
            for s in range(rules.players)
        ]
        r = Round.deal(rules, rng=rng, dealer=n % rules.players)
        play_hand(r, bots)
        assert r.result is not None
        if r.result.winners:
            side = rules.side_of(r.result.winners[0])
            points[order[side % 2]] += r.result.points
    return points


_FIXED: dict[str, dict[str, int]] = {"easy": {}, "medium": {}, "hard": {"iterations": 12}}


@pytest.mark.parametrize("rules", [PRESETS["duello"], PAIRS])
def test_hard_is_not_weaker_than_easy(rules: Rules) -> None:
    hard, easy = _hand_points(rules, ("hard", "easy"), 150, seed=3)
    assert hard > easy


def test_medium_is_not_weaker_than_easy() -> None:
    medium, easy = _hand_points(PRESETS["duello"], ("medium", "easy"), 300, seed=4)
    assert medium > easy
