"""Deals anyone can verify: the deal is the documented function of its seeds, and the
verify command passes a hand played from them and fails one with a tile changed."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from games.engine import ALL_TILES, PRESETS, Round, Tile
from games.engine.deals import commitment, deal, is_client_seed, new_seed, shuffled
from games.engine.verify import HandProof, as_json, check, main

ROOT = Path(__file__).resolve().parents[2]
SEED = "00" * 32


def documented_deck(table: str, hand: int, seed: str, clients: list[str]) -> list[str]:
    """The shuffle written again from the module's description alone, step by step."""
    key = hashlib.sha256(f"domino-deal-v1:{table}:{hand}:{seed}:{','.join(clients)}".encode())
    stream = b"".join(
        hashlib.sha256(key.digest() + i.to_bytes(8, "big")).digest() for i in range(8)
    )
    numbers = [int.from_bytes(stream[at : at + 4], "big") for at in range(0, len(stream), 4)]
    deck = [f"{high}|{low}" for high in range(7) for low in range(high + 1)]
    for i in range(27, 0, -1):
        n = i + 1
        u = numbers.pop(0)
        while u >= 2**32 - 2**32 % n:
            u = numbers.pop(0)
        j = u % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_a_known_deal_stays_the_same() -> None:
    """The published function: a change to it would break every revealed proof."""
    assert (
        commitment("abc", 1, SEED)
        == hashlib.sha256(f"domino-commit-v1:abc:1:{SEED}".encode()).hexdigest()
    )
    d = deal("abc", 1, SEED, (), players=2, hand_size=7)
    assert ",".join(map(str, d.hands[0])) == "1|1,1|0,6|0,4|2,6|4,3|1,5|0"
    assert ",".join(map(str, d.hands[1])) == "5|1,5|2,6|3,2|1,3|3,4|3,3|0"
    assert str(d.boneyard[0]) == "4|4" and len(d.boneyard) == 14


@pytest.mark.parametrize("clients", [[], ["ab" * 8], ["0123456789abcdef" * 4, "ff" * 10]])
def test_the_deal_is_what_the_description_says(clients: list[str]) -> None:
    rng = random.Random(5)
    for _ in range(20):
        seed = "".join(rng.choice("0123456789abcdef") for _ in range(64))
        table = rng.choice(["Ab3_x-Yz", "t", "abc"])
        hand = rng.randint(1, 30)
        got = [str(t) for t in shuffled(table, hand, seed, clients)]
        assert got == documented_deck(table, hand, seed, clients)
        assert sorted(got) == sorted(str(t) for t in ALL_TILES)


def test_each_seed_the_table_and_the_hand_change_the_deal() -> None:
    base = shuffled("abc", 1, SEED, ())
    assert shuffled("abc", 1, SEED, ()) == base
    assert shuffled("abd", 1, SEED, ()) != base
    assert shuffled("abc", 2, SEED, ()) != base
    assert shuffled("abc", 1, "00" * 31 + "01", ()) != base
    assert shuffled("abc", 1, SEED, ("ab" * 8,)) != base
    assert shuffled("abc", 1, SEED, ("ab" * 8, "cd" * 8)) != shuffled(
        "abc", 1, SEED, ("cd" * 8, "ab" * 8)
    )


def test_every_tile_is_as_likely_in_any_place() -> None:
    """2,800 deals: each tile is first about 100 times (a biased shuffle would show)."""
    first: Counter[Tile] = Counter()
    last: Counter[Tile] = Counter()
    for n in range(2800):
        deck = shuffled("t", n + 1, SEED, ())
        first[deck[0]] += 1
        last[deck[-1]] += 1
    for counts in (first, last):
        assert len(counts) == 28
        assert min(counts.values()) > 55 and max(counts.values()) < 145


@pytest.mark.parametrize("bad", ["", "AB" * 8, "ab" * 7, "ab" * 33, "xyz" * 8, "ab" * 8 + " "])
def test_a_client_seed_is_16_to_64_lowercase_hex_digits(bad: str) -> None:
    assert not is_client_seed(bad)
    with pytest.raises(ValueError, match="client seed"):
        shuffled("abc", 1, SEED, (bad,))
    assert is_client_seed("ab" * 8) and is_client_seed("ab" * 32)


def played_hand(seed: str, clients: tuple[str, ...] = (), rules_name: str = "domino") -> HandProof:
    """A hand dealt from the seeds as the site deals it, played to its end."""
    rules = replace(PRESETS[rules_name], players=3, hand_size=5)
    dealt = deal("tbl", 3, seed, clients, players=rules.players, hand_size=rules.hand_size)
    r = Round.from_hands(rules, dealt.hands, boneyard=dealt.boneyard, dealer=1)
    start = r.initial_position
    rng = random.Random(seed)
    while not r.over:
        r.play(rng.choice(r.legal_moves()))
    return HandProof(
        table="tbl",
        rules=rules.to_text(),
        hand=3,
        commitment=commitment("tbl", 3, seed),
        seed=seed,
        client_seeds=clients,
        position=start,
        moves=tuple(map(str, r.moves)),
    )


def test_a_hand_played_from_its_seeds_is_verified() -> None:
    for n in range(5):
        proof = played_hand(new_seed(), ("ab" * 8, f"{n:016x}"))
        checked = check(proof)
        assert checked.ok and checked.problems == ()


def test_a_hand_of_4_x_7_recorded_before_as_draw_yes_is_still_verified() -> None:
    # the proofs of finished domino tables of 4 × 7 said draw=yes (they say draw=no now)
    seed = new_seed()
    rules = replace(PRESETS["domino"], players=4, hand_size=7)
    dealt = deal("tbl", 1, seed, (), players=4, hand_size=7)
    r = Round.from_hands(rules, dealt.hands, boneyard=dealt.boneyard)
    start, rng = r.initial_position, random.Random(seed)
    while not r.over:
        r.play(rng.choice(r.legal_moves()))
    said = rules.to_text().replace("draw=no", "draw=yes")
    proof = HandProof(
        table="tbl",
        rules=said,
        hand=1,
        commitment=commitment("tbl", 1, seed),
        seed=seed,
        client_seeds=(),
        position=start,
        moves=tuple(map(str, r.moves)),
    )
    assert check(proof).ok


def one_tile_changed(position: str) -> str:
    """The position with the first tile of seat 0's hand and the boneyard's first swapped."""
    fields = dict(part.split("=", 1) for part in position.split())
    hands = fields["hands"].split("/")
    mine = hands[0].split(",")
    pile = fields["boneyard"].split(",")
    mine[0], pile[0] = pile[0], mine[0]
    hands[0] = ",".join(mine)
    fields["hands"], fields["boneyard"] = "/".join(hands), ",".join(pile)
    return " ".join(f"{k}={v}" for k, v in fields.items())


def test_a_single_tile_changed_in_the_revealed_deal_fails() -> None:
    proof = played_hand(SEED)
    changed = replace(proof, position=one_tile_changed(proof.position), moves=())
    checked = check(changed)
    assert checked.commitment_ok and not checked.deal_ok and not checked.ok
    assert any("seat 0 was dealt" in p for p in checked.problems)


def test_a_seed_that_does_not_match_the_commitment_fails() -> None:
    proof = played_hand(SEED)
    other = replace(proof, seed="00" * 31 + "01")
    checked = check(other)
    assert not checked.commitment_ok and not checked.deal_ok and not checked.ok
    assert not check(replace(proof, client_seeds=("ab" * 8,))).deal_ok  # a seed left out
    assert not check(replace(proof, commitment="ff" * 32)).commitment_ok


def test_an_illegal_or_missing_move_fails() -> None:
    proof = played_hand(SEED)
    assert not check(replace(proof, moves=proof.moves[:-1])).moves_ok
    refused = check(replace(proof, moves=("draw", *proof.moves)))  # nothing to draw on yet
    assert refused.deal_ok and not refused.moves_ok
    assert "move 1 (draw) cannot be played" in refused.problems[0]


def run_verify(tmp_path: Path, data: object) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data))
    return subprocess.run(
        [sys.executable, "-m", "games.engine.verify", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin"},  # no Django settings: plain Python
    )


def test_the_command_passes_real_hands_and_fails_a_changed_tile(tmp_path: Path) -> None:
    # fixed seeds: a random one may deal the opening double first in seat 0's hand, and
    # swapped into the boneyard it makes a record that cannot be read, not a wrong deal
    proofs = [played_hand(seed, ("cd" * 8,)) for seed in (SEED, "5e" * 32)]
    passed = run_verify(tmp_path, as_json(proofs))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert passed.stdout.count("verified") == 2 and "NOT" not in passed.stdout
    data = as_json(proofs)
    data["hands"][1]["position"] = one_tile_changed(proofs[1].position)
    failed = run_verify(tmp_path, data)
    assert failed.returncode == 1
    assert "hand 3: NOT verified" in failed.stdout and "was dealt" in failed.stdout


def test_the_command_explains_input_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "missing.json")]) == 2
    (tmp_path / "bad.json").write_text('{"table": "t"}')
    assert main([str(tmp_path / "bad.json")]) == 2
    assert "cannot read the proof" in capsys.readouterr().err
