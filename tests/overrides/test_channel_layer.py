"""The embedded default's channel layer: Channels' in-memory layer, swept for
expired messages every few seconds instead of on every send and receive."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import channels.layers
import pytest

from overrides.channel_layer import LocalChannelLayer

pytestmark = pytest.mark.asyncio


async def test_a_group_send_reaches_every_member_in_order() -> None:
    layer = LocalChannelLayer()
    members = [await layer.new_channel() for _ in range(4)]
    for channel in members:
        await layer.group_add("table-1", channel)
    for n in range(3):
        await layer.group_send("table-1", {"type": "table.version", "version": n})
    for channel in members:
        got = [(await layer.receive(channel))["version"] for _ in range(3)]
        assert got == [0, 1, 2]


async def test_a_message_nobody_reads_still_expires_and_leaves_its_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = LocalChannelLayer(expiry=60)
    gone, alive = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", gone)
    await layer.group_add("table-1", alive)
    await layer.send(gone, {"type": "x"})  # never received: its socket died
    later = time.time() + 61  # the message's minute is over (no waiting for it)
    monkeypatch.setattr(channels.layers, "time", SimpleNamespace(time=lambda: later))
    layer.swept_at = 0.0  # as if the sweep's interval had passed since the last one
    await layer.group_send("table-1", {"type": "y"})
    assert gone not in layer.groups["table-1"]
    assert (await layer.receive(alive))["type"] == "y"


async def test_a_group_send_reaches_a_member_already_waiting_and_skips_a_full_one() -> None:
    layer = LocalChannelLayer(capacity=1)
    waiting, full = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", waiting)
    await layer.group_add("table-1", full)
    listener = asyncio.ensure_future(layer.receive(waiting))
    await asyncio.sleep(0)  # the consumer listens before anything is sent
    await layer.send(full, {"type": "table.version", "version": 0})
    await layer.group_send("table-1", {"type": "table.version", "version": 1})
    assert (await listener)["version"] == 1
    assert (await layer.receive(full))["version"] == 0  # the second did not fit


async def test_a_consumer_that_stops_listening_leaves_no_queue_behind() -> None:
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "x"})
    assert (await layer.receive(channel))["type"] == "x"
    listener = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)
    listener.cancel()
    with pytest.raises(asyncio.CancelledError):
        await listener
    assert channel not in layer.channels


async def test_each_member_receives_its_own_copy_of_a_message() -> None:
    layer = LocalChannelLayer()
    members = [await layer.new_channel() for _ in range(2)]
    for channel in members:
        await layer.group_add("table-1", channel)
    plain = {"type": "table.version", "version": 3}
    nested = {"type": "table.seats", "seats": [1, 2]}
    await layer.group_send("table-1", plain)
    await layer.group_send("table-1", nested)
    plain["version"], nested["seats"][0] = 4, 9  # the sender changes its dicts afterwards
    first, second = [[await layer.receive(c) for _ in range(2)] for c in members]
    assert (
        first
        == second
        == [
            {"type": "table.version", "version": 3},
            {"type": "table.seats", "seats": [1, 2]},
        ]
    )
    first[1]["seats"].append(3)  # one receiver's change is not another's
    assert second[1]["seats"] == [1, 2]


async def test_a_bad_channel_name_is_refused_on_send_and_receive() -> None:
    layer = LocalChannelLayer()
    with pytest.raises(TypeError):
        await layer.send("not a channel!", {"type": "x"})
    with pytest.raises(TypeError):
        await layer.receive("not a channel!")
    assert not layer.channels
