"""Check a finished hand's deal against its commitment: plain Python, no site needed.

    python -m games.engine.verify hand.json      (or the JSON on standard input)

The JSON is what a hand's "verify" page offers (and a match's export, one entry per
hand)::

    {"table": "<code>", "rules": "<the rules' text form>",
     "hands": [{"hand": 1, "commitment": "<hex>", "seed": "<hex>",
                "client_seeds": ["<hex>", ...], "position": "<initial position>",
                "moves": "6|6L,5|6R,..."}]}

For each hand it recomputes the commitment from the revealed seed, the deal from the
seeds (``games.engine.deals``), and compares them with the commitment shown before
the hand and the hands that were played; then it replays the moves.  It prints one
line per hand and exits with 0 when every hand checks out, 1 otherwise.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .deals import commitment, deal, is_seed
from .moves import parse_move
from .round import Round
from .rules import Rules
from .tiles import Tile, format_tiles


@dataclass(frozen=True)
class HandProof:
    """What is revealed of one hand once it is over."""

    table: str
    rules: str
    hand: int  # counted from 1
    commitment: str
    seed: str
    client_seeds: tuple[str, ...]
    position: str  # the hand's initial position (the engine's text form)
    moves: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """This hand's entry of the JSON the command reads."""
        return {
            "hand": self.hand,
            "commitment": self.commitment,
            "seed": self.seed,
            "client_seeds": list(self.client_seeds),
            "position": self.position,
            "moves": ",".join(self.moves) or "-",
        }


@dataclass(frozen=True)
class Checked:
    """The result of checking one hand; ``problems`` say what failed, in English."""

    hand: int
    commitment_ok: bool = False
    deal_ok: bool = False
    moves_ok: bool = False
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.deal_ok and self.moves_ok


def check(proof: HandProof) -> Checked:
    """Recompute the commitment and the deal from the seeds; replay the moves."""
    problems: list[str] = []
    if not is_seed(proof.seed):
        return Checked(proof.hand, problems=("the seed is not 64 lowercase hex digits",))
    commitment_ok = commitment(proof.table, proof.hand, proof.seed) == proof.commitment
    if not commitment_ok:
        problems.append("the seed does not match the commitment shown before the hand")
    try:
        rules = Rules.parse(proof.rules)
        start = Round.from_position(rules, proof.position)
        dealt = deal(
            proof.table,
            proof.hand,
            proof.seed,
            proof.client_seeds,
            players=rules.players,
            hand_size=rules.hand_size,
        )
    except (ValueError, KeyError) as error:
        problems.append(f"the record cannot be read: {error}")
        return Checked(proof.hand, commitment_ok, problems=tuple(problems))
    deal_ok = True
    for seat, (held, due) in enumerate(zip(start.hands, dealt.hands, strict=True)):
        if set(held) != set(due):
            deal_ok = False
            problems.append(f"seat {seat} was dealt {_tiles(held)}, the seeds deal {_tiles(due)}")
    if start.line or start.boneyard != dealt.boneyard:
        deal_ok = False
        problems.append(
            f"the boneyard was {format_tiles(start.boneyard) or '-'}, "
            f"the seeds deal {format_tiles(dealt.boneyard) or '-'}"
        )
    moves_ok = True
    for ply, text in enumerate(proof.moves, start=1):
        try:
            start.play(parse_move(text))
        except ValueError as error:
            moves_ok = False
            problems.append(f"move {ply} ({text}) cannot be played: {error}")
            break
    if moves_ok and not start.over:
        moves_ok = False
        problems.append("the moves do not finish the hand")
    return Checked(proof.hand, commitment_ok, deal_ok, moves_ok, tuple(problems))


def _tiles(tiles: Sequence[Tile]) -> str:
    return format_tiles(sorted(tiles, key=lambda t: t.index)) or "-"


def proofs_from_json(data: Mapping[str, Any]) -> list[HandProof]:
    """The hands of the JSON the command reads (see the module's docstring)."""
    try:
        table, rules = str(data["table"]), str(data["rules"])
        return [
            HandProof(
                table=table,
                rules=rules,
                hand=int(h["hand"]),
                commitment=str(h["commitment"]),
                seed=str(h["seed"]),
                client_seeds=tuple(str(s) for s in h.get("client_seeds", ())),
                position=str(h["position"]),
                moves=_moves(str(h.get("moves", "-"))),
            )
            for h in data["hands"]
        ]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a hand's proof: {error!r} is missing or wrong") from None


def as_json(proofs: Sequence[HandProof]) -> dict[str, Any]:
    """The JSON the command reads, for hands of one table."""
    if not proofs:
        return {"table": "", "rules": "", "hands": []}
    return {
        "table": proofs[0].table,
        "rules": proofs[0].rules,
        "hands": [p.as_json() for p in proofs],
    }


def _moves(text: str) -> tuple[str, ...]:
    return () if text in ("", "-") else tuple(text.split(","))


def main(argv: Sequence[str] | None = None) -> int:
    """The command: check every hand of a JSON proof; 0 when all pass."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 2
    try:
        if not args or args[0] == "-":
            data = json.load(sys.stdin)
        else:
            with open(args[0], encoding="utf-8") as source:
                data = json.load(source)
        proofs = proofs_from_json(data)
    except (OSError, ValueError) as error:
        print(f"cannot read the proof: {error}", file=sys.stderr)
        return 2
    passed = True
    for proof in proofs:
        checked = check(proof)
        passed = passed and checked.ok
        verdict = "verified" if checked.ok else "NOT verified"
        print(f"hand {proof.hand}: {verdict}" + "".join(f"\n  - {p}" for p in checked.problems))
    if not proofs:
        print("no hands to check")
    return 0 if passed and proofs else 1


if __name__ == "__main__":
    raise SystemExit(main())
