"""Finished games: the profile's list, the replay, the record's export.  Only hands
that are over are ever shown: a table being played has no replay and no record."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.services import run_due
from games import services
from games.engine import PRESETS, Match, Play, Round
from games.engine.verify import check, proofs_from_json
from games.models import SeatResult, Table
from games.records import load_match
from games.services import deals as service_deals
from games.view.snake import snake
from tests.fixtures import (
    DUELLO,
    play_a_legal_move,
    play_to_the_end,
    seeded_deals,
    version_of,
)

pytestmark = pytest.mark.django_db

STEPS = re.compile(r'<script type="application/json">(.*?)</script>', re.DOTALL)


def later() -> timezone.datetime:
    return timezone.now() + timedelta(minutes=1)


@pytest.fixture
def duel_against_the_computer(anna: User) -> Table:
    """A duello to 50 against the computer, several hands long."""
    from dataclasses import replace

    table = services.table_create(
        host=anna, mode=Table.Mode.COMPUTER, rules=replace(DUELLO, target=50), bot_level="easy"
    )
    return table


def get(client: Client, url: str) -> tuple[int, str]:
    answer = client.get(url, HTTP_COOKIE="django_language=en")
    return answer.status_code, answer.content.decode()


def line_of(table: Table, number: int, step: int, language: str = "en") -> str:
    """The line of the replay's hand ``number`` after ``step``, as its page asks for it."""
    answer = Client().get(f"/t/{table.code}/replay/{number}/line/?lang={language}&step={step}")
    assert answer.status_code == 200, (number, step, answer.status_code)
    assert "max-age=31536000" in answer["Cache-Control"]  # kept: a hand over never changes
    return str(answer.content.decode())


def test_a_table_being_played_has_no_replay_no_record_and_no_proofs(
    duel_against_the_computer: Table,
) -> None:
    table = duel_against_the_computer
    client = Client()
    for _ in range(3):  # also once its first hand has moves
        for url in (
            "replay/",
            "record.txt",
            "deals.json",
            "hands/1/verify/",
            *(f"replay/1/line/?lang=en&step={n}" for n in range(3)),  # nor any step's line
        ):
            assert client.get(f"/t/{table.code}/{url}").status_code == 404, url
        run_due(now=later()) or play_a_legal_move(table)


def test_the_replay_steps_through_every_hand_face_up_from_the_deal_and_the_record_reads_back(
    duel_against_the_computer: Table,
) -> None:
    table = duel_against_the_computer
    play_to_the_end(table)
    match = load_match(table)
    status, html = get(Client(), f"/t/{table.code}/replay/")
    assert status == 200
    hands = [json.loads(script) for script in STEPS.findall(html)]
    assert len(hands) == len(match.rounds) >= 1
    lines: list[list[str]] = []
    for steps, played in zip(hands, match.rounds, strict=True):
        assert len(steps) == len(played.moves) + 1  # the deal, then each move
        start = Round.from_position(table.rules, played.initial_position)
        assert [tuple(h) for h in steps[0]["hands"]] == [
            tuple(str(t) for t in hand) for hand in start.hands
        ]  # every hand face up from the deal
        # each step's line drawn as the table draws it: the snake, every tile in its place,
        # asked of the server step by step (the page carries none)
        number = len(lines) + 1
        lines.append([line_of(table, number, n) for n in range(len(steps))])
        assert lines[-1][0] == ""  # the deal's: empty
        for move, board in zip(played.moves, lines[-1][1:], strict=True):
            start.play(move)  # the hand after this move, as the engine has it
            if not start.line:
                assert board == ""
                continue
            laid = snake(start.line)
            assert board.startswith(f'<div class="snake {laid.line}">')
            placed = re.findall(r'<span class="placed([^"]*)" data-tile="([^"]+)"', board)
            assert [tile for _, tile in placed] == [str(p) for p in start.line]
            for (classes, _), places in zip(placed, laid.tiles, strict=True):
                assert classes.endswith(f" {places}")
            marked = [tile for classes, tile in placed if " last " in classes]
            event = start.log[-1]
            if isinstance(move, Play):  # the tile just played, as the table marks it
                end = -1 if event.ends is not None and move.end == "right" else 0
                assert marked == [str(start.line[end])]
            else:
                assert marked == []
        assert lines[-1][-1].count("data-tile=") == len(played.line)
        assert f'data-lines="/t/{table.code}/replay/{number}/line/?lang=en"' in html
    assert "<svg" not in "".join(STEPS.findall(html))  # no line drawn in the page's data
    assert "Final score" in html and f"/t/{table.code}/record.txt" in html
    assert f"http://testserver/t/{table.code}/replay/" in html  # the link to share
    assert html.count("Verify this hand") == len(match.rounds)

    # The export: the whole match as the engine's record, which reads back exactly.
    answer = Client().get(f"/t/{table.code}/record.txt")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")
    text = answer.content.decode()
    again = Match.from_record(text)
    assert again.record() == text.strip() == match.record()
    assert again.scores == match.scores and again.over
    # and every hand's deal checks out against its commitment, as the verify command sees it
    proofs = proofs_from_json(Client().get(f"/t/{table.code}/deals.json").json())
    assert len(proofs) == len(match.rounds) and all(check(p).ok for p in proofs)


def test_a_game_ended_early_replays_only_its_finished_hands(anna: User, bruno: User) -> None:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, user=bruno, version=version_of(table))
    services.table_start(table_id=table.pk, by=anna, version=version_of(table))
    play_a_legal_move(table)
    services.table_end(table_id=table.pk, by=anna, version=version_of(table))
    for url in ("replay/", "record.txt", "replay/1/line/?lang=en&step=1"):  # its hand was not over
        assert Client().get(f"/t/{table.code}/{url}").status_code == 404


def test_a_replays_lines_are_only_those_of_hands_over_and_a_browser_keeps_them(
    anna: User, bruno: User
) -> None:
    """A game ended in its second hand: the first hand's lines, step by step, kept by any
    cache (they never change); the second's, not over, no more than its replay."""
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    services.table_join(table_id=table.pk, user=bruno, version=version_of(table))
    services.table_start(table_id=table.pk, by=anna, version=version_of(table))
    while not (table.hands.count() == 2 and load_match(table).round.moves):
        run_due(now=later()) or play_a_legal_move(table)  # into the second hand's first move
    services.table_end(table_id=table.pk, by=anna, version=version_of(table))
    first = load_match(table).rounds[0]
    url = f"/t/{table.code}/replay/1/line/"

    last = Client().get(f"{url}?lang=en&step={len(first.moves)}")
    assert last.status_code == 200 and last["Content-Type"].startswith("text/html")
    assert "max-age=31536000" in last["Cache-Control"] and "public" in last["Cache-Control"]
    assert last["Content-Language"] == "en"  # the address's language, whatever the cookie
    tiles = re.findall(r'data-tile="([^"]+)"', last.content.decode())
    assert tiles == [str(p) for p in first.line]
    # in the page's language: the tiles' names for a screen reader
    italian = Client().get(f"{url}?lang=it&step={len(first.moves)}").content.decode()
    assert re.findall(r'data-tile="([^"]+)"', italian) == tiles
    assert re.findall(r'aria-label="([^"]+)"', italian) != re.findall(
        r'aria-label="([^"]+)"', last.content.decode()
    )
    for bad in (
        f"{url}?lang=en&step={len(first.moves) + 1}",  # past the hand's end
        f"{url}?lang=en&step=-1",
        f"{url}?lang=en&step=one",
        f"{url}?lang=en&step=%C2%B2",  # "²": a digit, not a number
        f"/t/{table.code}/replay/99999999999999999999/line/?lang=en&step=1",
        f"{url}?lang=en",  # no step
        f"{url}?lang=xx&step=1",  # no such language
        f"{url}?step=1",
        f"/t/{table.code}/replay/2/line/?lang=en&step=1",  # the hand not over: hidden
        f"/t/{table.code}/replay/3/line/?lang=en&step=0",
        f"/t/{table.code}/replay/0/line/?lang=en&step=0",
        "/t/NOSUCH/replay/1/line/?lang=en&step=0",
    ):
        answer = Client().get(bad)
        assert answer.status_code == 404, bad
        assert "max-age" not in answer.get("Cache-Control", ""), bad
    # and the page names the lines of its one hand over, in its language
    status, html = get(Client(), f"/t/{table.code}/replay/")
    assert status == 200 and f'data-lines="{url}?lang=en"' in html
    assert "/replay/2/line/" not in html


def four_players_six_hands(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> Table:
    """A game of four people, ended after six hands played at random (a game won in
    fewer, which the deals may allow, is played again)."""
    from dataclasses import replace

    people = [make_user(f"four_{n}") for n in range(4)]
    rules = replace(PRESETS["domino"], players=4, hand_size=7, target=150)
    rng = random.Random(6)
    monkeypatch.setattr(service_deals, "deal", seeded_deals(random.Random(6)))  # the same each run
    while True:
        table = services.table_create(host=people[0], mode=Table.Mode.FRIENDS, rules=rules)
        for user in people[1:]:
            services.table_join(table_id=table.pk, user=user, version=version_of(table))
        services.table_start(table_id=table.pk, by=people[0], version=version_of(table))
        while not (match := load_match(table)).over:
            if len(match.rounds) == 6 and match.round.over:
                break
            run_due(now=later()) or play_a_legal_move(table, rng)
        if len(match.rounds) == 6:
            break
    if not match.over:
        services.table_end(table_id=table.pk, by=people[0], version=version_of(table))
    return table


def test_a_long_replay_stays_light_for_a_phone(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six hands of four: the page, its lines left to be asked for, weighs little."""
    table = four_players_six_hands(make_user, monkeypatch)
    answer = Client().get(f"/t/{table.code}/replay/", HTTP_COOKIE="django_language=en")
    assert answer.status_code == 200 and answer.content.count(b"data-lines=") == 6
    assert len(answer.content) < 150_000, len(answer.content)


def finished_game(host: User, n: int, *, won: bool) -> Table:
    """A finished game against the computer, as the match's end records it."""
    table = services.table_create(host=host, mode=Table.Mode.COMPUTER, rules=PRESETS["blocco"])
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED,
        winners="0" if won else "1",
        finished_at=timezone.now() - timedelta(hours=100 - n),
    )
    for seat, points in ((0, 30 + n if won else n), (1, n if won else 30 + n)):
        SeatResult.objects.create(
            table=table,
            seat=seat,
            user=host if seat == 0 else None,
            side=seat,
            rank=1 if (seat == 0) == won else 2,
            points=points,
            is_bot=seat == 1,
        )
    return table


def test_the_profile_lists_finished_games_newest_first_a_page_at_a_time(
    anna: User, make_user: Callable[..., User]
) -> None:
    games = [finished_game(anna, n, won=n % 2 == 0) for n in range(12)]
    services.table_create(host=anna, mode=Table.Mode.COMPUTER, rules=DUELLO)  # being played
    client = Client()
    status, html = get(client, f"/accounts/players/{anna.username}/")
    assert status == 200 and "Finished games" in html
    listed = re.findall(r"/t/([\w-]+)/replay/", html)
    assert listed == [t.code for t in reversed(games)][:10]  # newest first
    first = html.index(f"/t/{games[11].code}/replay/")
    assert "Game lost" in html[html.rfind("<li", 0, first) : first]  # game 11: lost, 11 – 41
    assert "11 – 41" in html and "Page 1 of 2" in html
    status, html = get(client, f"/accounts/players/{anna.username}/?games=2")
    assert re.findall(r"/t/([\w-]+)/replay/", html) == [games[1].code, games[0].code]
    assert "Game won" in html and "30 – 0" in html
    _status, html = get(client, f"/accounts/players/{make_user('bruno').username}/")
    assert "No finished games yet." in html
