"""Hands dealt from committed seeds, and the seeds players' browsers add
(``games.engine.deals``; the README's "Deals anyone can verify").

The order that keeps the server from choosing a deal: a table always holds the
secret seed of its next hand (``Table.deal_seed``), whose commitment its seated
players see; their browsers then send seeds of their own for that commitment
(``client_seed_add``); the deal (at the start, or the next hand after the current
one's result) mixes in whatever arrived by then and gives the table a fresh seed
for the hand after.  Nobody waits for a seed: the time between hands, or before a
table starts, is the window, and a table of bots deals at once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine import Round, Rules
from games.engine.deals import commitment, deal, is_client_seed, new_seed
from games.models import ClientSeed, Hand, Table
from games.store import locked_table
from games.view.errors import GameError


def next_commitment(table: Table, hands_dealt: int) -> str:
    """The commitment of the table's next hand (``hands_dealt``: how many it has)."""
    return commitment(table.code, hands_dealt + 1, table.deal_seed)


def deal_hand(
    table: Table, rules: Rules, *, number: int, dealer: int, opener: int | None
) -> tuple[Round, Hand]:
    """Deal hand ``number`` (from 0) from the table's committed seed and the seeds
    sent for it, and store it; the table gets the next hand's seed (the caller saves
    the table's row, under its lock)."""
    seed = table.deal_seed
    sent = list(
        ClientSeed.objects.filter(table=table, commitment=commitment(table.code, number + 1, seed))
        .order_by("seat")
        .values_list("seat", "seed")
    )
    dealt = deal(
        table.code,
        number + 1,
        seed,
        [s for _seat, s in sent],
        players=rules.players,
        hand_size=rules.hand_size,
    )
    round_ = Round.from_hands(
        rules, dealt.hands, boneyard=dealt.boneyard, dealer=dealer, opener=opener
    )
    hand = Hand.objects.create(
        table=table,
        number=number,
        initial_position=round_.initial_position,
        seed=seed,
        client_seeds=[[seat, s] for seat, s in sent],
    )
    if sent:
        ClientSeed.objects.filter(table=table).delete()  # kept on the hand's row now
    table.deal_seed = new_seed()
    return round_, hand


@transaction.atomic
def client_seed_add(*, table_id: int, user: User, commitment: str, seed: str) -> bool:
    """A seated player's browser adds ``seed`` to the deal it saw ``commitment`` for.
    False when that deal is already dealt (or the game over): too late, nothing changes.
    The table's version does not move: nobody's screen changes."""
    if not is_client_seed(seed):
        raise GameError(_("That seed could not be read."))
    table = locked_table(table_id)
    seat = table.seats.filter(user=user).values_list("number", flat=True).first()
    if seat is None:
        raise GameError(_("You are watching this table, not playing."))
    if table.status not in (Table.Status.WAITING, Table.Status.PLAYING):
        return False
    if commitment != next_commitment(table, table.hands.count()):
        return False
    ClientSeed.objects.update_or_create(
        table=table, commitment=commitment, seat=seat, defaults={"seed": seed}
    )
    return True
