"""``pedro`` (Pedro, Pedro Sancho; docs/rules/pedro.md): Auction Pitch with raises up
to 18 and 18 points a deal, every one to the player who wins it.

Only what differs from ``AuctionPitchHand`` is here: the option ``deal_all`` (5.1), the
raises (the ruleset's ``raises``, which the auction already follows, 5.2), the items
counted to the winner with the Ten as Game and the Five and Nine of trumps (5.3), and
the target 50 (5.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from server.engine.cards import FIVE, NINE, TEN, mask_of
from server.engine.games.auction_pitch import AuctionPitchHand, Item
from server.engine.rulesets import TARGET, GameSpec, Ruleset, flag

# 5.3: the cards that score besides High, Low and Jack, by rank, in the scoring order (5.4).
CARD_ITEMS = (("ten", TEN, 1), ("five", FIVE, 5), ("nine", NINE, 9))


@dataclass(frozen=True)
class PedroRules(Ruleset):
    """A pedro ruleset: ``deal_all`` deals the whole pack out (5.1)."""

    deal_all: bool = False


@cache
def deal_all_rounds(k: int, cards: int = 52) -> tuple[tuple[int, int], ...]:
    """(start, packet size) of each round when all ``cards`` are dealt (5.1, 6.1): rounds
    of 3 while at least 3k cards remain, then rounds of 1 while at least k remain."""
    rounds, x = [], 0
    for size in (3, 1):
        while cards - x >= size * k:
            rounds.append((x, size))
            x += size * k
    return tuple(rounds)


class PedroHand(AuctionPitchHand):
    """Pedro's hand: the deal of the whole pack as an option and the 18 points a deal."""

    __slots__ = ()
    rules: PedroRules
    to_winner = True  # 5.3: "Everything counts to the player winning it"
    card_items: tuple[tuple[str, int, int], ...] = (
        CARD_ITEMS  # the trumps that count after High, Low and Jack, by rank, in order
    )

    def _deal(self, deck: tuple[int, ...]) -> None:
        if not self.rules.deal_all:
            super()._deal(deck)
            return
        k, eldest = self.k, self.eldest
        hands = [0] * k
        end = 0
        for x, size in deal_all_rounds(k, len(deck)):
            for i in range(k):  # F3: a round of ``size`` from x gives o_i deck[x+size*i : x+size*(i+1)]
                hands[(eldest + i) % k] |= mask_of(deck[x + size * i : x + size * (i + 1)])
            end = x + size * k
        self.hands = hands
        self.dealt = mask_of(deck[:end])  # the last cards (52 mod k in pedro) are out of play

    def _game_items(self, in_play: int) -> list[Item]:
        """The Ten (Game), Five and Nine of trumps, each to its winner if in play (5.3)."""
        base = self.trump_tables().trump * 13
        return [
            (item, self._winner_side(base + rank), value, base + rank)
            for item, rank, value in self.card_items
            if in_play >> (base + rank) & 1
        ]


PEDRO = PedroRules(name="pedro", target=50, min_bid=1, max_bid=18, raises=True)

SPECS = (
    GameSpec(
        default=PEDRO,
        players=(4, 5, 6, 7),
        options={
            "target": TARGET,
            "deal_all": flag("the whole pack is dealt (13 cards each at four ... 7 at seven), not six each"),
        },
        hand=PedroHand,
    ),
)
