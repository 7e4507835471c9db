"""``all_fives`` (docs/rules/all_fives.md): seven_up plus pegs for the counting trumps of
each trick, scored at once, and the Five of trumps worth 5 more for Game. Target 61."""

from __future__ import annotations

from server.engine.cards import ACE, FIVE, JACK, KING, QUEEN, TEN
from server.engine.games.all_fours import TURN_UP_OPTIONS, TurnUpHand
from server.engine.games.seven_up import SEVEN_UP_SWING
from server.engine.rulesets import GameSpec, Ruleset
from server.engine.tricks import Trick

# 3.1: what each trump pegs to the side that wins it, by rank.
PEGS = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1, TEN: 10, FIVE: 5}


class AllFivesHand(TurnUpHand):
    """Pegs when a trick is won (3.1); play stops after the trick that reaches the target
    in a game (3.3)."""

    __slots__ = ()
    five_for_game = 5  # 3.2

    def _trick_won(self, trick: Trick, side: int) -> bool:
        trump = self.trump
        value = sum(PEGS.get(card % 13, 0) for _, card, _ in trick.plays if card // 13 == trump)
        return bool(value) and self._score("peg", side, value, trick=len(self.tricks) - 1)


ALL_FIVES = Ruleset(name="all_fives", target=61, min_bid=0)

# swing: seven_up's, the pegs of every counting trump (25) and the Five's 5 more for Game
SPECS = (
    GameSpec(
        default=ALL_FIVES,
        players=(2, 3, 4),
        options=TURN_UP_OPTIONS,
        hand=AllFivesHand,
        partnerships=True,
        swing=SEVEN_UP_SWING + 30,
    ),
)
