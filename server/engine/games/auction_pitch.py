"""``auction_pitch`` (Auction Pitch, Sell Out; docs/rules/auction_pitch.md): Pitch for 4 to 7
players each for himself, with an auction before the pitch.

The deal and the play are the All Fours hand's (``AllFoursHand``: two rounds of three,
plain trumps, the first play names trump). What is added here is what stands between
the deal and the pitch and what it changes in the scoring:

* the auction: the players from the eldest's left to the dealer bid once each, the
  eldest never (4.2); with ``raises`` (pedro) the outbid go on raising (5.2);
* the sale: the eldest sells to the highest bidder, who then pitches, or pitches
  himself, at the highest bid or with no contract (4.3); the pitcher leads (4.4);
* the scoring: every item is computed, then a pitcher short of his contract is set back
  by it and scores none of his items (4.6, 4.7).

``points`` are what each player won in the play, the failed pitcher's items included
(the replay cases show them); ``delta`` is the items actually applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, Self

from server.engine.cards import ALL_CARDS_MASK, ALL_NAMES, JACK
from server.engine.games.all_fours import AllFoursHand, pips
from server.engine.games.single_bids import SingleBids
from server.engine.hand import IllegalAction, bid_amount, bid_entries
from server.engine.rulesets import TARGET, GameSpec, Ruleset

BIDDING, SALE = "bidding", "sale"

Item = tuple[str, int, int, int]  # (item, side, value, card or -1)


class AuctionPitchHand(SingleBids, AllFoursHand):
    """One hand of Auction Pitch: the auction, the sale, the pitch and the scoring."""

    to_winner = False  # pedro: every counting card scores for the player who wins it
    action_fields = {**AllFoursHand.action_fields, "bid": ("amount",), "sell": (), "pitch": ()}
    phase_words = {**AllFoursHand.phase_words, BIDDING: "pass or bid", SALE: "sell or pitch"}

    __slots__ = ("active", "opened", "won_points")

    def _start(self, deck: tuple[int, ...]) -> None:
        """Deal, then ask the eldest's left-hand neighbour to bid (4.2)."""
        self._deal(deck)
        self._open_auction()
        self.active = 0  # seats that have bid and not passed (a pass is final)
        self.opened = False  # the first round o_1 ... o_{k-1} is over
        self.won_points = [0] * len(self.sides)
        self.phase, self.to_act = BIDDING, (self.eldest + 1) % self.k

    def _start_play(self) -> None:
        """The play as the All Fours hand starts it, but led by the pitcher (4.4)."""
        super()._start_play()
        self.tricks[-1].leader = self.to_act = self.declarer

    def _public_from(self, obs: Mapping[str, Any]) -> None:
        """The pitcher, his contract and the auction, from a play observation (world_state)."""
        seats = list(self.seats)
        self.declarer = seats.index(obs["declarer"])
        contract = obs["contract"]
        self.contract = None if contract is None else (seats.index(contract["seat"]), contract["amount"])
        self.bids = [(seats.index(b["seat"]), b.get("amount", 0)) for b in obs["bids"]]
        self.high_bid = max((a for _, a in self.bids), default=0)

    def clone(self) -> Self:
        """As the All Fours hand's, with the auction's own list copied."""
        new = super().clone()
        new.bids = self.bids.copy()
        return new

    # ------------------------------------------------------------------ auction (fast layer)
    def do_bid(self, amount: int) -> None:
        """A bid (0: pass) by the seat to act; then the next bidder, or the sale."""
        seat = self.actor()
        self.bids.append((seat, amount))
        if amount:
            self.high_bid, self.high_bidder = amount, seat
            self.active |= 1 << seat
        else:
            self.active &= ~(1 << seat)
        if not self.opened and seat != self.dealer:
            self.to_act = (seat + 1) % self.k
            return
        self.opened = True
        nxt = self._next_raiser(seat) if self.rules.raises else -1
        if nxt >= 0:
            self.to_act = nxt
        else:
            self.phase, self.to_act = SALE, self.eldest

    def _next_raiser(self, seat: int) -> int:
        """After the first round (5.2, 16.7): the next seat clockwise from ``seat`` that has
        bid, has not passed and is not the highest bidder; -1 when the auction is over.
        The eldest never bid, so he is never asked."""
        for step in range(1, self.k):
            s = (seat + step) % self.k
            if self.active >> s & 1 and s != self.high_bidder:
                return s
        return -1

    def can_sell(self) -> bool:
        """Sell needs a bid (4.3), and in a game not one that would put the eldest out (16.2)."""
        if not self.high_bid:
            return False
        if not self.in_game:
            return True
        eldest = self.side_of[self.eldest]
        return self.scores[eldest] + self.totals[eldest] + self.high_bid < self.rules.target

    def choices(self) -> tuple[str, ...]:
        """The sale's actions; sell only when ``can_sell`` (4.3, 4.8: asked even if only pitch)."""
        if self.phase == SALE:
            return ("sell", "pitch") if self.can_sell() else ("pitch",)
        return super().choices()

    def decide(self, kind: str) -> None:
        """A pass, or the eldest's sale or pitch (trusted: the wire layer checked it)."""
        if kind == "pass":
            self.do_bid(0)
        elif kind == "sell":
            self.contract = (self.high_bidder, self.high_bid)
            self.declarer = self.high_bidder
            if not self._score("sale", self.side_of[self.eldest], self.high_bid):
                self._start_play()
        elif kind == "pitch":
            self.declarer = self.eldest
            self.contract = (self.eldest, self.high_bid) if self.high_bid else None
            self._start_play()
        else:
            super().decide(kind)

    def _random_decision(self, rng: Random) -> None:
        if self.phase == BIDDING:
            r = self.rules
            low = max(r.min_bid, self.high_bid + 1)
            i = int(rng.random() * (r.max_bid - low + 2))  # pass, low, ..., max_bid
            self.do_bid(low + i - 1 if i else 0)
        elif self.phase == SALE:
            options = self.choices()
            self.decide(options[int(rng.random() * len(options))])
        else:
            super()._random_decision(rng)

    # ------------------------------------------------------------------ wire layer
    def legal_actions(self) -> list[dict[str, Any]] | None:
        """Bids as Cinch lists them (pass first, then every amount); else the All Fours hand's."""
        if self.phase == BIDDING:
            return bid_entries(self.legal_bids())
        return super().legal_actions()

    def decide_action(self, kind: str, action: dict[str, Any]) -> None:
        """A bid carries its amount; the other decisions are their type alone."""
        if kind == "bid":
            self.do_bid(bid_amount(self.rules, action.get("amount"), self.high_bid))  # 4.2, 5.2
        else:
            self.decide(kind)

    def _refuse_rule(self, action: Any) -> None:
        """A sale with no bid, or one that would put the eldest out, names its rule (14)."""
        if (
            self.phase == SALE
            and isinstance(action, dict)
            and action.get("type") == "sell"
            and action.get("seat", self.seats[self.eldest]) == self.seats[self.eldest]
            and not self.can_sell()
        ):
            if not self.high_bid:
                raise IllegalAction("the eldest cannot sell: nobody bid")
            raise IllegalAction(
                f"the eldest cannot sell: a bid of {self.high_bid} would put him out (4.3); he must pitch"
            )

    # ------------------------------------------------------------------ scoring
    def _play_items(self) -> list[Item]:
        """What each player won in the play, item by item in the scoring order (4.5):
        High and Low (to their holders here, 4.5; to the winner in pedro, 5.3), Jack,
        then ``_game_items``."""
        in_play = 0
        for mask in self.hands_in_play():
            in_play |= mask
        # the suit's trumps (never empty: the pitch is one); snoozer's joker is neither High
        # nor Low (6.3)
        tab = self.trump_tables()
        trumps = in_play & tab.trump_mask & ALL_CARDS_MASK
        high, low = trumps.bit_length() - 1, (trumps & -trumps).bit_length() - 1
        owner = self._winner_side if self.to_winner else self._holder_side
        items: list[Item] = [("high", owner(high), 1, high), ("low", owner(low), 1, low)]
        jack = tab.trump * 13 + JACK
        if in_play >> jack & 1:
            items.append(("jack", self._winner_side(jack), 1, jack))
        return items + self._game_items(in_play)

    def _game_items(self, in_play: int) -> list[Item]:
        """Game (F7) to the player with most pips; a tie for most scores for nobody (4.5)."""
        counts = [pips(w) for w in self.won]
        top = max(counts)
        return [("game", counts.index(top), 1, -1)] if counts.count(top) == 1 else []

    def _score_hand(self) -> None:
        """The pitcher's set back if he failed, then the items in order, his own left out
        if he failed (4.6, 4.7); in a game the first to reach the target stops it (F9)."""
        items = self._play_items()
        won = [0] * len(self.sides)
        for _, side, value, _ in items:
            won[side] += value
        self.won_points = won
        pitcher = self.side_of[self.declarer]
        bid = 0 if self.contract is None else self.contract[1]
        failed = bid > 0 and won[pitcher] < bid
        if failed and self._score("set-back", pitcher, -bid):
            return
        for item, side, value, card in items:
            if failed and side == pitcher:
                continue
            if self._score(item, side, value, **({"card": ALL_NAMES[card]} if card >= 0 else {})):
                return
        self._finish()

    def points(self) -> tuple[int, ...]:
        """What each player won in the play, a failed pitcher's unscored items included."""
        return tuple(self.won_points)

    # ------------------------------------------------------------------ views
    def public(self, me: int | None) -> dict[str, Any]:
        """Also public: the auction, bid by bid."""
        out = super().public(me)
        out["bids"] = [
            {"seat": self.seats[s], "type": "bid", "amount": a} if a else {"seat": self.seats[s], "type": "pass"}
            for s, a in self.bids
        ]
        return out


AUCTION_PITCH = Ruleset(name="auction_pitch", target=7, min_bid=1, max_bid=4)

SPECS = (GameSpec(default=AUCTION_PITCH, players=(4, 5, 6, 7), options={"target": TARGET}, hand=AuctionPitchHand),)
