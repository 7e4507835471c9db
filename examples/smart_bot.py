"""A bot with a few club-player habits, written against the SDK's helpers.

* bid on the catching cards of the best suit (the least bid that takes the contract);
* name that suit; keep trumps in a discard or a rob;
* lead a trump nobody can beat; throw points on partner's sure tricks; take a trick
  that holds points with the cheapest card that wins it; otherwise play cheap.

    python examples/smart_bot.py --server http://127.0.0.1:8000 --token TOKEN
    cinch bot run examples.smart_bot:SmartBot --server http://127.0.0.1:8000 --token TOKEN
"""

from __future__ import annotations

import sdk
from sdk import cards as C

WEIGHT = {"A": 3.0, "K": 2.0, "Q": 1.5, "J": 1.5, "T": 1.0, "5": 1.5, "2": 1.0}


def suit_value(hand: list[str], suit: str) -> float:
    """How good ``suit`` would be as trump: catching cards, Pedros, length."""
    trumps = C.trumps_in(hand, suit)
    return sum(WEIGHT.get(c[0], 0.5) for c in trumps) + max(0, len(trumps) - 3)


def cost(card: str, trump: str | None) -> tuple:
    """What playing a card gives away: points first, then trumps, then rank."""
    return C.card_points(card, trump), C.is_trump(card, trump), C.strength(card, trump)


class SmartBot(sdk.Bot):
    def best_suit(self, obs: sdk.Observation) -> str:
        suits = obs.legal_suits or list(C.SUITS)
        return max(suits, key=lambda s: (suit_value(obs.hand, s), s))

    def bid(self, obs):
        value = max(suit_value(obs.hand, s) for s in C.SUITS)
        top = 14 if obs.ruleset == "foster51" else 7 + int(value - 7)  # american62 bids start at 7
        affordable = [b for b in obs.legal_bids if b <= min(top, value + 1)]
        if affordable and value >= 6:
            return affordable[0]
        return None if obs.can_pass else obs.legal_bids[0]

    def trump(self, obs):
        return self.best_suit(obs)

    def discard(self, obs):
        choice = obs.choice
        must = list(choice.get("must_include", []))
        rest = [c for c in choice["from"] if c not in must]
        order = must + sorted(rest, key=lambda c: (obs.is_trump(c), C.strength(c, obs.trump)))
        plain = len(must) + sum(1 for c in rest if not obs.is_trump(c))
        count = min(max(plain, choice["min"]), choice.get("max", len(order)))
        return order[:count]

    def rob(self, obs):
        choice = obs.choice
        keep = list(choice["must_keep"])
        rest = [c for c in choice["from"] if c not in keep]
        rest.sort(key=lambda c: (obs.is_trump(c), C.strength(c, obs.trump)), reverse=True)
        return keep + rest[: choice["size"] - len(keep)]

    def play(self, obs):
        trump, legal = obs.trump, obs.legal_cards
        outstanding = obs.unseen_trumps
        top_unseen = C.strength(outstanding[0], trump) if outstanding else -1
        if obs.leading:
            trumps = C.trumps_in(legal, trump)
            if trumps and C.strength(trumps[0], trump) > top_unseen:
                return trumps[0]  # a sure winner pulls trumps
            return min(legal, key=lambda c: cost(c, trump))
        plays = obs.current_trick
        best = obs.winning_play["card"]
        last = len(plays) == 3
        safe = obs.partner_winning and (last or (C.is_trump(best, trump) and C.strength(best, trump) > top_unseen))
        if safe:  # partner takes it: give him points
            return max(legal, key=lambda c: (C.card_points(c, trump), -C.strength(c, trump)))
        winners = [c for c in legal if C.beats(c, best, trump)]
        points = sum(C.card_points(c, trump) for p in plays for c in [p["card"], *(p.get("extras") or [])])
        if winners and (points or last):
            sure = [c for c in winners if last or C.strength(c, trump) > top_unseen]
            if sure:  # win safely, saving a Pedro when possible
                return max(sure, key=lambda c: (C.card_points(c, trump), -C.strength(c, trump)))
            return min(winners, key=lambda c: cost(c, trump))
        return min(legal, key=lambda c: cost(c, trump))


if __name__ == "__main__":
    sdk.main(SmartBot)
