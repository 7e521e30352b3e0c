"""Deals anyone can verify, at the site: each hand is dealt from the seed the table
committed to and the seeds the players' browsers added after seeing the commitment;
the seed is shown only once the hand is over, and the verify page checks it."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.services import run_due
from games import services
from games.engine import Round
from games.engine.deals import commitment, deal
from games.history.selectors import verified_hand
from games.models import ClientSeed, Hand, Table
from games.records import load_match
from games.selectors import table_view
from games.services.deals import next_commitment
from games.view.errors import GameError
from tests.fixtures import DUELLO, PAIRS, play_a_legal_move, seat_user, signed_in, version_of

pytestmark = pytest.mark.django_db

ANNA_SEED, BRUNO_SEED = "aa" * 16, "0b" * 16


def shown_next(table: Table, user: User) -> str:
    """The next deal's commitment as ``user``'s table page carries it."""
    return table_view(table=table.pk, user=user).deal.next_commitment


def finish_the_hand(table: Table, rng: random.Random) -> None:
    while not load_match(table).round.over:
        play_a_legal_move(table, rng)
    table.refresh_from_db()


def dealt_as_the_seeds_say(table: Table, hand: Hand) -> bool:
    rules = table.rules
    seeds = [seed for _seat, seed in hand.client_seeds]
    dealt = deal(
        table.code, hand.number + 1, hand.seed, seeds, players=rules.players,
        hand_size=rules.hand_size,
    )  # fmt: skip
    start = Round.from_position(rules, hand.initial_position)
    same_hands = [set(h) for h in start.hands] == [set(h) for h in dealt.hands]
    return same_hands and start.boneyard == dealt.boneyard


def test_the_first_hand_mixes_the_seeds_sent_in_the_lobby_into_the_committed_one(
    anna: User, bruno: User
) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, user=bruno, version=version_of(table))
    shown = shown_next(table, anna)
    assert shown == shown_next(table, bruno) == commitment(table.code, 1, table.deal_seed)
    committed = table.deal_seed
    for user, seed in ((bruno, BRUNO_SEED), (anna, ANNA_SEED)):
        assert services.client_seed_add(table_id=table.pk, user=user, commitment=shown, seed=seed)
    services.table_start(table_id=table.pk, by=anna, version=version_of(table))

    hand = Hand.objects.get(table=table, number=0)
    assert hand.seed == committed
    assert hand.client_seeds == [[0, ANNA_SEED], [1, BRUNO_SEED]]
    assert dealt_as_the_seeds_say(table, hand)
    without = deal(table.code, 1, committed, [], players=2, hand_size=7)
    assert Round.from_position(DUELLO, hand.initial_position).boneyard != without.boneyard
    table.refresh_from_db()
    assert table.deal_seed != committed  # the next hand has a seed of its own
    assert not ClientSeed.objects.filter(table=table).exists()


def test_seeds_sent_during_a_hand_go_into_the_next_one(friends_table: Table) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    upcoming = shown_next(friends_table, bruno)
    assert upcoming == next_commitment(friends_table, 1)
    services.client_seed_add(
        table_id=friends_table.pk, user=bruno, commitment=upcoming, seed=BRUNO_SEED
    )
    finish_the_hand(friends_table, random.Random(3))
    if friends_table.status == Table.Status.FINISHED:
        pytest.skip("one hand ended the match")
    for user in (anna, bruno):
        services.hand_next(table_id=friends_table.pk, user=user, version=version_of(friends_table))
    second = Hand.objects.get(table=friends_table, number=1)
    assert second.client_seeds == [[1, BRUNO_SEED]]
    assert dealt_as_the_seeds_say(friends_table, second)
    first = verified_hand(friends_table, 1)
    assert first is not None and first.checked.ok
    assert verified_hand(friends_table, 2) is None  # being played: no proof yet


def test_a_late_a_bad_or_a_watchers_seed_changes_nothing(
    friends_table: Table, make_user: Callable[..., User]
) -> None:
    anna = seat_user(friends_table, 0)
    version = version_of(friends_table)
    first = commitment(friends_table.code, 1, Hand.objects.get(table=friends_table).seed)
    assert not services.client_seed_add(
        table_id=friends_table.pk, user=anna, commitment=first, seed=ANNA_SEED
    )  # that hand is dealt already
    with pytest.raises(GameError, match="could not be read"):
        services.client_seed_add(
            table_id=friends_table.pk,
            user=anna,
            commitment=shown_next(friends_table, anna),
            seed="AA" * 16,
        )
    with pytest.raises(GameError, match="watching"):
        services.client_seed_add(
            table_id=friends_table.pk,
            user=make_user("carla"),
            commitment=shown_next(friends_table, anna),
            seed=ANNA_SEED,
        )
    assert not ClientSeed.objects.exists() and version_of(friends_table) == version


def test_a_table_of_bots_deals_at_once_and_still_shows_the_commitment(anna: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=PAIRS)
    hand = Hand.objects.get(table=table, number=0)
    assert hand.seed and hand.client_seeds == []
    tv = table_view(table=table.pk, user=anna)
    assert tv.deal.commitment == commitment(table.code, 1, hand.seed)
    assert tv.deal.seed == "" and dealt_as_the_seeds_say(table, hand)


def page(client: Client, table: Table) -> str:
    return client.get(f"/t/{table.code}/").content.decode()


def test_the_page_shows_the_commitment_before_the_first_move_and_the_seed_only_after_the_end(
    friends_table: Table, make_user: Callable[..., User]
) -> None:
    anna, bruno = seat_user(friends_table, 0), seat_user(friends_table, 1)
    viewers = [signed_in(anna), signed_in(bruno), signed_in(make_user("carla")), Client()]
    hand = Hand.objects.get(table=friends_table, number=0)
    shown = commitment(friends_table.code, 1, hand.seed)
    for client in viewers:
        html = page(client, friends_table)
        assert f'data-commitment="{shown}"' in html
        assert hand.seed not in html
    rng = random.Random(11)
    while not load_match(friends_table).round.over:
        friends_table.refresh_from_db()
        secrets = (hand.seed, friends_table.deal_seed)
        for client in viewers:
            html = page(client, friends_table)
            assert not any(secret in html for secret in secrets)
        play_a_legal_move(friends_table, rng)
    friends_table.refresh_from_db()
    for client in viewers:
        html = page(client, friends_table)
        assert f'data-seed="{hand.seed}"' in html and "/hands/1/verify/" in html
        assert friends_table.deal_seed not in html  # the next hand's stays secret


def test_the_verify_page_checks_a_finished_hand_and_refuses_one_being_played(
    friends_table: Table,
) -> None:
    client = Client()
    assert client.get(f"/t/{friends_table.code}/hands/1/verify/").status_code == 404
    finish_the_hand(friends_table, random.Random(5))
    hand = Hand.objects.get(table=friends_table, number=0)
    page = f"/t/{friends_table.code}/hands/1/verify/"
    answer = client.get(page, HTTP_COOKIE="django_language=en")
    text = answer.content.decode()
    assert answer.status_code == 200 and "every move was legal" in text
    assert hand.seed in text and commitment(friends_table.code, 1, hand.seed) in text
    proof = client.get(f"{page}?format=json").json()
    assert proof["hands"][0]["seed"] == hand.seed and proof["table"] == friends_table.code
    assert client.get(f"/t/{friends_table.code}/hands/2/verify/").status_code == 404


def test_the_worker_deals_the_next_hand_from_its_committed_seed(friends_table: Table) -> None:
    finish_the_hand(friends_table, random.Random(2))
    if friends_table.status == Table.Status.FINISHED:
        pytest.skip("one hand ended the match")
    committed = friends_table.deal_seed
    run_due(now=timezone.now() + timedelta(minutes=1))  # nobody pressed: the clock deals
    second = Hand.objects.get(table=friends_table, number=1)
    assert second.seed == committed and dealt_as_the_seeds_say(friends_table, second)
