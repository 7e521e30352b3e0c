"""Invitations: a declined one stays declined, and the table is locked before the invitation."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import services
from games.models import Invitation, Table
from games.view.errors import GameError
from tests.fixtures import DUELLO, version_of

pytestmark = pytest.mark.django_db

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _invite_bruno(anna: User) -> tuple[Table, Invitation]:
    table = services.table_create(host=anna, mode=Table.Mode.FRIENDS, rules=DUELLO)
    return table, services.table_invite(
        table_id=table.pk, version=version_of(table), by=anna, username="bruno"
    )


def test_a_declined_invitation_can_no_longer_be_accepted(
    english: Client, anna: User, bruno: User
) -> None:
    table, invitation = _invite_bruno(anna)
    english.force_login(bruno)
    english.post(reverse("invitation_decline", args=[invitation.pk]))
    response = english.post(reverse("invitation_accept", args=[invitation.pk]), follow=True)
    assert not table.seats.filter(user=bruno).exists()
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert response.redirect_chain[-1][0] == reverse("invitations")
    assert "You declined this invitation." in response.content.decode()


def test_a_declined_invitation_is_refused_by_the_service_in_italian_too(
    anna: User, bruno: User
) -> None:
    _table, invitation = _invite_bruno(anna)
    services.invitation_decline(invitation_id=invitation.pk, user=bruno)
    with translation.override("it"), pytest.raises(GameError) as refused:
        services.invitation_accept(invitation_id=invitation.pk, user=bruno)
    assert refused.value.message == "Hai rifiutato questo invito."


def test_accepting_twice_keeps_the_same_seat(english: Client, anna: User, bruno: User) -> None:
    table, invitation = _invite_bruno(anna)
    english.force_login(bruno)
    first = english.post(reverse("invitation_accept", args=[invitation.pk]))
    second = english.post(reverse("invitation_accept", args=[invitation.pk]))
    assert first.url == second.url == reverse("table", args=[table.code])
    assert table.seats.filter(user=bruno).count() == 1


def test_an_accepted_invitation_cannot_seat_someone_who_left(anna: User, bruno: User) -> None:
    table, invitation = _invite_bruno(anna)
    services.invitation_accept(invitation_id=invitation.pk, user=bruno)
    services.table_leave(table_id=table.pk, version=version_of(table), user=bruno)
    with pytest.raises(GameError, match="already answered"):
        services.invitation_accept(invitation_id=invitation.pk, user=bruno)
    assert not table.seats.filter(user=bruno).exists()


def test_someone_elses_invitation_cannot_be_accepted_or_declined(anna: User, bruno: User) -> None:
    _table, invitation = _invite_bruno(anna)
    for service in (services.invitation_accept, services.invitation_decline):
        with pytest.raises(GameError, match="not for you"):
            service(invitation_id=invitation.pk, user=anna)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.PENDING


def _locked_tables(queries: list[dict[str, str]]) -> list[str]:
    """The tables each SELECT … FOR UPDATE locked, in order."""
    locked = []
    for query in queries:
        sql = query["sql"]
        if "FOR UPDATE" in sql:
            locked.append(sql.split(" FROM ", 1)[1].split()[0].strip('"'))
    return locked


@pytest.mark.postgres
@pytest.mark.skipif(not ON_POSTGRES, reason="SQLite has no row locks to order")
@pytest.mark.parametrize("service", ["invitation_decline", "invitation_accept"])
def test_invitation_decline_locks_the_table_before_the_invitation(
    service: str, anna: User, bruno: User
) -> None:
    _table, invitation = _invite_bruno(anna)
    with CaptureQueriesContext(connection) as captured:
        getattr(services, service)(invitation_id=invitation.pk, user=bruno)
    locked = _locked_tables(captured.captured_queries)
    assert locked[:2] == ["games_table", "games_invitation"], locked


def test_the_home_page_badge_and_panel_show_pending_invitations(anna: User, bruno: User) -> None:
    page = Client()
    page.force_login(bruno)
    empty = page.get("/").content.decode()
    assert 'class="badge empty"' in empty and "/accept/" not in empty
    _table, invitation = _invite_bruno(anna)
    invited = page.get("/").content.decode()
    assert reverse("invitation_accept", args=[invitation.pk]) in invited  # the panel lists it
    assert '<span id="invite-badge" class="badge" aria-label' in invited and ">1</span>" in invited
    other = page.get(reverse("rules_index")).content.decode()  # any page: the badge counts
    assert ">1</span>" in other
