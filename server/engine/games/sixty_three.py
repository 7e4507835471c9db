"""Sixty-three (docs/rules/sixty_three.md): Cinch with raises, 63 points a deal, game 150.

Everything else is ``foster51``'s hand (face-up discards of 3 to 9, the dealer robs), so
the game is a ruleset of the Cinch hand: ``raises`` for the auction that goes round,
``extra_counts`` for the King 25, Three 15 and Nine 9 of trumps.
"""

from __future__ import annotations

from server.engine.games.cinch_hand import HandState
from server.engine.rulesets import DRAW_FOSTER, SCORING_DIFFERENCE, TARGET, GameSpec, Ruleset, choice
from server.engine.scoring import SCORING_SETBACK

SIXTY_THREE = Ruleset(
    name="sixty_three",
    target=150,
    min_bid=1,
    max_bid=63,
    draw=DRAW_FOSTER,
    low_to_holder=False,
    scoring=SCORING_DIFFERENCE,
    raises=True,
    extra_counts=(("K", 25), ("3", 15), ("9", 9)),
)

SPECS = (
    GameSpec(
        default=SIXTY_THREE,
        players=(4,),
        hand=HandState,
        swing=126,  # 63 points a deal: set on 63, a side loses 63 while the other takes 63
        partnerships=True,
        options={
            "scoring": choice(
                "how a set side is scored: the difference, or set back by its bid", SCORING_DIFFERENCE, SCORING_SETBACK
            ),
            "target": TARGET,
        },
    ),
)
