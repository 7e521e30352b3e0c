"""The coach's verdicts in words (the viewer's language): a mark, the preferred play
and one reason, from a stored ``MoveReview`` (``games.engine.coach.reason_for``
documents each reason's code and what makes it true)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from games.engine import Play, parse_move
from games.engine.coach import MARKS
from games.models import MoveReview


def _reasons() -> dict[str, Callable[[], str]]:
    # Built on each call so that each phrase is in the language active now.
    return {
        "blocks_next": lambda: _(
            "it leaves %(a)s and %(b)s open, and the next player surely has neither."
        ),
        "blocks_next_both": lambda: _(
            "it leaves %(number)s at both ends, and the next player surely has none."
        ),
        "partner_stuck": lambda: _(
            "%(played)s left only numbers your partner surely lacks; %(tile)s did not."
        ),
        "rival_number": lambda: _("it leaves a %(number)s open, which an opponent surely lacks."),
        "heavy_double": lambda: _(
            "a heavy double fits one number only, and costs a lot if it stays in your hand."
        ),
        "double": lambda: _("a double fits one number only: lay it while it still fits."),
        "scarce_number": lambda: _(
            "it leaves a %(number)s open, and at most one more %(number)s is out of sight."
        ),
        "kept_suit": lambda: _(
            "%(played)s gave up your last %(number)s; %(tile)s kept it, and more numbers "
            "to answer with."
        ),
        "follow": lambda: _(
            "afterwards %(count)s of your tiles fit the ends (%(other)s after your move)."
        ),
        "fewer_answers": lambda: _(
            "afterwards only %(count)s of the tiles out of sight fit the ends (%(other)s after "
            "your move): the next player, an opponent, has fewer answers."
        ),
        "heavier": lambda: _("it sheds %(pips)s more pips."),
        "margin_wins": lambda: _(
            "over the deals you could have been facing, it wins about %(percent)s hands in "
            "a hundred more."
        ),
        "margin": lambda: _(
            "over the deals you could have been facing, it scores about %(points)s points more."
        ),
    }


def mark_title(mark: str) -> str:
    """The mark's name: inaccuracy, mistake or blunder."""
    return str(MoveReview.Mark(mark).label)


def coach_words(review: MoveReview, *, opening: bool = False) -> tuple[str, str]:
    """The mark ("?!", "?", "??") and one line: the play the coach preferred and why."""
    mark = MARKS.get(review.mark, "")
    if not mark or not review.preferred:
        return mark, ""
    move = parse_move(review.preferred)
    assert isinstance(move, Play)
    if opening:
        where = str(move.tile)
    elif move.end == "left":
        where = _("%(tile)s on the left") % {"tile": move.tile}
    else:
        where = _("%(tile)s on the right") % {"tile": move.tile}
    reason = _reasons().get(review.reason)
    why = reason() % review.params if reason is not None else ""
    return mark, _("%(mark)s Better: %(move)s, because %(why)s") % {
        "mark": mark_title(review.mark).capitalize() + ".",
        "move": where,
        "why": why,
    }
