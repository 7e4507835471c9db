"""``pitch`` (Pitch, Blind All Fours; docs/rules/pitch.md): no turn-up, the eldest's
first lead fixes trump, and a tied Game scores for nobody.

A ruleset of its own rather than an option of seven_up: no beg decisions and another
Game tie rule, and ratings must not mix the two.
"""

from __future__ import annotations

from server.engine.games.all_fours import AllFoursHand
from server.engine.rulesets import TARGET, GameSpec, Ruleset


class PitchHand(AllFoursHand):
    """The play starts at once; the first ``do_play`` names trump (2.2)."""

    __slots__ = ()

    def _game_tie(self, tied: list[int]) -> int | None:
        return None  # 2.3: "no one can count Game if it is a tie", for every k


PITCH = Ruleset(name="pitch", target=7, min_bid=0)

# swing: High, Low, Jack and Game, all to one side (no turn-up, no gift, no bid)
SPECS = (
    GameSpec(default=PITCH, players=(2, 3, 4), options={"target": TARGET}, hand=PitchHand, partnerships=True, swing=4),
)
