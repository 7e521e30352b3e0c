"""accounts/names.py (issue 28, item 9): Italian sentences that name players.  "Tocca a
alice_nc", "bruno_nc e elena_nc" and "tonino1962 e Tu" become "Tocca ad alice_nc",
"bruno_nc ed elena_nc" and "tonino1962 e tu": every sentence naming players goes
through ``accounts.names`` (the live templates' ``{% trans %}`` too)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.utils import translation

from accounts.models import User
from accounts.names import Who, fill
from domino_site.asgi import application
from games import services, states
from games.engine import PRESETS, Round
from games.models import Hand, Table
from tests.games.test_consumers import frame_at_least, session_cookie

PO = Path(__file__).resolve().parents[2] / "locale" / "it" / "LC_MESSAGES" / "django.po"
ENTRY = re.compile(r'^msgstr(?:\[\d\])? "(.*)"$', re.MULTILINE)
#: Players as sentences name them: names starting with vowels, and the viewer ("Tu").
PLAYERS = [
    Who(["alice_nc"]),
    Who(["elena_nc"]),
    Who(["Anna"]),
    Who(["bruno_nc", "elena_nc"]),
    Who(["tonino1962", "Tu"], you=1),
    Who(["Tu", "alice_nc"], you=0),
    Who(["Tu"], you=0),
    Who(["ugo", "alice_nc", "elena_nc"]),
]


def sentences_naming_players() -> list[str]:
    """Every Italian message of the catalog with a player's name in it."""
    found = []
    for block in PO.read_text().split("\n\n"):
        if "%(name)s" in block or "%(names)s" in block:
            found += [m.replace('\\"', '"') for m in ENTRY.findall(block) if m]
    return found


def test_the_catalog_has_sentences_naming_players() -> None:
    assert len(sentences_naming_players()) >= 10


@pytest.mark.parametrize("message", sentences_naming_players())
def test_every_italian_sentence_names_players_as_italian_writes_them(message: str) -> None:
    with translation.override("it"):
        for who in PLAYERS:
            values = {key: "3" for key in re.findall(r"%\((\w+)\)s", message)}
            said = fill(message, {**values, "name": who, "names": who})
            assert not re.search(r"\b[aA] [aA]", said), said  # "ad alice"
            assert not re.search(r"\b[eE] [eE]", said), said  # "ed elena"
            assert not re.search(r"\b[aAeE]d [^aAeE]", said), said  # never "ad bruno"
            if "Tu" in said:
                assert said.startswith("Tu"), said  # mid-sentence: "tu", "te"
            prepositions = r"\b(?:a|ad|da|di|con|contro|per|tra|fra|su|in) tu\b"
            assert not re.search(prepositions, said), said  # "da te", not "da tu"


def test_english_sentences_keep_their_words() -> None:
    with translation.override("en"):
        assert fill("%(name)s to play.", {"name": Who(["alice"])}) == "alice to play."
        both = Who(["tonino1962", "You"], you=1)
        assert fill("%(names)s won the game.", {"names": both}) == "tonino1962 & you won the game."
        assert str(Who(["ugo", "alice", "elena"])) == "ugo, alice & elena"


# A table of four in pairs: tonino1962 and ugo against alice_nc and elena_nc.
PAIRS = replace(PRESETS["domino"], players=4, teams=True, hand_size=7, target=100)
BLOCCO_PAIRS = replace(PRESETS["blocco"], players=4, teams=True, hand_size=7)


def table_dealt(rules: object, names: list[str], hands: list[list[str]]) -> Table:
    people = [User.objects.create_user(name, password="pw-" + name) for name in names]
    table = services.online_table_create(rules=rules, people=people)  # type: ignore[arg-type]
    assert [table.seats.get(number=n).user for n in range(4)] == people
    dealt = Round.from_hands(rules, hands, dealer=3)  # type: ignore[arg-type]
    Hand.objects.filter(table=table).update(initial_position=dealt.initial_position)
    states.forget()
    return table


def italian_page(table: Table, username: str) -> str:
    client = Client()
    client.force_login(User.objects.get(username=username))
    client.cookies["django_language"] = "it"
    page = client.get(f"/t/{table.code}/").content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


@pytest.mark.django_db
def test_the_turn_and_the_scores_name_players_in_good_italian() -> None:
    table = table_dealt(
        PAIRS,
        ["tonino1962", "alice_nc", "ugo", "elena_nc"],
        [["1|1", "0|0"], ["6|6", "6|5"], ["2|2", "3|3"], ["4|4", "5|5"]],  # alice opens
    )
    page = italian_page(table, "ugo")
    assert "Tocca ad alice_nc." in page
    assert "tonino1962 e tu" in page and "e Tu" not in page
    assert "alice_nc ed elena_nc" in page


@pytest.mark.django_db
def test_the_end_of_the_match_names_the_winners_in_good_italian() -> None:
    table = table_dealt(
        BLOCCO_PAIRS,
        ["elena_nc", "bruno_nc", "ezio_nc", "ugo"],
        [["6|6"], ["1|1"], ["2|2"], ["3|3"]],  # elena lays her only tile: domino
    )
    elena = User.objects.get(username="elena_nc")
    services.move_submit(table_id=table.pk, user=elena, move="6|6L", version=table.version)
    assert "Partita vinta da elena_nc ed ezio_nc." in italian_page(table, "bruno_nc")


@pytest.mark.django_db(transaction=True)
async def test_the_host_is_told_the_invitation_went_to_alice_in_good_italian() -> None:
    tonino = await sync_to_async(User.objects.create_user)("tonino1962", password="pw-t-123")
    await sync_to_async(User.objects.create_user)("alice_nc", password="pw-a-123")
    table = await sync_to_async(services.table_create)(
        host=tonino, mode=Table.Mode.FRIENDS, rules=PRESETS["duello"]
    )
    cookie = b"django_language=it; " + await sync_to_async(session_cookie)(tonino)
    socket = WebsocketCommunicator(
        application,
        f"/ws/table/{table.code}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    assert (await socket.connect())[0]
    await frame_at_least(socket, 0)
    await socket.send_json_to({"action": "invite", "username": "alice_nc", "version": 0})
    assert "Invito inviato ad alice_nc." in await socket.receive_from(timeout=5)
    await socket.disconnect()
    await sync_to_async(connections.close_all)()
