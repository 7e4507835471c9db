"""``widow_cinch`` (docs/rules/widow_cinch.md): Cinch for six in three sides of two, with a
widow of four cards for the declarer.

The trick machinery is the All Fours hand's (``AllFoursHand``: k seats, ``Trick`` and the
follow rule with Cinch's trump tables, cards won per side); what is Cinch here is the
rest of the hand:

* the deal: a round of four, the widow ``deck[24:28]`` face down, a round of four (9.2);
* the auction as ``foster51``: one bid or pass each from the eldest to the dealer, 1 to
  14; all pass: the dealer declares with no contract (9.3);
* the widow: the declarer takes it (seen by him alone) or leaves it out of play, where
  its counting cards score for nobody (9.4, 16.12); then he names trump;
* the discard: the declarer first, then clockwise, each discards face up down to six;
  counting trumps among the discards score for the declarer's side (9.5);
* the scoring: the old way, per side (9.7), and a game's end with the declarer's side
  counted first, then each counting card to the defending side that won it (9.8).

The sides come from the game spec (``fixed_sides``): ``P1P4``, ``P2P5``, ``P3P6``, each
player's partner sitting three seats on. The fast layer keeps only card masks: a hand's
points are read off the cards each side won when the last trick ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, Self

from server.engine.boards import Board
from server.engine.cards import (
    ACE,
    CARD_INDEX,
    CARD_NAMES,
    FIVE,
    JACK,
    SUITS,
    TEN,
    TRUMP_TABLES,
    TWO,
    cards_of,
    mask_of,
    names_of,
)
from server.engine.games.all_fours import DISCARD, DONE, PLAY, AllFoursHand
from server.engine.games.single_bids import SingleBids
from server.engine.hand import IllegalAction, bid_amount, bid_entries, trump_entries
from server.engine.rulesets import FOSTER51, TARGET, GameSpec, Ruleset

BIDDING, WIDOW, TRUMP = "bidding", "widow", "trump"
PLAYERS = 6
SIDE_NAMES = ("P1P4", "P2P5", "P3P6")
SIDE_OF = (0, 1, 2, 0, 1, 2)  # 9.1: "two adversaries between himself and his partner"

_FIELDS: dict[str, tuple[str, ...]] = {
    "pass": (),
    "bid": ("amount",),
    "widow": ("take",),
    "trump": ("suit",),
    "discard": ("cards",),
    "play": ("card", "extras"),
}
_EXPECTED = {BIDDING: "pass or bid", WIDOW: "widow (take or leave)", TRUMP: "trump", DISCARD: "discard", PLAY: "play"}


class WidowCinchHand(SingleBids, AllFoursHand):
    """One hand of Widow Cinch from the deal to the last trick."""

    after_auction = WIDOW  # 9.3: the declarer takes or leaves the widow, then names trump

    action_fields = _FIELDS
    phase_words = _EXPECTED

    __slots__ = (
        "widow",
        "widow_taken",
        "discarded",
        "discard_turn",
        "won_points",
        "hand_delta",
    )

    # ------------------------------------------------------------------ deal and auction
    def _start(self, deck: tuple[int, ...]) -> None:
        """Deal (9.2) and ask the eldest to bid (9.3)."""
        hands, eldest = self.hands, self.eldest
        for i in range(PLAYERS):
            a, b = 4 * i, 28 + 4 * i
            hands[(eldest + i) % PLAYERS] = (
                (1 << deck[a])
                | (1 << deck[a + 1])
                | (1 << deck[a + 2])
                | (1 << deck[a + 3])
                | (1 << deck[b])
                | (1 << deck[b + 1])
                | (1 << deck[b + 2])
                | (1 << deck[b + 3])
            )
        self.widow = (1 << deck[24]) | (1 << deck[25]) | (1 << deck[26]) | (1 << deck[27])
        self.dealt = (1 << 52) - 1
        self._open_auction()
        self.widow_taken: bool | None = None
        self.discarded = [0] * PLAYERS
        self.discard_turn = 0
        self.won_points: tuple[int, ...] = (0, 0, 0)
        self.hand_delta: tuple[int, ...] = (0, 0, 0)
        self.phase, self.to_act = BIDDING, eldest

    def clone(self) -> Self:
        """As the All Fours hand's, with the auction's and the discards' lists copied."""
        new = super().clone()
        new.bids, new.discarded = self.bids.copy(), self.discarded.copy()
        return new

    def do_widow(self, take: bool) -> None:
        """Take the widow into the declarer's hand, or leave it out of play (9.4)."""
        self.widow_taken = take
        if take:
            self.hands[self.declarer] |= self.widow
        self.phase = TRUMP

    def do_trump(self, suit: int) -> None:
        """Trump named: the declarer discards first (9.5)."""
        self._fix_trump(suit)
        self.phase, self.discard_turn = DISCARD, 0

    def _fix_trump(self, suit: int) -> None:
        self.trump, self.tables = suit, TRUMP_TABLES[suit]

    def discard_count(self) -> int:
        """Down to six: 2 cards, 6 for a declarer who took the widow (9.5)."""
        return self.hands[self.actor()].bit_count() - 6

    def do_discard(self, cards: int) -> None:
        """A face-up discard by the seat to act; after the sixth, the declarer leads."""
        seat = self.actor()
        self.hands[seat] &= ~cards
        self.discarded[seat] = cards
        self.discard_turn += 1
        if self.discard_turn < PLAYERS:
            self.to_act = (seat + 1) % PLAYERS
        else:
            self._start_play()

    def _start_play(self) -> None:
        """The play as the All Fours hand starts it, but led by the declarer (9.6)."""
        super()._start_play()
        self.tricks[-1].leader = self.to_act = self.declarer

    # ------------------------------------------------------------------ scoring
    def discard_mask(self) -> int:
        """Every card discarded so far (face up: public)."""
        out = 0
        for mask in self.discarded:
            out |= mask
        return out

    def _score_hand(self) -> None:
        """Points per side: the counting cards each side won, the discards' to the
        declarer's side (9.5, 9.6); then the old way's change per side (9.7)."""
        tab = self.trump_tables()
        values, counting = tab.points, tab.counting_mask
        won = [0, 0, 0]
        for side in (0, 1, 2):
            mask = self.won[side] & counting
            while mask:
                low = mask & -mask
                won[side] += values[low.bit_length() - 1]
                mask ^= low
        mine = SIDE_OF[self.declarer]
        mask = self.discard_mask() & counting
        while mask:
            low = mask & -mask
            won[mine] += values[low.bit_length() - 1]
            mask ^= low
        delta = won.copy()
        if self.contract is not None and won[mine] < self.contract[1]:
            delta[mine] = -self.contract[1]
        self.won_points, self.hand_delta = tuple(won), tuple(delta)
        self.totals = delta
        self._finish()

    def points(self) -> tuple[int, ...]:
        return self.won_points

    def delta(self) -> tuple[int, ...]:
        return self.hand_delta

    def score_items(self) -> list[tuple[int, int]]:
        """A game's order (9.8): the declarer's side's whole change, then A, 2, J, T,
        right Pedro, left Pedro, each to the defending side that won it; with no
        contract every side card by card in that order (discards: the declarer's)."""
        tab = self.trump_tables()
        mine = SIDE_OF[self.declarer]
        base = tab.trump * 13
        out = [] if self.contract is None else [(mine, self.hand_delta[mine])]
        discards = self.discard_mask()
        for card in (base + ACE, base + TWO, base + JACK, base + TEN, base + FIVE, tab.left_pedro):
            side = mine if discards >> card & 1 else next((s for s in (0, 1, 2) if self.won[s] >> card & 1), None)
            if side is not None and (self.contract is None or side != mine):
                out.append((side, tab.points[card]))
        return out

    # ------------------------------------------------------------------ random play (fast layer)
    def _random_decision(self, rng: Random) -> None:
        phase = self.phase
        if phase == DISCARD:
            held = cards_of(self.hands[self.actor()])
            self.do_discard(mask_of(rng.sample(held, len(held) - 6)))
        elif phase == BIDDING:
            low = max(self.rules.min_bid, self.high_bid + 1)
            i = int(rng.random() * (self.rules.max_bid - low + 2))  # pass, low, ..., max_bid
            self.do_bid(low + i - 1 if i else 0)
        elif phase == WIDOW:
            self.do_widow(rng.random() < 0.5)
        elif phase == TRUMP:
            self.do_trump(int(rng.random() * 4))
        else:
            super()._random_decision(rng)

    # ------------------------------------------------------------------ wire layer
    def legal_actions(self) -> list[dict[str, Any]] | None:
        phase = self.phase
        if phase == BIDDING:
            return bid_entries(self.legal_bids())
        if phase == WIDOW:
            return [{"type": "widow", "take": True}, {"type": "widow", "take": False}]
        if phase == TRUMP:
            return trump_entries()
        return super().legal_actions()

    def decide_action(self, kind: str, action: dict[str, Any]) -> None:
        if kind == "pass":
            self.do_bid(0)
        elif kind == "bid":
            self.do_bid(bid_amount(self.rules, action.get("amount"), self.high_bid))
        elif kind == "widow":
            take = action.get("take")
            if not isinstance(take, bool):
                raise IllegalAction(f"a widow action needs a boolean take, not {take!r}")
            self.do_widow(take)
        else:  # trump
            suit = action.get("suit")
            if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
                raise IllegalAction(f"trump suit must be one of C D H S, not {suit!r}")
            self.do_trump(SUITS.index(suit))

    # ------------------------------------------------------------------ views
    def scored_items(self) -> list[dict[str, Any]]:
        """One entry per counting card scored, as the Cinch hand lists them: tricks as they
        finish (play order within a trick), then, on a complete hand, the face-up
        discards as shown. They sum to ``points``."""
        tab = self.tables
        if tab is None:
            return []
        values = tab.points
        out = []
        for trick in self.tricks:
            if trick.winner is None:
                break
            side = SIDE_NAMES[SIDE_OF[trick.winner]]
            out += [{"item": CARD_NAMES[c], "side": side, "value": values[c]} for _, c, _ in trick.plays if values[c]]
        if self.phase == DONE:
            side = SIDE_NAMES[SIDE_OF[self.declarer]]
            # as the discard actions named the cards; the fast layer keeps masks only
            named = [[CARD_INDEX[c] for c in a["cards"]] for a in self.actions if a["type"] == "discard"]
            order = named or [cards_of(mask) for _, mask in self._discards_in_turn()]
            out += [
                {"item": CARD_NAMES[c], "side": side, "value": values[c], "discard": True}
                for cards in order
                for c in cards
                if values[c]
            ]
        return out

    def _record(self) -> dict[str, Any]:
        return {
            "discards": self.seat_dict(self.discarded),
            "stock": [],
            "out_of_play": [],
            "widow": [] if self.widow_taken else names_of(self.widow),
            "turnups": [],
        }

    def describe_extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {"items": self.scored_items(), "widow_taken": self.widow_taken}
        if self.phase == DONE:
            out["record"] = self._record()
        return out

    def public(self, me: int | None) -> dict[str, Any]:
        """Public: the auction, whether the widow was taken (never its cards) and the
        face-up discards, in Cinch's ``draws`` shape."""
        return {
            "bids": [
                {"seat": self.seats[s], "type": "bid", "amount": a} if a else {"seat": self.seats[s], "type": "pass"}
                for s, a in self.bids
            ],
            "widow_taken": self.widow_taken,
            "draws": [
                {
                    "seat": self.seats[seat],
                    "discarded": mask.bit_count(),
                    "received": 0,
                    "shown": names_of(mask),
                    "cards": names_of(mask),
                }
                for seat, mask in self._discards_in_turn()
            ],
        }

    def _discards_in_turn(self) -> list[tuple[int, int]]:
        turns = self.discard_turn if self.phase == DISCARD else (PLAYERS if self.trump is not None else 0)
        return [((self.declarer + i) % PLAYERS, self.discarded[(self.declarer + i) % PLAYERS]) for i in range(turns)]

    @classmethod
    def at_play(cls, rules: Ruleset, obs: Mapping[str, Any], hands: list[int]) -> Self:
        """The first lead with ``hands`` (see ``Hand.at_play``): the auction, the widow's
        fate, trump and the face-up discards from ``obs``. The deal is unknown and
        replaced by ``hands``; a left widow is among the cards nobody holds."""
        seats = list(obs["seats"])
        state = cls(
            rules, Board(obs["dealer"], tuple(range(52)), "00"), tuple(obs["scores"][side] for side in SIDE_NAMES)
        )
        state.hands = list(hands)
        state.bids = [(seats.index(b["seat"]), b.get("amount", 0)) for b in obs["bids"]]
        state.high_bid = max((a for _, a in state.bids), default=0)
        contract = obs["contract"]
        state.contract = None if contract is None else (seats.index(contract["seat"]), contract["amount"])
        state.declarer = seats.index(obs["declarer"])
        state.widow_taken, state.widow = obs["widow_taken"], 0
        for d in obs["draws"]:
            state.discarded[seats.index(d["seat"])] = mask_of(CARD_INDEX[c] for c in d["shown"])
        state.discard_turn = PLAYERS
        state._fix_trump(SUITS.index(obs["trump"]))
        state.tricks = []
        state._start_play()
        return state


WIDOW_CINCH = Ruleset(
    name="widow_cinch", target=FOSTER51.target, min_bid=1, max_bid=14, players=PLAYERS, low_to_holder=False
)

SPECS = (
    GameSpec(
        default=WIDOW_CINCH,
        players=(PLAYERS,),
        options={"target": TARGET},
        hand=WidowCinchHand,
        fixed_sides={PLAYERS: (SIDE_NAMES, SIDE_OF)},
    ),
)
