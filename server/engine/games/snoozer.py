"""``snoozer`` (Dom Pedro, Snoozer; docs/rules/snoozer.md): Pedro with a 53rd card, the
joker ``JK``, and 36 points a deal.

Only what differs from ``PedroHand`` is here: the 53-card pack (the registry's ``deck``;
the deal, ``deal_all`` included, is Pedro's over 53 cards, 6.1), the joker as the lowest
trump once the pitch has named the suit (``JokerTrumpTables``: it follows and makes a
trump lead and wins a plain-suit trick no other trump is in, 6.2), the pitch that may
not be ``JK`` (it names no suit, 6.2, 14), the Three and the joker's 15 among the items
(6.3: the joker is neither High nor Low), bids to 36 and a target of 50 or 100 (6.4).
"""

from __future__ import annotations

from typing import Any

from server.engine.cards import FIVE, JOKER, JOKER_TRUMP_TABLES, NINE, TEN, THREE
from server.engine.games.all_fours import PLAY
from server.engine.games.auction_pitch import Item
from server.engine.games.pedro import PedroHand, PedroRules
from server.engine.hand import IllegalAction
from server.engine.rulesets import GameSpec, choice, flag

JOKER_BIT = 1 << JOKER
JOKER_POINTS = 15  # 6.3: "JK 15", scored last ("Snoozer", 6.4)


class SnoozerHand(PedroHand):
    """Snoozer's hand: Pedro's over 53 cards with the joker as the lowest trump."""

    __slots__ = ()
    card_items = (("ten", TEN, 1), ("three", THREE, 3), ("five", FIVE, 5), ("nine", NINE, 9))  # 6.3, 6.4

    def _fix_trump(self, suit: int) -> None:
        self.trump, self.tables = suit, JOKER_TRUMP_TABLES[suit]

    def legal_mask(self) -> int:
        """The follow rules with the joker among the trumps; before the pitch any card but
        ``JK`` (6.2: the pitch names the trump suit, the joker has none)."""
        if self.tables is None:
            return self.hands[self.actor()] & ~JOKER_BIT
        return super().legal_mask()

    def _refuse_rule(self, action: Any) -> None:
        """A pitch of ``JK`` names its rule (6.2, 14) rather than a follow rule."""
        if (
            self.phase == PLAY
            and self.tables is None
            and isinstance(action, dict)
            and action.get("type") == "play"
            and action.get("card") == "JK"
            and action.get("seat", self.seats[self.actor()]) == self.seats[self.actor()]
            and self.hands[self.actor()] & JOKER_BIT
        ):
            raise IllegalAction("JK cannot be the pitch: the joker names no suit (docs/rules/snoozer.md#joker)")
        super()._refuse_rule(action)

    def _game_items(self, in_play: int) -> list[Item]:
        """Ten, Three, Five and Nine of trumps, then the joker's 15, each to its winner if
        in play (6.3; an undealt joker scores for nobody, 16.13)."""
        items = super()._game_items(in_play)
        if in_play & JOKER_BIT:
            items.append(("snoozer", self._winner_side(JOKER), JOKER_POINTS, JOKER))
        return items


SNOOZER = PedroRules(name="snoozer", target=50, min_bid=1, max_bid=36, raises=True)

SPECS = (
    GameSpec(
        default=SNOOZER,
        players=(4, 5, 6, 7),
        options={
            "target": choice("the game's target, 50 or 100 (no effect on a duplicate board)", 50, 100),
            "deal_all": flag("the whole 53-card pack is dealt, not six each"),
        },
        hand=SnoozerHand,
        deck=53,
    ),
)
