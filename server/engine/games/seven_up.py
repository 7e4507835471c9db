"""``seven_up`` (All Fours, Seven-up, Old Sledge; docs/rules/seven_up.md): the turn-up
game itself, so it is ``TurnUpHand`` with its own defaults."""

from __future__ import annotations

from server.engine.games.all_fours import TURN_UP_OPTIONS, TurnUpHand
from server.engine.rulesets import GameSpec, Ruleset

SEVEN_UP = Ruleset(name="seven_up", target=7, min_bid=0)

SPECS = (GameSpec(default=SEVEN_UP, players=(2, 3, 4), options=TURN_UP_OPTIONS, hand=TurnUpHand, partnerships=True),)
