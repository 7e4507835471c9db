"""Cinch itself, docs/rules/american62.md, docs/rules/foster51.md: ``american62`` and ``foster51``."""

from __future__ import annotations

from server.engine.games.cinch_hand import HandState
from server.engine.rulesets import AMERICAN62, CINCH_OPTIONS, FOSTER51, GameSpec

CINCH_SWING = 28
"""14 points a deal (docs/rules/american62.md#scoring): a side set on a bid of 14 loses 14
while the other takes up to 14 (by every scoring scheme, docs/rules/foster51.md)."""

SPECS = (
    GameSpec(
        default=AMERICAN62,
        players=(4,),
        options={},
        hand=HandState,
        partnerships=True,
        swing=CINCH_SWING,
    ),
    GameSpec(
        default=FOSTER51,
        players=(4,),
        options=CINCH_OPTIONS,
        hand=HandState,
        partnerships=True,
        swing=CINCH_SWING,
    ),
)
