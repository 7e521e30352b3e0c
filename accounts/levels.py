"""Levels from experience points: each level needs 100 XP more than the last."""

from __future__ import annotations

from dataclasses import dataclass

XP_STEP = 100


@dataclass(frozen=True)
class Level:
    number: int
    xp_into: int  # XP earned since this level began
    xp_needed: int  # XP this level takes in all

    @property
    def progress_percent(self) -> int:
        return 100 * self.xp_into // self.xp_needed


def level_for(xp: int) -> Level:
    """Level 1 at 0 XP, level 2 at 100, level 3 at 300, level 4 at 600…"""
    number, floor = 1, 0
    while xp >= floor + number * XP_STEP:
        floor += number * XP_STEP
        number += 1
    return Level(number, xp - floor, number * XP_STEP)
