"""``auction_cinch`` (Razzle-dazzle; docs/rules/auction_cinch.md): Cinch for five or six players,
each for himself, where the declarer *calls* a card and its holder becomes his partner.

The play is the All Fours hand's for ``k`` seats (``AllFoursHand``: the deal of two rounds
of three, the follow rule, tricks) with Cinch's trumps and counting cards. What is added:

* the auction as ``foster51`` (one bid each, eldest to dealer, 1 to 14; all pass: the
  dealer declares with no contract) and the declarer's trump (10.3);
* the draw: each seat from the eldest, the dealer last, discards 0 to 6 cards face up and
  draws as many from the stock, which is rebuilt from the non-trump discards not yet put
  back when it runs out (10.4, 16.10). The stock is the board's deck read from ``6k`` (no
  copy), and a rebuilt one is a tuple read from 0: an index moves, nothing is popped;
* the call (10.5, 16.11): the seat holding the called card, other than the declarer, is the
  partner, publicly and at once; otherwise the declarer plays alone, also announced;
* the scoring (10.6, 10.7): two sides for this hand only, the *makers* and the
  *opponents* (``team_of``); ``foster51``'s hand rule between them, each member adding
  his side's score; and the game end of 10.8 (``settle``).

Scores, deltas and the units of duplicate play are per seat (each plays for himself);
the replay shows ``points`` by ``makers``/``opponents`` as the family's contract says.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, Self

from server.engine.boards import Board, restock_order
from server.engine.cards import (
    ALL_NAMES,
    CARD_INDEX,
    CARD_NAMES,
    JOKER,
    SUITS,
    TRUMP_TABLES,
    cards_of,
    mask_of,
    names_of,
)
from server.engine.games.all_fours import DONE, PLAY, AllFoursHand
from server.engine.games.single_bids import SingleBids
from server.engine.hand import IllegalAction, bid_amount, bid_entries, card_set, trump_entries
from server.engine.rulesets import DRAW_FOSTER, SCORING_DIFFERENCE, TARGET, GameSpec, Ruleset
from server.engine.scoring import hand_delta
from server.engine.tricks import Trick
from server.engine.world import WorldError

BIDDING, TRUMP, DISCARD, CALL = "bidding", "trump", "discard", "call"
MAKERS, OPPONENTS = "makers", "opponents"
MAX_DISCARD = 6  # 10.4: "0 to 6 cards of his choice"

_FIELDS: dict[str, tuple[str, ...]] = {
    "pass": (),
    "bid": ("amount",),
    "trump": ("suit",),
    "discard": ("cards",),
    "call": ("card",),
    "play": ("card", "extras"),
}
_EXPECTED = {BIDDING: "pass or bid", TRUMP: "trump", DISCARD: "discard", CALL: "call", PLAY: "play"}


class AuctionCinchHand(SingleBids, AllFoursHand):
    """One hand of Razzle-dazzle: auction, trump, draw, call, play, scoring."""

    after_auction = TRUMP  # 10.3: the declarer names trump

    action_fields = _FIELDS
    phase_words = _EXPECTED

    __slots__ = (
        "stock",
        "stock_at",
        "pile",
        "restocked",
        "restocks",
        "discarded",
        "draws",
        "called",
        "partner",
        "makers",
        "taken",
        "team_points",
        "seat_delta",
    )

    def _start(self, deck: tuple[int, ...]) -> None:
        """Deal (10.2) and ask the eldest to bid (10.3)."""
        self._deal(deck)
        k = self.k
        self._open_auction()
        self.stock, self.stock_at = deck, 6 * k  # the stock is stock[stock_at:], top first
        self.pile = 0  # discards not put back into a stock (trumps always stay here)
        self.restocked = 0  # discards put back into a rebuilt stock (public: they were face up)
        self.restocks = 0
        self.discarded = [0] * k
        self.draws: list[tuple[int, int, int, tuple[int, ...]]] = []  # (seat, discarded, drawn, as listed)
        self.called, self.partner, self.makers = -1, -1, 0
        self.taken = [0] * k  # counting points each seat won in tricks (10.8's tie-break)
        self.team_points: tuple[int, int] | None = None
        self.seat_delta: tuple[int, ...] | None = None
        self.phase, self.to_act = BIDDING, self.eldest

    def clone(self) -> Self:
        new = super().clone()
        new.bids, new.discarded, new.draws, new.taken = (
            self.bids.copy(),
            self.discarded.copy(),
            self.draws.copy(),
            self.taken.copy(),
        )
        return new

    # ------------------------------------------------------------------ partnership hook
    def team_of(self, seat: int) -> int:
        """0 for the makers (the declarer and the holder of the called card), 1 for the
        opponents; before the call every seat is its own team (its seat index + 2)."""
        if self.phase in (PLAY, DONE):
            return 0 if self.makers >> seat & 1 else 1
        return seat + 2

    # ------------------------------------------------------------------ fast layer
    def do_trump(self, suit: int) -> None:
        """Trump named: the draw starts with the eldest (10.4)."""
        self.trump, self.tables = suit, TRUMP_TABLES[suit]
        self.phase, self.to_act = DISCARD, self.eldest

    def do_discard(self, cards: int, listed: tuple[int, ...] = ()) -> None:
        """``cards`` face up, as many drawn from the stock; the dealer's draw ends it and
        the declarer calls (10.4, 10.5). ``listed``: the cards as the action named them."""
        seat = self.actor()
        self.hands[seat] &= ~cards
        self.pile |= cards
        self.discarded[seat] |= cards
        got = self._draw(cards.bit_count()) if cards else 0
        self.hands[seat] |= got
        self.draws.append((seat, cards, got, listed))
        if seat == self.dealer:
            self.phase, self.to_act = CALL, self.declarer
        else:
            self.to_act = (seat + 1) % self.k

    def _draw(self, n: int) -> int:
        """``n`` cards from the top of the stock, rebuilding it from the non-trump discards
        not yet put back whenever it is empty (docs/rules/common.md#reshuffle, docs/rules/rulings.md#reshuffles). There is always such a
        card: fewer than 6k cards are in hands while a seat draws, and there are 38 non-trumps."""
        got, stock, at = 0, self.stock, self.stock_at
        while n:
            if at == len(stock):
                rebuilt = self.pile & ~self.trump_tables().trump_mask
                self.pile &= ~rebuilt
                self.restocked |= rebuilt
                stock = self.stock = tuple(restock_order(self.board.seed, self.restocks, cards_of(rebuilt)))
                at = 0
                self.restocks += 1
            take = min(n, len(stock) - at)
            for c in stock[at : at + take]:
                got |= 1 << c
            at += take
            n -= take
        self.stock_at = at
        return got

    def do_call(self, card: int) -> None:
        """The call (10.5): another seat holding ``card`` is the partner, else nobody."""
        self.called = card
        self.partner = -1
        for seat in range(self.k):
            if seat != self.declarer and self.hands[seat] >> card & 1:
                self.partner = seat
        self.makers = 1 << self.declarer | (1 << self.partner if self.partner >= 0 else 0)
        self._start_play()

    def _start_play(self) -> None:
        """The play as the All Fours hand starts it, but led by the declarer (10.6)."""
        super()._start_play()
        self.tricks[-1].leader = self.to_act = self.declarer

    def _trick_won(self, trick: Trick, side: int) -> bool:
        """Counting cards go to the trick's winner (10.6: 14 points, each to the winner)."""
        won = trick.cards() & self.trump_tables().counting_mask
        if won:
            points = self.trump_tables().points
            self.taken[trick.best_seat] += sum(points[c] for c in cards_of(won))
        return False

    def _score_hand(self) -> None:
        """Makers against opponents by ``foster51``'s hand rule (10.7); the counting trumps
        among the discards are the makers' (16.11), those in the stock nobody's."""
        tab = self.trump_tables()
        self.phase, self.to_act = DONE, None
        team = [self.team_of(s) for s in range(self.k)]
        won = [0, 0]
        for s in range(self.k):
            won[team[s]] += self.taken[s]
        won[0] += sum(tab.points[c] for c in cards_of(self.pile & tab.counting_mask))
        self.team_points = (won[0], won[1])
        gain = hand_delta(self.rules, 0, self.contract[1] if self.contract else None, self.team_points)
        self.seat_delta = tuple(gain[t] for t in team)

    def _random_decision(self, rng: Random) -> None:
        """One uniformly random decision before the play (the All Fours hand's
        ``random_step`` plays the cards): a bid or pass, a suit, a discard of a random
        size 0 to 6 of random cards, a called card of the 52."""
        phase = self.phase
        if phase == DISCARD:
            held = cards_of(self.hands[self.actor()])
            cards = 0
            for _ in range(int(rng.random() * (MAX_DISCARD + 1))):
                cards |= 1 << held.pop(int(rng.random() * len(held)))
            self.do_discard(cards)
        elif phase == BIDDING:
            low = max(self.rules.min_bid, self.high_bid + 1)
            i = int(rng.random() * (self.rules.max_bid - low + 2))  # pass, low, ..., max_bid
            self.do_bid(low + i - 1 if i else 0)
        elif phase == TRUMP:
            self.do_trump(int(rng.random() * 4))
        elif phase == CALL:
            self.do_call(int(rng.random() * 52))
        else:
            super()._random_decision(rng)

    # ------------------------------------------------------------------ results
    def points(self) -> tuple[int, ...]:
        """Per seat, the points its side (makers or opponents) took; zeros until done."""
        if self.team_points is None:
            return (0,) * self.k
        m, o = self.team_points
        return tuple(m if self.makers >> s & 1 else o for s in range(self.k))

    def delta(self) -> tuple[int, ...]:
        return self.seat_delta if self.seat_delta is not None else (0,) * self.k

    def settle(self, before: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        """The whole hand at once; if several reach the target (10.8) the highest total
        wins, then the declarer, then more points won in tricks on this hand, then the
        one nearest the declarer's left."""
        after = tuple(b + d for b, d in zip(before, self.delta()))
        reached = [s for s in range(self.k) if after[s] >= self.rules.target]
        if not reached:
            return after, None
        k, declarer = self.k, self.declarer
        return after, max(reached, key=lambda s: (after[s], s == declarer, self.taken[s], -((s - declarer) % k)))

    # ------------------------------------------------------------------ wire layer
    def legal_actions(self) -> list[dict[str, Any]] | None:
        phase = self.phase
        if phase == BIDDING:
            return bid_entries(self.legal_bids())
        if phase == TRUMP:
            return trump_entries()
        if phase == DISCARD:
            return [{"type": "discard", "from": names_of(self.hands[self.actor()]), "min": 0, "max": MAX_DISCARD}]
        if phase == CALL:
            return [{"type": "call", "card": name} for name in CARD_NAMES]
        return super().legal_actions()

    def _refuse_rule(self, action: Any) -> None:
        """A call that names no card is refused in 14's words whatever else is wrong."""
        if self.phase == CALL and isinstance(action, dict) and action.get("type") == "call":
            card = action.get("card")
            if not isinstance(card, str) or CARD_INDEX.get(card, JOKER) == JOKER:
                raise IllegalAction(f"a call must name one of the 52 cards, not {card!r}")

    def decide_action(self, kind: str, action: dict[str, Any]) -> None:
        if kind == "pass":
            self.do_bid(0)
        elif kind == "bid":
            self.do_bid(bid_amount(self.rules, action.get("amount"), self.high_bid))
        elif kind == "trump":
            suit = action.get("suit")
            if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
                raise IllegalAction(f"trump suit must be one of C D H S, not {suit!r}")
            self.do_trump(SUITS.index(suit))
        else:  # call: the card was checked by _refuse_rule
            self.do_call(CARD_INDEX[action["card"]])

    def apply(self, action: Any) -> None:
        """As the All Fours hand's; a discard also keeps the order its cards were named in
        (face-up counting trumps are listed in that order)."""
        if self.phase == DISCARD and isinstance(action, dict) and action.get("type") == "discard":
            self._refuse_rule(action)
            self.check_envelope(action, self.action_fields, self.phase_words)
            seat = self.actor()
            cards = self._checked_discard(action)
            self.do_discard(cards, tuple(CARD_INDEX[c] for c in action["cards"]))
            self.record_action(action, seat)
            return
        super().apply(action)

    def _checked_discard(self, action: dict[str, Any]) -> int:
        cards = card_set(action.get("cards"), "discard cards")
        for c in cards_of(cards & ~self.hands[self.actor()]):
            raise IllegalAction(f"{self.seats[self.actor()]} does not hold {ALL_NAMES[c]}")
        return cards  # 0 to 6 cards of a six-card hand: any held set is legal (10.4)

    # ------------------------------------------------------------------ views
    def makers_names(self) -> list[str] | None:
        if self.phase not in (PLAY, DONE):
            return None
        return [self.seats[s] for s in range(self.k) if self.makers >> s & 1]

    def scored_items(self) -> list[dict[str, Any]]:
        """Every counting card scored so far, in the order won (tricks in play order, then,
        on a complete hand, the makers' face-up discards in the order shown)."""
        tab = self.tables
        out: list[dict[str, Any]] = []
        if tab is None:
            return out
        points = tab.points
        for trick in self.tricks:
            if trick.winner is None:
                break
            side = (MAKERS, OPPONENTS)[self.team_of(trick.winner)]
            for _, c, _ in trick.plays:
                if points[c]:
                    out.append({"item": CARD_NAMES[c], "side": side, "value": points[c]})
        if self.phase == DONE:
            deck = self.board.deck
            for _, cards, _, listed in self.draws:
                for c in listed or sorted(cards_of(cards), key=deck.index):
                    if points[c] and self.pile >> c & 1:
                        out.append({"item": CARD_NAMES[c], "side": MAKERS, "value": points[c], "discard": True})
        return out

    def describe(self) -> dict[str, Any]:
        """The replay result, with ``points`` by makers and opponents (the family's contract)."""
        out = super().describe()
        if self.team_points is not None:
            out["points"] = {MAKERS: self.team_points[0], OPPONENTS: self.team_points[1]}
        return out

    def describe_extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "items": self.scored_items(),
            "makers": self.makers_names(),
            "partner": self.seats[self.partner] if self.partner >= 0 else None,
        }
        if self.phase == DONE:
            out["record"] = {
                "discards": self.seat_dict(d & self.pile for d in self.discarded),
                "stock": [CARD_NAMES[c] for c in self.stock[self.stock_at :]],
                "out_of_play": [],
                "widow": [],
                "turnups": [],
            }
        return out

    def public(self, me: int | None) -> dict[str, Any]:
        """Public: the auction, every discard (face up), which of them were put back into
        a rebuilt stock, the stock's size, the call and its outcome. Only ``me``'s own
        draw names the cards it drew."""
        return {
            "items": self.scored_items(),
            "bids": [
                {"seat": self.seats[s], "type": "bid", "amount": a} if a else {"seat": self.seats[s], "type": "pass"}
                for s, a in self.bids
            ],
            "draws": [
                {
                    "seat": self.seats[s],
                    "discarded": d.bit_count(),
                    "received": g.bit_count(),
                    "shown": names_of(d),
                    "drawn": names_of(g) if s == me else None,
                }
                for s, d, g, _ in self.draws
            ],
            "restocks": self.restocks,
            "restocked": names_of(self.restocked),
            "stock_size": len(self.stock) - self.stock_at,
            "called": CARD_NAMES[self.called] if self.called >= 0 else None,
            "partner": self.seats[self.partner] if self.partner >= 0 else None,
            "makers": self.makers_names(),
        }

    @classmethod
    def at_play(cls, rules: Ruleset, obs: Mapping[str, Any], hands: list[int]) -> Self:
        """The first lead with ``hands`` (see ``Hand.at_play``): auction, trump and the
        discards still out from ``obs``; the call is made again on ``hands``, and a world
        where it finds another partner than the observation's is refused."""
        seats = list(obs["seats"])
        state = cls(rules, Board(obs["dealer"], tuple(range(52)), "00"), tuple(obs["scores"][s] for s in seats))
        state.hands = list(hands)
        state.bids = [(seats.index(b["seat"]), b.get("amount", 0)) for b in obs["bids"]]
        state.high_bid = max((a for _, a in state.bids), default=0)
        state.declarer = seats.index(obs["declarer"])
        contract = obs["contract"]
        state.contract = None if contract is None else (seats.index(contract["seat"]), contract["amount"])
        state.do_trump(SUITS.index(obs["trump"]))
        shown = mask_of(CARD_INDEX[c] for d in obs["draws"] for c in d["shown"])
        state.restocked = mask_of(CARD_INDEX[c] for c in obs["restocked"])
        state.pile = shown & ~state.restocked
        state.stock, state.stock_at = (), 0
        state.do_call(CARD_INDEX[obs["called"]])
        if state.partner != (seats.index(obs["partner"]) if obs["partner"] else -1):
            raise WorldError("the called card is not where the call found it")
        return state


AUCTION_CINCH = Ruleset(
    name="auction_cinch",
    target=51,
    min_bid=1,
    max_bid=14,
    draw=DRAW_FOSTER,
    low_to_holder=False,
    scoring=SCORING_DIFFERENCE,
    players=5,
)

SPECS = (GameSpec(default=AUCTION_CINCH, players=(5, 6), options={"target": TARGET}, hand=AuctionCinchHand),)
