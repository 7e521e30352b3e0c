"""The rules pages: one per preset, in Italian and English, with the game's real numbers."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import PRESET_OPTIONS, PRESETS
from games.view.presets import PRESET_INFO

pytestmark = pytest.mark.django_db

ITALIAN_TITLES = {
    "blocco": "Domino a blocco",
    "domino": "Domino",
    "duello": "Domino classico, duello",
    "luciano": "Domino Luciano",
}


def english_title(preset: str) -> str:
    with translation.override("en"):
        return str(PRESET_INFO[preset].title)


def get(client: Client, preset: str, language: str | None) -> str:
    if language is not None:
        client.cookies["django_language"] = language
    response = client.get(reverse("rules", args=[preset]))
    assert response.status_code == 200
    return response.content.decode()


def text_of(client: Client, preset: str, language: str) -> str:
    """What a player reads: the page with tags as spaces, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", get(client, preset, language)).split())


@pytest.mark.parametrize("language", ["it", "en"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_has_a_rules_page_in_both_languages(
    client: Client, preset: str, language: str
) -> None:
    client.cookies["django_language"] = language
    response = client.get(reverse("rules", args=[preset]))
    assert response.status_code == 200
    assert f"games/rules/{language}/{preset}.html" in [t.name for t in response.templates]
    html = response.content.decode()
    title = ITALIAN_TITLES[preset] if language == "it" else english_title(preset)
    assert f"<h1>{title}</h1>" in html
    assert 'class="panel narrow rules-page"' in html
    assert "<table" in html and '<th scope="row">' in html  # how it differs
    assert f'href="{reverse("table_new")}?preset={preset}"' in html
    for other in PRESETS:
        if other != preset:
            assert f'href="{reverse("rules", args=[other])}"' in html


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_two_languages_say_different_words(client: Client, preset: str) -> None:
    italian = text_of(client, preset, "it")
    english = text_of(client, preset, "en")
    assert "Quando non puoi giocare" in italian and "When you cannot play" not in italian
    assert "When you cannot play" in english and "Quando non puoi giocare" not in english


def test_italian_is_the_default_language(client: Client) -> None:
    html = get(client, "blocco", None)
    assert "<h1>Domino a blocco</h1>" in html and "Chi gioca" in html


def test_an_unknown_preset_is_not_found(client: Client) -> None:
    assert client.get(reverse("rules", args=["scopa"])).status_code == 404
    client.cookies["django_language"] = "en"
    assert client.get(reverse("rules", args=["scopa"])).status_code == 404


def test_blocco_tiles_out_of_play_and_a_single_hand(client: Client) -> None:
    italian = text_of(client, "blocco", "it")
    assert "7 tessere a testa, 14 tessere restano fuori gioco" in italian
    assert "5 tessere a testa, 13 tessere restano fuori gioco" in italian
    assert "5 tessere a testa, 8 tessere restano fuori gioco" in italian
    assert "tutte le 28 tessere sono in gioco" in italian
    assert "Nessuno pesca mai" in italian and "Una sola mano" in italian
    assert "la partita finisce pari" in italian
    english = text_of(client, "blocco", "en")
    assert "7 tiles each, 14 tiles stay out of play" in english
    assert "5 tiles each, 13 tiles stay out of play" in english
    assert "5 tiles each, 8 tiles stay out of play" in english
    assert "all 28 tiles are in play" in english
    assert "Nobody ever draws" in english and "A single hand" in english
    assert "A blocked hand scores no points" in english


def test_blocco_numbers_match_the_engine(client: Client) -> None:
    english = text_of(client, "blocco", "en")
    for seating in PRESET_OPTIONS["blocco"].seatings:
        (size,) = seating.hand_sizes
        rules = replace(PRESETS["blocco"], players=seating.players, hand_size=size)
        rules = replace(rules, teams=seating.pairs)
        if rules.boneyard_size:
            assert f"{size} tiles each, {rules.boneyard_size} tiles stay out of play" in english
        else:
            assert rules.partnerships and "4 players in pairs" in english
    assert PRESETS["blocco"].target is None and not PRESETS["blocco"].draw


def test_domino_targets_and_boneyard_sizes(client: Client) -> None:
    italian = text_of(client, "domino", "it")
    assert "50, 100 o 150" in italian
    for row in ("18 nel pozzo 14 nel pozzo", "13 nel pozzo 7 nel pozzo", "8 nel pozzo 0"):
        assert row in italian
    assert "comprese le sue" in italian  # a blocked hand scores every tile left
    assert "entrambi gli avversari" in italian  # three players: both opponents' hands
    english = text_of(client, "domino", "en")
    assert "50, 100 or 150 points" in english
    assert "its own included" in english and "both opponents'" in english
    for seating in PRESET_OPTIONS["domino"].seatings:
        for size in seating.hand_sizes:
            rules = replace(
                PRESETS["domino"], players=seating.players, hand_size=size, teams=seating.pairs
            )
            left = rules.boneyard_size
            assert (f"{left} in the boneyard" if left else "0: no boneyard") in english
    assert PRESET_OPTIONS["domino"].targets == (50, 100, 150)


def test_duello_previous_winner_opens_and_targets_to_300(client: Client) -> None:
    italian = text_of(client, "duello", "it")
    assert "apre il vincitore della mano precedente" in italian
    assert "Dopo una mano finita in parità" in italian
    assert "50, 100, 150, 200, 250 o 300" in italian
    assert "7 tessere" in italian and "14" in italian and "bazar" in italian
    assert "la differenza" in italian
    english = text_of(client, "duello", "en")
    assert "the winner of the previous hand opens" in english
    assert "After a tied hand" in english
    assert "50, 100, 150, 200, 250 or 300 points" in english
    assert "scores the difference" in english
    rules = PRESETS["duello"]
    assert rules.next_opener == "previous_winner" and rules.blocked_scoring == "difference"
    assert PRESET_OPTIONS["duello"].targets == (50, 100, 150, 200, 250, 300)


def test_luciano_draw_or_block_and_the_difference(client: Client) -> None:
    italian = text_of(client, "luciano", "it")
    assert "A pesca:" in italian and "A chiusura" in italian
    assert "le altre 14 restano coperte" in italian
    assert "segna la differenza" in italian
    assert "Esempio: tu hai 4 punti, l'avversario 11: vinci tu e segni 7." in italian
    assert "100 punti" in italian
    english = text_of(client, "luciano", "en")
    assert "Draw:" in english and "Block:" in english
    assert "the other 14 stay face down" in english
    assert "scores the difference" in english
    assert "you win and score 7" in english
    assert PRESET_OPTIONS["luciano"].draw_choices == (True, False)
    assert PRESETS["luciano"].blocked_scoring == "difference"
    assert PRESETS["luciano"].target == 100
