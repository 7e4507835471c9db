"""``seven_up`` (All Fours, Seven-up, Old Sledge; docs/rules/seven_up.md): the turn-up
game itself, so it is ``TurnUpHand`` with its own defaults."""

from __future__ import annotations

from server.engine.games.all_fours import TURN_UP_OPTIONS, TurnUpHand
from server.engine.rulesets import GameSpec, Ruleset

SEVEN_UP = Ruleset(name="seven_up", target=7, min_bid=0)

SEVEN_UP_SWING = 10
"""Four points a deal (docs/rules/seven_up.md#points), a gift and turned Jacks, one for each
Jack turned up while the cards are run: at most 4 + 1 + 4 < 10, all to one side."""

SPECS = (
    GameSpec(
        default=SEVEN_UP,
        players=(2, 3, 4),
        options=TURN_UP_OPTIONS,
        hand=TurnUpHand,
        partnerships=True,
        swing=SEVEN_UP_SWING,
    ),
)
