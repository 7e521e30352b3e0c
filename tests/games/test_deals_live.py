"""Deals anyone can verify, through the websocket: the players' sockets add their seeds
when a commitment is shown, as the page's script does; every frame shows the hand's
commitment from its deal on and its seed only once it is over, and no frame — a
player's or a spectator's — ever carries a seed still secret (the hand's being played,
or the next hand's)."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace

import pytest
from asgiref.sync import sync_to_async

from games.engine import PRESETS
from games.engine.deals import commitment
from games.models import Hand, Table
from realtime import constants
from tests.games.test_consumers import (
    close_connections_after,
    commands,
    connect,
    current_version,
    frame_at_least,
    new_friends_table,
)

__all__ = ["close_connections_after"]  # a fixture
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

NEXT_COMMITMENT = re.compile(r'data-next-commitment="([0-9a-f]{64})"')


@sync_to_async
def secrets_now(table_id: int) -> tuple[set[str], str, str, bool, int]:
    """The seeds no frame may show now; the current hand's commitment and seed; whether
    it is over; how many moves it has."""
    table = Table.objects.get(pk=table_id)
    hidden = {table.deal_seed}  # the next hand's
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is None:
        return hidden, "", "", False, 0
    if not hand.over:
        hidden.add(hand.seed)
    shown = commitment(table.code, hand.number + 1, hand.seed)
    return hidden, shown, hand.seed, hand.over, hand.moves.count()


@sync_to_async
def hands_of(table_id: int) -> list[Hand]:
    return list(Hand.objects.filter(table_id=table_id).order_by("number"))


async def test_commitments_before_the_first_move_seeds_only_after_the_end_and_players_seeds_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(constants, "WS_COMMANDS_PER_SECOND", 1000.0)
    table, anna, bruno, carla = await new_friends_table(replace(PRESETS["duello"], target=50))
    path = f"/ws/table/{table.code}/"
    players = {0: await connect(path, anna), 1: await connect(path, bruno)}
    watcher = await connect(path, carla)
    await players[1].send_json_to({"action": "join", "version": 0})
    await frame_at_least(players[0], 1)
    seeded: dict[int, set[str]] = {0: set(), 1: set()}
    sent_seeds: dict[int, list[str]] = {0: [], 1: []}
    rng = random.Random(3)

    async def add_seeds(seat: int, frame: str) -> None:
        """What table.js does: a seed of this browser's for a commitment it sees."""
        for shown in NEXT_COMMITMENT.findall(frame):
            if shown not in seeded[seat]:
                seeded[seat].add(shown)
                seed = f"{rng.getrandbits(128):032x}"
                sent_seeds[seat].append(seed)
                await players[seat].send_json_to(
                    {"action": "seed", "commitment": shown, "seed": seed}
                )

    for seat in (0, 1):
        await add_seeds(seat, await frame_at_least(players[seat], 1))
    await players[0].send_json_to({"action": "start", "version": 1})
    for comm in (*players.values(), watcher):
        await frame_at_least(comm, 2)  # started
    commitments_seen_before_a_move = 0
    seeds_seen_after_the_end = 0
    sent = 0
    while True:
        version = await current_version(table.pk)
        hidden, shown, seed, over, moves = await secrets_now(table.pk)
        frames = {seat: await frame_at_least(c, version) for seat, c in players.items()}
        watched = await frame_at_least(watcher, version)
        assert NEXT_COMMITMENT.search(watched) is None  # nobody seated: no seed to add
        for frame in (*frames.values(), watched):
            assert not any(secret in frame for secret in hidden)
            if shown and not moves:
                assert f'data-commitment="{shown}"' in frame
                commitments_seen_before_a_move += 1
            if over:
                assert f'data-seed="{seed}"' in frame
                seeds_seen_after_the_end += 1
        if "match-result" in frames[0]:
            break
        for seat, frame in frames.items():
            await add_seeds(seat, frame)
        options = {
            seat: [c for c in commands(f) if c["action"] in ("move", "next")]
            for seat, f in frames.items()
        }
        seat = next(s for s, cmds in options.items() if cmds)
        await players[seat].send_json_to(rng.choice(options[seat]))
        sent += 1
        assert sent < 2000
        while await current_version(table.pk) == version:
            await asyncio.sleep(0.005)
    for comm in (*players.values(), watcher):
        await comm.disconnect()

    hands = await hands_of(table.pk)
    assert commitments_seen_before_a_move >= 3 * len(hands)  # both players and the watcher
    assert seeds_seen_after_the_end >= 3 * len(hands)
    for hand in hands:  # each hand mixed in the seed each player sent for it
        assert [seat for seat, _seed in hand.client_seeds] == [0, 1]
        for seat, seed in hand.client_seeds:
            assert seed in sent_seeds[seat]
