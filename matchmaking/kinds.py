"""The kinds of deadline matchmaking owns (``deadlines.services.kind``)."""

from django.utils.translation import gettext_lazy as _

from deadlines.services import kind

POOL_FILL = kind("pool_fill", _("filling a room with simulated players"))
POOL_WAVE = kind("pool_wave", _("pairing a pool again as its rating windows widen"))
QUEUE_LEAVE = kind("queue_leave", _("leaving the queue once the waiting screens stayed closed"))
