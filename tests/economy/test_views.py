"""The rewards page: every number of economy.numbers, the balance, the bonus, the shop."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from economy import numbers
from economy.audit import audit_ledger
from economy.models import Item, Purchase, Reason, Transfer
from economy.selectors import balance_of
from tests.fixtures import answers, race, said, signed_in

from .conftest import drain_to

pytestmark = pytest.mark.django_db


def page(client: Client) -> str:
    response = client.get("/coins/")
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_rewards_page_speaks_italian_by_default(client: Client, anna: User) -> None:
    client.force_login(anna)
    html = page(client)
    assert "Monete e premi" in html
    assert "Hai 1000 monete." in html


def test_the_rewards_page_shows_every_number(english: Client, anna: User) -> None:
    english.force_login(anna)
    html = page(english)
    assert f"Saving your account: {numbers.SIGNUP_GRANT} coins, once." in html
    assert f"Daily bonus: {numbers.DAILY_BONUS} coins" in html
    for seating, coins in numbers.ONLINE_COINS.items():
        assert " · ".join(map(str, coins)) in html, seating
        assert " · ".join(map(str, numbers.ONLINE_XP[seating])) in html, seating
    for c, x in ((30, 15), (40, 20), (50, 25), (40, 20)):  # friends: winners at half rate
        assert f"{c} coins, {x} XP" in html
    assert "Stakes of 100, 250, 500, 1000 coins" in html
    assert "Gold booster</strong> · ×1.5 · 24 hours · 300 coins" in html
    assert "VIP pass</strong> · ×2 · 7 days · 1500 coins" in html
    assert "Against the computer: nothing" in html


def test_guests_see_the_numbers_and_the_one_step_claim(
    english: Client, make_user: Callable[..., User]
) -> None:
    english.force_login(make_user("guest-g", guest=True))
    html = page(english)
    assert "save yours in one step" in html and 'href="/accounts/claim/"' in html
    assert "Buy</button>" not in html and "Daily bonus:" in html


def test_the_daily_bonus_button_pays_once_a_day(english: Client, anna: User) -> None:
    english.force_login(anna)
    assert "Collect today's bonus: 100 coins" in page(english)
    english.post("/coins/daily/")
    english.post("/coins/daily/")
    assert balance_of(user=anna) == 1100
    html = page(english)
    assert "Today's bonus is collected" in html
    assert "daily bonus</td><td>+100</td>" in html.replace("> <", "><")


def test_buying_from_the_shop_shows_the_booster_and_the_movement(
    english: Client, anna: User
) -> None:
    english.force_login(anna)
    token = str(uuid.uuid4())
    for _ in range(2):  # a double click
        english.post("/coins/buy/", {"item": Item.GOLD_BOOSTER, "token": token})
    assert balance_of(user=anna) == 700
    assert Purchase.objects.count() == 1
    html = page(english)
    assert "You have 700 coins." in html and "Active now" in html
    # the movement names what was bought
    assert "shop purchase: gold booster</td><td>-300</td>" in html.replace("> <", "><").lower()


def test_a_purchase_too_dear_says_so_and_changes_nothing(english: Client, anna: User) -> None:
    english.force_login(anna)
    response = english.post(
        "/coins/buy/", {"item": Item.VIP_PASS, "token": str(uuid.uuid4())}, follow=True
    )
    assert "You don&#x27;t have enough coins: this needs 1500, you have 1000." in (
        response.content.decode()
    )
    assert not Transfer.objects.filter(reason=Reason.SHOP).exists()


def test_nonsense_orders_are_refused(english: Client, anna: User) -> None:
    english.force_login(anna)
    response = english.post("/coins/buy/", {"item": "diamonds", "token": "x"}, follow=True)
    assert "That is not in the shop." in response.content.decode()
    assert english.get("/coins/buy/").status_code == 405


def test_one_order_token_for_another_item_is_refused_politely(english: Client, anna: User) -> None:
    english.force_login(anna)
    token = str(uuid.uuid4())
    english.post("/coins/buy/", {"item": Item.GOLD_BOOSTER, "token": token})
    response = english.post("/coins/buy/", {"item": Item.VIP_PASS, "token": token}, follow=True)
    assert "That order was already placed." in response.content.decode()
    assert balance_of(user=anna) == 700


def test_the_profile_shows_the_owner_their_coins_and_last_movements(
    english: Client, anna: User, bruno: User
) -> None:
    english.force_login(anna)
    own = re.sub(r"\s+", " ", english.get(f"/accounts/players/{anna.username}/").content.decode())
    assert 'id="coins"' in own and "You have 1000 coins." in own
    assert "sign-up grant</td><td>+1000</td>" in own.replace("> <", "><")
    other = english.get(f"/accounts/players/{bruno.username}/").content.decode()
    assert 'id="coins"' not in other  # nobody else's business


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_daily_bonus_asked_twenty_times_at_once_pays_once_and_says_so_once(
    anna: User,
) -> None:
    drain_to(anna, 0)
    client = signed_in(anna)
    responses = race(20, lambda _i: client.post("/coins/daily/"))
    assert set(answers(responses)) == {302}
    told = [m for r in responses for m in said(r)]
    assert sum("Daily bonus: 100 coins." in m for m in told) == 1, told
    assert sum("already collected today" in m for m in told) == 19, told
    assert balance_of(user=anna) == 100
    assert audit_ledger().ok


def test_what_the_player_cannot_afford_cannot_be_bought_and_says_why(
    english: Client, anna: User
) -> None:
    english.force_login(anna)  # 1,000 coins: the gold booster (300) yes, the VIP pass (1,500) no
    html = page(english)
    vip = html.split(f'value="{Item.VIP_PASS}"')[1].split("</li>")[0]
    assert '<button class="small" disabled' in vip
    assert "enough coins: this needs 1500, you have 1000." in vip
    gold = html.split(f'value="{Item.GOLD_BOOSTER}"')[1].split("</li>")[0]
    assert "disabled" not in gold
