"""The kinds of deadline the tables own (``deadlines.services.kind``)."""

from django.utils.translation import gettext_lazy as _

from deadlines.services import kind

BOT_MOVE = kind("bot_move", _("a computer player's move"))
TURN_CLOCK = kind("turn_clock", _("a turn's time running out"))
FORCED_MOVE = kind("forced_move", _("a player's only move, played for them"))
NEXT_HAND = kind("next_hand", _("the next hand"))
STAKE_FILL = kind("stake_fill", _("a stake table's time to fill"))
COACH = kind("coach", _("the coach's review of a finished hand"))
