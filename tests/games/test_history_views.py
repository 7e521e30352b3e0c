"""Finished games: the profile's list, the replay, the record's export.  Only hands
that are over are ever shown: a table being played has no replay and no record."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from deadlines.services import run_due
from games import services
from games.engine import PRESETS, Match, Placed, Round
from games.engine.verify import check, proofs_from_json
from games.models import SeatResult, Table
from games.records import load_match
from games.view.snake import snake
from tests.fixtures import DUELLO, play_a_legal_move, play_to_the_end, version_of

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


def test_a_table_being_played_has_no_replay_no_record_and_no_proofs(
    duel_against_the_computer: Table,
) -> None:
    table = duel_against_the_computer
    client = Client()
    for _ in range(3):  # also once its first hand has moves
        for url in ("replay/", "record.txt", "deals.json", "hands/1/verify/"):
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
    for steps, played in zip(hands, match.rounds, strict=True):
        assert len(steps) == len(played.moves) + 1  # the deal, then each move
        start = Round.from_position(table.rules, played.initial_position)
        assert [tuple(h) for h in steps[0]["hands"]] == [
            tuple(str(t) for t in hand) for hand in start.hands
        ]  # every hand face up from the deal
        assert steps[0]["line"] == [] and steps[-1]["line"] == [str(p) for p in played.line]
        # each step's line drawn as the table draws it: the snake, every tile in its place
        assert steps[0]["board"] == ""
        for step in steps[1:]:
            line = [Placed(*map(int, t.split("|"))) for t in step["line"]]
            if not line:
                continue
            laid = snake(line)
            assert step["board"].startswith(f'<div class="snake {laid.line}">')
            placed = re.findall(r'<span class="placed([^"]*)" data-tile="([^"]+)"', step["board"])
            assert [tile for _, tile in placed] == step["line"]
            for (classes, _), places in zip(placed, laid.tiles, strict=True):
                assert classes.endswith(f" {places}")
            marked = [tile for classes, tile in placed if " last " in classes]
            if step["kind"] == "play":  # the tile just played, as the table marks it
                end = -1 if step["played"] == "right" else 0
                assert marked == [step["line"][end]]
            else:
                assert marked == []
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
    for url in ("replay/", "record.txt"):  # its only hand was not over
        assert Client().get(f"/t/{table.code}/{url}").status_code == 404


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
