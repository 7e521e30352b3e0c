"""Every name the simulated players' styles make, for the tests that check them."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from matchmaking.names import PARTS, STYLES, fields_of


def base_names() -> Iterator[str]:
    """Every name the styles make before a number is added (capitals aside)."""
    for style in STYLES:
        fields = fields_of(style)
        for values in itertools.product(*(PARTS[f] for f in fields)):
            yield style.format(**dict(zip(fields, values, strict=True)))
