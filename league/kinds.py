"""The kind of deadline the league owns (``deadlines.services.kind``)."""

from django.utils.translation import gettext_lazy as _

from deadlines.services import kind

LEAGUE_WEEK = kind("league_week", _("closing the league's week"))
