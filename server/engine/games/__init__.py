"""The registry of games: one module per member of the family, each declaring its ``SPECS``.

Adding a relative means writing its module (a ``GameSpec`` and, if the play differs, a
hand class) and listing the module here; nothing else in the tree names a game.
"""

from __future__ import annotations

from server.engine.games import (
    all_fives,
    auction_cinch,
    auction_pitch,
    blind_cinch,
    cinch,
    pedro,
    pitch,
    seven_up,
    sixty_three,
    snoozer,
    widow_cinch,
)
from server.engine.rulesets import GameSpec

GAMES: dict[str, GameSpec] = {
    spec.name: spec
    for module in (
        cinch,
        seven_up,
        pitch,
        all_fives,
        blind_cinch,
        sixty_three,
        auction_pitch,
        pedro,
        snoozer,
        widow_cinch,
        auction_cinch,
    )
    for spec in module.SPECS
}
