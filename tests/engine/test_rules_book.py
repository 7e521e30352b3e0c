"""One test per rule of docs/rules.md §1–6, named after it, for every preset it concerns."""

from __future__ import annotations

import random
import secrets
from dataclasses import replace
from itertools import pairwise

import pytest

from games.engine import (
    ALL_TILES,
    DRAW,
    PASS,
    PRESETS,
    IllegalMoveError,
    Match,
    Play,
    Round,
    Rules,
    Tile,
    offered_tables,
    parse_move,
)
from games.engine.tiles import parse_tiles

ALL_PRESETS = sorted(PRESETS)
DRAW_PRESETS = ["domino", "duello", "luciano"]  # presets that draw when a boneyard exists
PAIRS = replace(PRESETS["domino"], players=4, hand_size=7)


def hands(text: str) -> list[tuple[Tile, ...]]:
    """'6|6,6|1 / 1|0' -> one tuple of tiles per seat."""
    return [parse_tiles(h) for h in text.split("/")]


def tiles(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text)


def play_all(r: Round, moves: str) -> None:
    for text in moves.split():
        r.play(parse_move(text))


# §1 Tiles ---------------------------------------------------------------------


def test_double_six_set_has_28_tiles_of_0_to_6_pips() -> None:
    assert len(ALL_TILES) == 28
    assert {(t.high, t.low) for t in ALL_TILES} == {(a, b) for a in range(7) for b in range(a + 1)}


def test_tile_value_is_the_sum_of_its_halves_and_a_double_has_equal_halves() -> None:
    assert Tile(6, 4).value == 10
    assert Tile(3, 3).is_double and not Tile(3, 2).is_double


def test_undealt_tiles_form_the_boneyard_and_all_28_are_always_used() -> None:
    for name, rules in PRESETS.items():
        r = Round.deal(rules, rng=random.Random(name))
        in_play = [t for h in r.hands for t in h] + list(r.boneyard)
        assert sorted(in_play, key=lambda t: t.index) == list(ALL_TILES)


# §2 Table settings ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "boneyard"),
    [(2, 5, 18), (2, 7, 14), (3, 5, 13), (3, 7, 7), (4, 5, 8), (4, 7, 0)],
)
def test_boneyard_sizes_follow_players_and_tiles_each(
    players: int, size: int, boneyard: int
) -> None:
    rules = replace(PRESETS["domino"], players=players, hand_size=size)
    assert rules.boneyard_size == boneyard
    r = Round.deal(rules, rng=random.Random(1))
    assert [len(h) for h in r.hands] == [size] * players
    assert len(r.boneyard) == boneyard


def test_four_players_sit_in_partnerships_partner_opposite() -> None:
    assert PAIRS.partnerships
    assert PAIRS.seats_of(0) == (0, 2) and PAIRS.seats_of(1) == (1, 3)


def test_blocco_also_allows_four_individual_players() -> None:
    solo = replace(PRESETS["blocco"], players=4, hand_size=5)
    assert not solo.partnerships and solo.sides == 4
    pairs = replace(PRESETS["blocco"], players=4, hand_size=7)
    assert pairs.partnerships
    with pytest.raises(ValueError, match="not played each for themselves"):
        replace(PRESETS["domino"], players=4, teams=False)


def test_four_players_with_seven_tiles_is_block_play_either_way() -> None:
    r = Round.from_hands(PAIRS, hands("6|6,6|1 / 2|2,3|0 / 4|4,5|0 / 3|3,2|1"), boneyard=())
    r.play(parse_move("6|6L"))
    assert r.legal_moves() == (PASS,)
    assert not PAIRS.draws


def test_four_players_with_seven_tiles_is_recorded_as_block_play_older_records_read() -> None:
    # the record says how the table is played, as the page does ("block game")
    for rules in (t for t in offered_tables(targets=True) if t.boneyard_size == 0):
        text = rules.to_text()
        assert "draw=no" in text.split() and Rules.parse(text) == rules, text
        assert Match(rules).record().splitlines()[0] == text
        # records written before said draw=yes for a domino table of 4 × 7
        assert Rules.parse(text.replace("draw=no", "draw=yes")) == rules
    assert "draw=yes" in replace(PRESETS["domino"], players=4, hand_size=5).to_text().split()


@pytest.mark.parametrize("target", [50, 100, 150, 200, 250, 300, None])
def test_match_target_is_one_of_the_offered_points_or_a_single_hand(target: int | None) -> None:
    assert Rules("custom", target=target).target == target


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"hand_size": 6}, "tiles each must be 5 or 7"),
        ({"target": 75}, "match target must be one of"),
        ({"players": 3, "teams": True}, "pairs need 4 players"),
    ],
)
def test_impossible_table_settings_are_refused_with_a_clear_message(
    change: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        replace(PRESETS["domino"], **change)  # type: ignore[arg-type]


# §3 A hand --------------------------------------------------------------------------


def test_deal_shuffles_with_a_cryptographically_secure_generator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    used = []

    class Spy(secrets.SystemRandom):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            used.append(len(x))
            super().shuffle(x)

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    Round.deal(PRESETS["domino"])
    assert used == [28]


def test_dealer_rotates_each_hand_and_play_order_starts_after_the_dealer() -> None:
    m = Match(replace(PRESETS["domino"], players=3, target=150), rng=random.Random(5), dealer=2)
    dealers = []
    while not m.over and len(m.rounds) < 4:
        dealers.append(m.round.dealer)
        while not m.round.over:
            m.round.play(m.round.legal_moves()[0])
        if not m.over:
            m.next_round()
    assert dealers[:3] == [2, 0, 1]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_opening_by_the_highest_double(preset: str) -> None:
    r = Round.from_hands(PRESETS[preset], hands("6|5,4|4,1|0 / 5|5,6|4,2|1"), dealer=0)
    assert r.turn == 1
    assert r.legal_moves() == (Play(Tile(5, 5), "left"),)
    with pytest.raises(IllegalMoveError, match=r"opens with 5\|5"):
        r.play(Play(Tile(6, 4), "left"))


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_opening_by_the_heaviest_tile_when_nobody_holds_a_double(preset: str) -> None:
    r = Round.from_hands(PRESETS[preset], hands("6|4,2|0 / 6|5,1|0"), dealer=0)
    assert r.turn == 1 and r.opening_tile == Tile(6, 5)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_opening_tie_on_value_goes_to_the_first_in_play_order_after_the_dealer(preset: str) -> None:
    # 6|3 and 5|4 both weigh 9; the seat after the dealer comes first.
    deal = hands("6|3,1|0 / 5|4,2|0")
    assert Round.from_hands(PRESETS[preset], deal, dealer=0).turn == 1
    assert Round.from_hands(PRESETS[preset], deal, dealer=1).turn == 0


def test_opening_tie_in_three_players_dealer_comes_last() -> None:
    rules = replace(PRESETS["domino"], players=3, hand_size=5)
    deal = hands("6|3,1|0 / 5|4,2|0 / 6|2,4|1")  # seats 0 and 1 tie at 9
    assert Round.from_hands(rules, deal, dealer=0).turn == 1  # order 1, 2, 0: the dealer last
    assert Round.from_hands(rules, deal, dealer=1).turn == 0  # order 2, 0, 1
    assert Round.from_hands(rules, deal, dealer=2).turn == 0  # order 0, 1, 2


def test_opening_player_with_two_tiles_of_top_value_plays_the_higher_half() -> None:
    r = Round.from_hands(PRESETS["domino"], hands("5|4,6|3,1|0 / 5|3,2|0"))
    assert r.opening_tile == Tile(6, 3)


def test_previous_winner_opens_the_next_hand_with_any_tile() -> None:
    rules = PRESETS["duello"]
    r = Round.from_hands(rules, hands("6|6,1|0,3|2 / 5|5,4|1"), opener=1)
    assert r.turn == 1
    assert set(r.legal_moves()) == {Play(Tile(5, 5), "left"), Play(Tile(4, 1), "left")}
    r.play(Play(Tile(4, 1), "left"))
    assert r.ends == (4, 1)


def test_previous_winner_opens_then_highest_double_after_a_tied_hand() -> None:
    rules = replace(PRESETS["duello"], target=300)
    won = Round.from_position(rules, "hands=2|1/3|3,5|4 boneyard=- line=6|6 turn=1 dealer=0")
    tied = Round.from_position(rules, "hands=5|4/6|3 boneyard=- line=1|1 turn=1 dealer=0")
    assert won.result is not None and won.result.winners == (0,)
    assert tied.result is not None and tied.result.tied
    after_win = Match(rules, rng=random.Random(1), rounds=[won]).next_round()
    assert after_win.turn == 0 and after_win.opening_tile is None
    assert len(after_win.legal_moves()) == 7  # any tile of the winner's hand
    after_tie = Match(rules, rng=random.Random(1), rounds=[tied]).next_round()
    assert after_tie.opening_tile is not None  # the highest double (or heaviest tile) again
    assert after_tie.opening_tile.is_double or not any(
        t.is_double for h in after_tie.hands for t in h
    )


def test_play_one_tile_at_either_open_end_matching_that_end() -> None:
    r = Round.from_position(
        PRESETS["blocco"], "hands=5|3,4|1/2|0 boneyard=- line=3|6,6|4 turn=0 dealer=1"
    )
    assert set(r.legal_moves()) == {Play(Tile(5, 3), "left"), Play(Tile(4, 1), "right")}
    with pytest.raises(IllegalMoveError, match=r"5\|3 does not match the right end \(4\)"):
        r.play(Play(Tile(5, 3), "right"))
    r.play(Play(Tile(5, 3), "left"))
    assert r.ends == (5, 4)
    assert str(r) == "hands=4|1/2|0 boneyard=- line=5|3,3|6,6|4 turn=1 dealer=1"


def test_a_double_is_laid_crosswise_but_keeps_one_open_number() -> None:
    r = Round.from_position(
        PRESETS["blocco"], "hands=4|4,5|5/1|0 boneyard=- line=3|4 turn=0 dealer=1"
    )
    r.play(Play(Tile(4, 4), "right"))
    assert r.ends == (3, 4) and r.line[-1].is_double


def test_moves_go_in_seat_order() -> None:
    rules = replace(PRESETS["domino"], players=4, hand_size=7)
    r = Round.deal(rules, rng=random.Random(3))
    seats = []
    while not r.over and len(seats) < 9:
        seats.append(r.turn)
        r.play(r.legal_moves()[0])
    assert all((b - a) % 4 == 1 for a, b in pairwise(seats))


@pytest.mark.parametrize("preset", DRAW_PRESETS)
def test_cannot_play_draw_one_tile_at_a_time_until_one_fits_then_play_it(preset: str) -> None:
    r = Round.from_hands(
        PRESETS[preset], hands("6|6,1|0 / 2|2,3|0"), boneyard=tiles("4|4,5|1,6|2,3|3")
    )
    r.play(parse_move("6|6L"))
    assert r.legal_moves() == (DRAW,)
    r.play(DRAW)
    assert r.legal_moves() == (DRAW,)  # 4|4 does not fit: draw again
    r.play(DRAW)
    assert r.legal_moves() == (DRAW,)
    r.play(DRAW)  # 6|2 fits
    assert r.legal_moves() == (Play(Tile(6, 2), "left"), Play(Tile(6, 2), "right"))
    assert [str(e) for e in r.log] == ["0:6|6L", "1:draw", "1:draw", "1:draw"]
    assert r.boneyard == (Tile(3, 3),)


@pytest.mark.parametrize("preset", DRAW_PRESETS)
def test_no_drawing_while_holding_a_tile_that_fits(preset: str) -> None:
    r = Round.from_hands(PRESETS[preset], hands("6|6,1|0 / 6|3,3|0"), boneyard=tiles("4|4"))
    r.play(parse_move("6|6L"))
    before = r.position()
    with pytest.raises(IllegalMoveError, match=r"you can play 6\|3"):
        r.play(DRAW)
    assert r.position() == before


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_pass_when_the_boneyard_is_empty_or_in_block_play(preset: str) -> None:
    r = Round.from_hands(PRESETS[preset], hands("6|6,6|1,2|1 / 3|3,3|0"), boneyard=())
    r.play(parse_move("6|6L"))
    assert r.legal_moves() == (PASS,)
    r.play(PASS)
    assert r.turn == 0
    assert r.log[-1].ends == (6, 6)


def test_block_game_never_draws_even_with_tiles_left_over() -> None:
    r = Round.from_hands(PRESETS["blocco"], hands("6|6,6|1,2|1 / 3|3,3|0"), boneyard=tiles("4|4"))
    r.play(parse_move("6|6L"))
    assert r.legal_moves() == (PASS,)
    with pytest.raises(IllegalMoveError, match="nothing to draw"):
        r.play(DRAW)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_nobody_may_pass_while_holding_a_tile_that_fits(preset: str) -> None:
    r = Round.from_hands(PRESETS[preset], hands("6|6,1|0 / 6|2,3|0"))
    r.play(parse_move("6|6L"))
    with pytest.raises(IllegalMoveError, match="no passing while a tile fits"):
        r.play(PASS)


def test_no_passing_while_the_boneyard_can_be_drawn() -> None:
    r = Round.from_hands(PRESETS["duello"], hands("6|6,1|0 / 2|2,3|0"), boneyard=tiles("4|4"))
    r.play(parse_move("6|6L"))
    with pytest.raises(IllegalMoveError, match="draw from the boneyard"):
        r.play(PASS)


# §3.5 and §4: end of the hand and scoring ----------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_domino_scores_the_opponents_tiles_left_in_hand(preset: str) -> None:
    r = Round.from_hands(PRESETS[preset], hands("6|6,6|1 / 5|5,4|3,2|0"))
    play_all(r, "6|6L pass 6|1R")
    assert r.result is not None
    assert r.result.reason == "domino" and r.result.winners == (0,)
    assert r.result.points == 10 + 7 + 2


def test_domino_in_partnership_scores_only_the_rival_pair() -> None:
    r = Round.from_hands(PAIRS, hands("6|6,6|1 / 5|5,4|3 / 2|2,2|1 / 0|0,1|0"))
    play_all(r, "6|6L pass pass pass 6|1R")
    assert r.result is not None
    assert r.result.winners == (0, 2)
    assert r.result.points == (10 + 7) + (0 + 1)  # seat 2's 2|2,2|1 do not count


def test_domino_with_three_players_scores_both_opponents() -> None:
    rules = replace(PRESETS["domino"], players=3, hand_size=5)
    r = Round.from_hands(rules, hands("6|6,6|1 / 5|5,4|3 / 2|2,2|1"))
    play_all(r, "6|6L pass pass 6|1R")
    assert r.result is not None and r.result.points == 17 + 7


def _blocked_2p(preset: str) -> Round:
    """Seat 0 lays 1|1 on (1, 1); every other 1 is out of play: blocked.

    Seat 0 keeps 5|4,5|3 = 17 pips, seat 1 keeps 4|3,2|0 = 9.
    """
    r = Round.from_position(
        PRESETS[preset], "hands=1|1,5|4,5|3/4|3,2|0 boneyard=- line=1|3,3|0,0|1 turn=0 dealer=1"
    )
    assert not r.over
    r.play(parse_move("1|1R"))
    return r


def test_blocked_when_nobody_can_play_and_the_boneyard_is_empty() -> None:
    r = _blocked_2p("blocco")
    assert r.over and r.result is not None and r.result.reason == "blocked"
    assert r.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="the hand is over"):
        r.play(PASS)


def test_blocked_scoring_all_winner_takes_every_tile_left_including_its_own() -> None:
    r = _blocked_2p("domino")
    assert r.result is not None
    assert r.result.pips == (17, 9)
    assert r.result.winners == (1,) and r.result.points == 17 + 9


@pytest.mark.parametrize("preset", ["duello", "luciano"])
def test_blocked_scoring_difference_opponents_total_minus_the_winners(preset: str) -> None:
    r = _blocked_2p(preset)
    assert r.result is not None and r.result.winners == (1,) and r.result.points == 17 - 9


def test_blocked_scoring_difference_with_three_players_sums_each_opponents_difference() -> None:
    rules = replace(PRESETS["domino"], players=3, hand_size=5, blocked_scoring="difference")
    r = Round.from_position(rules, "hands=5|5,5|1/4|1/3|2,2|2 boneyard=- line=6|6 turn=0 dealer=2")
    assert r.result is not None  # nobody holds a 6: blocked at once
    assert r.result.pips == (16, 5, 9) and r.result.winners == (1,)
    assert r.result.points == (16 - 5) + (9 - 5)


def test_blocked_scoring_none_the_hand_only_names_a_winner() -> None:
    r = _blocked_2p("blocco")
    assert r.result is not None and r.result.winners == (1,) and r.result.points == 0


def test_blocked_partnership_sums_each_pairs_two_hands() -> None:
    r = Round.from_position(PAIRS, "hands=5|0/0|0/1|1/5|4 boneyard=- line=6|6 turn=0 dealer=3")
    assert r.result is not None
    # seat 1 holds the fewest pips, but pair 0+2 holds 5 + 2 against 0 + 9
    assert r.result.winners == (2, 0)
    assert r.result.points == 16


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_blocked_tie_at_the_lowest_total_is_a_draw_and_nobody_scores(preset: str) -> None:
    r = Round.from_position(
        PRESETS[preset], "hands=5|4/3|3,2|1 boneyard=- line=6|6 turn=0 dealer=1"
    )
    assert r.result is not None and r.result.tied
    assert r.result.winners == () and r.result.points == 0


def _finish_hand(m: Match, winner_moves: bool = True) -> None:
    while not m.round.over:
        m.round.play(m.round.legal_moves()[0])


@pytest.mark.parametrize("preset", ["domino", "duello", "luciano"])
def test_match_first_side_to_reach_the_target_wins(preset: str) -> None:
    rules = replace(PRESETS[preset], target=50)
    m = Match(rules, rng=random.Random(preset))
    while True:
        _finish_hand(m)
        if m.over:
            break
        assert max(m.scores) < 50
        m.next_round()
    assert max(m.scores) >= 50
    assert m.winners == rules.seats_of(m.scores.index(max(m.scores)))
    with pytest.raises(ValueError, match="match is over"):
        m.next_round()


def test_match_scores_add_up_hand_by_hand() -> None:
    m = Match(replace(PRESETS["domino"], players=4, hand_size=7, target=150), rng=random.Random(9))
    total = [0, 0]
    while not m.over:
        _finish_hand(m)
        result = m.round.result
        assert result is not None
        if result.winners:
            total[result.winners[0] % 2] += result.points
        assert list(m.scores) == total
        if not m.over:
            m.next_round()


def test_single_hand_play_the_hands_winner_wins_the_match() -> None:
    m = Match(PRESETS["blocco"], rng=random.Random(4))
    assert not m.over and m.winners == ()
    _finish_hand(m)
    assert m.over
    result = m.round.result
    assert result is not None and m.winners == result.winners


def test_single_hand_a_tied_blocked_hand_is_a_drawn_game() -> None:
    r = Round.from_position(
        PRESETS["blocco"], "hands=5|4/3|3,2|1 boneyard=- line=6|6 turn=0 dealer=1"
    )
    m = Match(PRESETS["blocco"], rounds=[r])
    assert m.over and m.winners == ()


# §5 Information ---------------------------------------------------------------------


def test_a_player_sees_own_hand_line_counts_boneyard_count_and_public_log() -> None:
    r = Round.from_hands(
        PRESETS["duello"], hands("6|6,6|1,2|1 / 3|3,3|0"), boneyard=tiles("4|4,5|1,6|2")
    )
    play_all(r, "6|6L draw draw draw 6|2R")
    view = r.view(0)
    assert view.hand == (Tile(2, 1), Tile(6, 1))
    assert [str(p) for p in view.line] == ["6|6", "6|2"]
    assert view.hand_counts == (2, 4) and view.boneyard_count == 0
    assert [str(e) for e in view.log] == ["0:6|6L", "1:draw", "1:draw", "1:draw", "1:6|2R"]
    assert view.log[1].ends == (6, 6)  # who drew, on which numbers — never which tile
    assert view.revealed is None and view.legal_moves
    assert r.view(1).legal_moves == ()


def test_nobody_receives_another_hands_tile_or_the_boneyard_until_the_hand_is_over() -> None:
    r = Round.deal(PRESETS["duello"], rng=random.Random(8))
    for seat in (0, 1, None):
        view = r.view(seat)
        own = set(r.hands[seat]) if seat is not None else set()
        hidden = {t for s, h in enumerate(r.hands) if s != seat for t in h} | set(r.boneyard)
        assert hidden.isdisjoint(own)
        assert hidden.isdisjoint(_tiles_in(view))


def test_all_hands_are_shown_once_the_hand_is_over() -> None:
    r = _blocked_2p("duello")
    assert r.view(0).revealed == r.hands


def _tiles_in(obj: object) -> set[Tile]:
    """Every Tile reachable inside a view (dataclass fields, tuples, events)."""
    found: set[Tile] = set()

    def walk(x: object) -> None:
        if isinstance(x, Tile):
            found.add(x)
        elif isinstance(x, Play):
            found.add(x.tile)
        elif isinstance(x, tuple | list):
            for y in x:
                walk(y)
        elif hasattr(x, "__dataclass_fields__"):
            for name in x.__dataclass_fields__:
                if name != "rules":
                    walk(getattr(x, name))

    walk(obj)
    return found


# §6 Presets --------------------------------------------------------------------------


def test_presets_follow_the_table_of_section_6() -> None:
    b, d, du, lu = (PRESETS[k] for k in ("blocco", "domino", "duello", "luciano"))
    assert (b.draw, b.target, b.blocked_scoring, b.next_opener) == (
        False,
        None,
        "none",
        "highest_double",
    )
    assert (d.draw, d.blocked_scoring, d.next_opener) == (True, "all", "highest_double")
    assert (du.players, du.hand_size, du.blocked_scoring, du.next_opener) == (
        2,
        7,
        "difference",
        "previous_winner",
    )
    assert (lu.players, lu.hand_size, lu.target, lu.blocked_scoring) == (2, 7, 100, "difference")
    assert replace(lu, draw=False).draw is False


@pytest.mark.parametrize(
    ("preset", "players", "size"),
    [("blocco", 2, 7), ("blocco", 3, 5), ("blocco", 4, 5), ("blocco", 4, 7)],
)
def test_blocco_tiles_each_by_players(preset: str, players: int, size: int) -> None:
    rules = replace(PRESETS[preset], players=players, hand_size=size)
    assert rules.boneyard_size == {(2, 7): 14, (3, 5): 13, (4, 5): 8, (4, 7): 0}[players, size]
    assert rules.partnerships == (size == 7 and players == 4)
    if players < 4:
        with pytest.raises(ValueError, match="tiles each"):
            replace(PRESETS[preset], players=players, hand_size=12 - size)


@pytest.mark.parametrize(
    ("preset", "change", "message"),
    [
        ("blocco", {"draw": True}, "blocco is played without drawing"),
        ("blocco", {"target": 100}, "blocco is played to a single hand"),
        ("domino", {"target": 200}, "domino is played to 50, 100, 150"),
        ("domino", {"draw": False}, "domino is played with drawing"),
        ("duello", {"players": 3}, "duello is played by 2 players"),
        ("duello", {"hand_size": 5}, "deals 7 tiles each"),
        ("luciano", {"players": 4}, "luciano is played by 2 players"),
    ],
)
def test_each_preset_offers_only_its_own_settings(
    preset: str, change: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        replace(PRESETS[preset], **change)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", [50, 100, 150, 200, 250, 300])
def test_duello_and_luciano_play_to_50_through_300(target: int) -> None:
    assert replace(PRESETS["duello"], target=target).target == target
    assert replace(PRESETS["luciano"], target=target).target == target
