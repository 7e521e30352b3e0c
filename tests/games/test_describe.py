"""games/describe.py (issue 28, items 4 and 8): a table in words, the same everywhere.

The waiting screen of four in pairs with seven tiles said "draw from the
boneyard" while the table played a block game (no boneyard at 4 × 7); the
profile called online and stake matches "vs friends".  ``games.describe`` now
says both, from the engine's own reading of the table."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from games import services
from games.engine import PRESETS, Draw, Round, Rules, offered_tables
from games.models import Table
from games.view.presets import PRESET_INFO, describe_rules


def a_hand_ever_offers_a_draw(rules: Rules, seed: int) -> bool:
    """Play a hand through (the first legal move each turn): was drawing ever offered?"""
    hand = Round.deal(rules, rng=random.Random(seed))
    while not hand.over:
        moves = hand.legal_moves()
        if any(isinstance(m, Draw) for m in moves):
            return True
        hand.play(moves[0])
    return False


@pytest.mark.parametrize("rules", offered_tables(targets=True), ids=lambda r: r.to_text())
def test_every_table_is_described_as_the_engine_plays_it(rules: Rules) -> None:
    dealt = Round.deal(rules, rng=random.Random(7)).view(0)
    with translation.override("en"):
        title, seating, tiles, play, target = describe_rules(rules).split(" · ")
    assert title == str(PRESET_INFO[rules.preset].title)
    pairs = " in pairs" if rules.partnerships else ""
    assert seating == f"{rules.players} players{pairs}"
    assert tiles == f"{len(dealt.hand)} tiles each"
    assert target == ("a single hand" if rules.target is None else f"to {rules.target} points")
    if play == "block game":
        assert not (rules.draw and dealt.boneyard_count)
        assert not any(a_hand_ever_offers_a_draw(rules, seed) for seed in range(3))
    else:
        assert play == "draw game" and rules.draw and dealt.boneyard_count > 0
    with translation.override("it"):
        italian = describe_rules(rules)
    assert ("con pesca" if play == "draw game" else "a blocco") in italian
    assert ("in coppia" in italian) == rules.partnerships


PAIRS_OF_SEVEN = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)
PAIRS_FORM = {"preset": "domino", "seating": "4p", "hand_size": "7", "draw": "yes", "target": "100"}


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.django_db
def test_the_waiting_screen_the_lobby_and_the_table_agree_on_four_in_pairs_of_seven(
    make_user: Callable[..., User],
) -> None:
    client = Client()
    client.force_login(make_user("anna"))
    client.cookies["django_language"] = "it"
    client.post("/online/join/", PAIRS_FORM)
    waiting = text(client.get("/online/queue/").content.decode())
    lobby = text(client.get("/online/").content.decode())
    said = "Domino · 4 giocatori in coppia · 7 tessere a testa · a blocco · a 100 punti"
    assert said in waiting and said in lobby
    assert "pesc" not in waiting  # "peschi dal pozzo" was the slip
    table = services.table_create(
        host=make_user("bruno"), mode=Table.Mode.COMPUTER, rules=PAIRS_OF_SEVEN
    )
    bruno = Client()
    bruno.force_login(table.host)
    bruno.cookies["django_language"] = "it"
    page = text(bruno.get(f"/t/{table.code}/").content.decode())
    assert "4 giocatori in coppia · 7 tessere a testa · a blocco · a 100 punti" in page


DUELLO = PRESETS["duello"]
#: A table's row as each mode leaves it, and how the player reads that mode.
MODES = [
    ({"mode": "computer"}, "Against the computer"),
    ({"mode": "friends"}, "With friends"),
    ({"mode": "online"}, "Online"),
    ({"mode": "online", "fillers": 1}, "Online, with simulated players"),
    ({"mode": "online", "stake": 250}, "Stake table, 250 coins"),
]


def tables_in_every_mode(host: User, **row: object) -> None:
    """One table per mode, ``host`` seated (the mode, stake and fillers set on the row
    as matchmaking and the stake tables leave them)."""
    for fields, _said in MODES:
        table = services.table_create(host=host, mode=Table.Mode.FRIENDS, rules=DUELLO)
        Table.objects.filter(pk=table.pk).update(**fields, **row)


@pytest.mark.django_db
def test_the_profile_names_each_matchs_real_mode(make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    tables_in_every_mode(anna, status=Table.Status.FINISHED, winners="0")
    client = Client()
    client.cookies["django_language"] = "en"
    page = text(client.get("/accounts/players/anna/").content.decode())
    rows = re.findall(r"(?:Against|With|Online|Stake)[^·]*?Classic duel 1 1", page)
    assert [row.removesuffix(" Classic duel 1 1") for row in rows] == [s for _f, s in MODES]


@pytest.mark.django_db
def test_my_games_name_each_tables_real_mode(make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    tables_in_every_mode(anna)
    client = Client()
    client.force_login(anna)
    client.cookies["django_language"] = "it"
    page = client.get("/").content.decode()
    titles = re.findall(r'<span class="game-title">([^<]*)</span>', page)
    assert sorted(titles) == sorted(
        f"{said} · Domino classico, duello"
        for said in (
            "Contro il computer",
            "Con gli amici",
            "Online",
            "Online, con giocatori simulati",
            "Tavolo a posta, 250 monete",
        )
    )
