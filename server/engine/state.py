"""The state machine of one hand of Cinch.

Two layers over one state:

* the *fast* layer (``legal_bids``, ``legal_plays``, ``do_*``) works on ints and card
  masks and trusts its caller: search bots and benchmarks drive it millions of times;
* the *wire* layer (``legal_actions``, ``apply``) speaks RULES.md section 6 actions,
  validates everything and raises ``IllegalAction`` naming the rule, checking before it
  changes anything so a refused action leaves the state exactly as it was.

Chance is data: the board fixes the deal and, through its seed, every reshuffle.
"""

from __future__ import annotations

from typing import Any

from .boards import Board, restock_order
from .cards import (CARD_NAMES, SEATS, SIDES, SUITS, TRUMP_TABLES, TrumpTables, cards_of, mask_of,
                    names_of, parse_card)
from .rulesets import DRAW_AMERICAN, Ruleset
from .scoring import bidder_goes_out_next, game_winner, hand_delta, made_contract
from .tricks import Trick
from .hand import Hand, IllegalAction

BIDDING, TRUMP, DISCARD, ROB, PLAY, DONE = "bidding", "trump", "discard", "rob", "play", "done"
_EXPECTED = {BIDDING: "pass or bid", TRUMP: "trump", DISCARD: "discard", ROB: "rob", PLAY: "play"}
_PHASE_OF_TYPE = {"pass": BIDDING, "bid": BIDDING, "trump": TRUMP, "discard": DISCARD, "rob": ROB,
                  "play": PLAY}


class DrawRecord:
    """What one seat did in the draw. ``shown`` is public; the rest is the seat's own."""

    __slots__ = ("seat", "discarded", "received", "shown", "left_in_stock")

    def __init__(self, seat: int, discarded: int, received: int, shown: int, left_in_stock: int = 0):
        self.seat, self.discarded, self.received = seat, discarded, received
        self.shown, self.left_in_stock = shown, left_in_stock

    def to_dict(self, viewer: int | None) -> dict[str, Any]:
        """The record as ``viewer`` may see it (None: everything, for audits)."""
        own = viewer is None or viewer == self.seat
        out: dict[str, Any] = {
            "seat": SEATS[self.seat],
            "discarded": self.discarded.bit_count(),
            "received": self.received.bit_count(),
            "shown": names_of(self.shown),
            "cards": names_of(self.discarded) if own else None,
        }
        if self.left_in_stock and own:
            out["left_in_stock"] = names_of(self.left_in_stock)
        return out


class HandState(Hand):
    """One hand from the deal to the last trick. ``scores`` are the game scores before it."""

    seats, sides, side_of = SEATS, SIDES, (0, 1, 0, 1)

    __slots__ = ("rules", "board", "dealer", "hands", "stock", "pile", "restocks", "phase", "to_act",
                 "bids", "high_bid", "high_bidder", "declarer", "contract", "trump", "tables", "draws",
                 "draw_turn", "rob_pool", "rob_must", "rob_size", "tricks", "taken",
                 "hands_after_draw", "scores", "bidder_goes_out", "actions", "dealt")

    def __init__(self, rules: Ruleset, board: Board, scores: tuple[int, int] = (0, 0),
                 bidder_goes_out: bool = False):
        self.rules = rules
        self.board = board
        self.dealer = SEATS.index(board.dealer)
        deck = board.deck
        hands = [0, 0, 0, 0]
        for rnd in range(3):
            for i in range(4):
                seat = (self.dealer + 1 + i) % 4
                start = rnd * 12 + i * 3
                for c in deck[start:start + 3]:
                    hands[seat] |= 1 << c
        self.hands = hands
        self.dealt = tuple(hands)
        self.stock: list[int] = list(reversed(deck[36:]))  # top of the stock is the end
        self.pile = 0            # discards not (yet) rebuilt into a stock
        self.restocks = 0
        self.phase = BIDDING
        self.to_act: int | None = (self.dealer + 1) % 4
        self.bids: list[tuple[int, int]] = []   # (seat, amount), 0 = pass
        self.high_bid = 0
        self.high_bidder = -1
        self.declarer = -1       # who names trump and leads first
        self.contract: tuple[int, int] | None = None
        self.trump: int | None = None
        self.tables: TrumpTables | None = None
        self.draws: list[DrawRecord] = []
        self.draw_turn = 0
        self.rob_pool = self.rob_must = 0
        self.rob_size = 6
        self.tricks: list[Trick] = []
        self.taken = [0, 0]      # points per side (0 = NS, 1 = EW) from tricks
        self.hands_after_draw: tuple[int, ...] | None = None
        self.scores = scores
        self.bidder_goes_out = bidder_goes_out
        self.actions: list[dict[str, Any]] = []

    @classmethod
    def start(cls, rules: Ruleset, board: Board, scores: tuple[int, ...] | None) -> "HandState":
        """A board from zeros, or a hand of a game: bidder-goes-out follows the scores."""
        if scores is None:
            return cls(rules, board)
        return cls(rules, board, (scores[0], scores[1]), bidder_goes_out_next(rules, (scores[0], scores[1])))

    def settle(self, before: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        """Cinch's game end (RULES.md 3 and 4): the whole hand scores at once; then the
        target, bidder-goes-out and the declarers' counting out decide."""
        delta = self.delta()
        after = (before[0] + delta[0], before[1] + delta[1])
        side = self.declarer & 1
        made = made_contract(self.contract[1] if self.contract else None, self.points()[side])
        return after, game_winner(self.rules, after, side, made, self.bidder_goes_out)

    @classmethod
    def at_play(cls, rules: Ruleset, obs: dict[str, Any], hands: list[int]) -> "HandState":
        """The play's first lead with ``hands``: the bidding, contract and trump from
        ``obs``; the face-up discards (whose counting trumps are the declarer's in
        foster51) are the pile. The deal, stock and draw are not rebuilt: nothing in
        the play depends on them."""
        seats = list(SEATS)
        scores = obs["scores"]
        # the deal is unknown and replaced by ``hands``: an ordered deck stands for it
        state = cls(rules, Board(obs["dealer"], tuple(range(52)), "00"), (scores["NS"], scores["EW"]),
                    obs.get("bidder_goes_out", False))
        state.hands = list(hands)
        state.stock = []
        for d in obs["draws"]:
            state.pile |= mask_of(parse_card(c) for c in d["shown"])
        state.bids = [(seats.index(b["seat"]), b.get("amount", 0)) for b in obs["bids"]]
        if obs["contract"]:
            state.high_bidder = seats.index(obs["contract"]["seat"])
            state.high_bid = obs["contract"]["amount"]
            state.contract = (state.high_bidder, state.high_bid)
        state.declarer = seats.index(obs["declarer"])
        state.trump = SUITS.index(obs["trump"])
        state.tables = TRUMP_TABLES[state.trump]
        state.restocks = obs.get("restocks", 0)
        state._start_play()
        return state

    # ------------------------------------------------------------------ copying
    def clone(self) -> "HandState":
        """An independent copy for search; the board and ruleset are shared (immutable)."""
        new = object.__new__(HandState)
        for name in HandState.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands.copy()
        new.stock = self.stock.copy()
        new.bids = self.bids.copy()
        new.draws = self.draws.copy()
        new.tricks = [t.copy() for t in self.tricks]
        new.taken = self.taken.copy()
        new.actions = self.actions.copy()
        return new

    # ------------------------------------------------------------------ bidding
    def legal_bids(self) -> list[int]:
        """Bids the player to act may make; 0 stands for pass."""
        r = self.rules
        if r.dealer_must_bid and self.to_act == self.dealer and self.high_bid == 0:
            return [r.min_bid]
        low = max(r.min_bid, self.high_bid + 1)
        return [0, *range(low, r.max_bid + 1)]

    def do_bid(self, amount: int) -> None:
        seat = self.to_act
        self.bids.append((seat, amount))
        if amount:
            self.high_bid, self.high_bidder = amount, seat
        if seat != self.dealer:
            self.to_act = (seat + 1) % 4
            return
        if self.high_bid:
            self.contract = (self.high_bidder, self.high_bid)
            self.declarer = self.high_bidder
        else:
            self.declarer = self.dealer   # foster51: nobody bid, the dealer names trump
        self.phase, self.to_act = TRUMP, self.declarer

    # ------------------------------------------------------------------ trump and draw
    def do_trump(self, suit: int) -> None:
        self.trump = suit
        self.tables = TRUMP_TABLES[suit]
        if self.rules.draw == DRAW_AMERICAN:
            trumps = self.tables.trump_mask
            for seat in range(4):
                self.pile |= self.hands[seat] & ~trumps
            discards = [self.hands[s] & ~trumps for s in range(4)]
            for i in range(3):
                seat = (self.dealer + 1 + i) % 4
                self.hands[seat] &= trumps
                got = self._deal_to(seat, 6 - self.hands[seat].bit_count())
                self.draws.append(DrawRecord(seat, discards[seat], got, 0))
            self.hands[self.dealer] &= trumps
            self.draws.append(DrawRecord(self.dealer, discards[self.dealer], 0, 0))
            self._enter_american_rob()
        else:
            self.phase, self.draw_turn = DISCARD, 0
            self.to_act = (self.dealer + 1) % 4

    def _draw_card(self) -> int:
        if not self.stock:
            rebuilt = self.pile & ~self.tables.trump_mask
            if not rebuilt:
                raise RuntimeError("no card left to draw: the discards hold only trumps")
            self.pile &= ~rebuilt
            self.stock = list(reversed(restock_order(self.board.seed, self.restocks, cards_of(rebuilt))))
            self.restocks += 1
        return self.stock.pop()

    def _deal_to(self, seat: int, count: int) -> int:
        got = 0
        for _ in range(count):
            got |= 1 << self._draw_card()
        self.hands[seat] |= got
        return got

    def _stock_mask(self) -> int:
        return mask_of(self.stock)

    def _enter_american_rob(self) -> None:
        """The dealer takes every trump in the stock, then fills up to six (RULES.md 3)."""
        dealer, trumps = self.dealer, self.tables.trump_mask
        stock = self._stock_mask()
        hand = self.hands[dealer] | (stock & trumps)
        need = 6 - hand.bit_count()
        must = hand
        choosable = 0
        if need > 0:
            if self.restocks == 0:
                plain = stock & ~trumps
                if plain.bit_count() >= need:
                    choosable = plain
                else:
                    must |= plain
                    need -= plain.bit_count()
            if not choosable:
                self.stock = [c for c in self.stock if not (must >> c) & 1]
                blind = 0
                for _ in range(need):
                    blind |= 1 << self._draw_card()
                must |= blind
        self.stock = [c for c in self.stock if not (must >> c) & 1]
        self.rob_pool, self.rob_must = must | choosable, must
        self.rob_size = max(6, hand.bit_count())
        self.phase, self.to_act = ROB, dealer

    def _enter_foster_rob(self) -> None:
        self.rob_pool = self.hands[self.dealer] | self._stock_mask()
        self.rob_must, self.rob_size = 0, 6
        self.phase, self.to_act = ROB, self.dealer

    def discard_rules(self) -> tuple[int, int, int, int]:
        """(from, min, max, must_include) masks/counts of the discard now asked for."""
        hand = self.hands[self.to_act]
        r = self.rules
        if r.trump_discard_over_six_only:
            trumps = hand & self.tables.trump_mask
            if trumps.bit_count() > 6:
                # Katz: trumps may go only to come down to six, so exactly the
                # non-trumps plus the surplus trumps: always three cards from nine.
                return hand, r.min_discard, hand.bit_count() - 6, hand & ~trumps
            plain = hand & ~trumps
            return plain, r.min_discard, plain.bit_count(), 0
        return hand, r.min_discard, hand.bit_count(), 0

    def do_discard(self, cards: int) -> None:
        seat = self.to_act
        self.hands[seat] &= ~cards
        self.pile |= cards
        got = self._deal_to(seat, 6 - self.hands[seat].bit_count())
        self.draws.append(DrawRecord(seat, cards, got, cards))
        self.draw_turn += 1
        last = 4 if self.rules.dealer_draws_blind else 3
        if self.draw_turn < last:
            self.to_act = (self.dealer + 1 + self.draw_turn) % 4
        elif self.rules.dealer_draws_blind:
            self._start_play()
        else:
            self._enter_foster_rob()

    def do_rob(self, keep: int) -> None:
        dealer = self.dealer
        old_hand = self.hands[dealer]
        left = self.rob_pool & ~keep
        if self.rules.draw == DRAW_AMERICAN:
            self.stock = [c for c in self.stock if not (keep >> c) & 1]
            record = self.draws[-1]
            self.draws[-1] = DrawRecord(dealer, record.discarded, keep & ~old_hand, 0, left)
        else:
            trumps = self.tables.trump_mask
            shown = left & trumps
            from_hand = old_hand & ~keep
            self.pile |= shown | from_hand
            self.stock = [c for c in self.stock if not ((keep | shown) >> c) & 1]
            self.draws.append(DrawRecord(dealer, from_hand, keep & ~old_hand, shown,
                                         left & ~trumps & ~old_hand))
        self.hands[dealer] = keep
        self._start_play()

    def _start_play(self) -> None:
        self.hands_after_draw = tuple(self.hands)
        self.phase = PLAY
        self.tricks.append(Trick(self.declarer))
        self.to_act = self.declarer

    # ------------------------------------------------------------------ play
    def extras_owed(self, seat: int) -> int:
        if len(self.tricks) != 1:
            return 0
        n = self.hands[seat].bit_count()
        return n - 6 if n > 6 else 0

    def _follow_mask(self) -> int:
        """Cards the follow rules allow the player to act, before the extras constraint."""
        hand = self.hands[self.to_act]
        tab = self.tables
        trick = self.tricks[-1]
        if not trick.plays:
            if self.rules.first_lead_trump and len(self.tricks) == 1 and hand & tab.trump_mask:
                return hand & tab.trump_mask
            return hand
        if trick.lead_suit == tab.trump:
            return hand & tab.trump_mask or hand
        follow = hand & tab.plain_masks[trick.lead_suit]
        return (follow | (hand & tab.trump_mask)) if follow else hand

    def legal_plays(self) -> list[int]:
        """Main cards the player to act may play (extras are chosen separately)."""
        legal = self._follow_mask()
        owed = self.extras_owed(self.to_act)
        if owed:
            spare = self.hands[self.to_act] & self.tables.noncounting_trumps
            return [c for c in cards_of(legal) if (spare & ~(1 << c)).bit_count() >= owed]
        return cards_of(legal)

    def extras_from(self, card: int) -> int:
        """Cards the player to act may add as extras with main card ``card``."""
        return self.hands[self.to_act] & self.tables.noncounting_trumps & ~(1 << card)

    def do_play(self, card: int, extras: int = 0) -> None:
        seat = self.to_act
        tab = self.tables
        trick = self.tricks[-1]
        self.hands[seat] &= ~((1 << card) | extras)
        suit = tab.effective_suit[card]
        if not trick.plays:
            trick.lead_suit = suit
        trick.plays.append((seat, card, extras))
        if suit == tab.trump:
            key = tab.strength[card]
        elif suit == trick.lead_suit:
            key = tab.strength[card]
        else:
            key = -1
        if key > trick.best_key:
            trick.best_key, trick.best_seat = key, seat
        if len(trick.plays) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = trick.best_seat
        trick.winner = winner
        points = tab.points
        won = 0
        for s, c, x in trick.plays:
            if c == tab.low_card and self.rules.low_to_holder:
                self.taken[s & 1] += 1
            else:
                won += points[c]
        self.taken[winner & 1] += won
        if len(self.tricks) == 6:
            self.phase, self.to_act = DONE, None
            return
        self.tricks.append(Trick(winner))
        self.to_act = winner

    # ------------------------------------------------------------------ result
    def discard_points(self) -> int:
        """Counting trumps among the discards and rob leftovers: the declarer's (foster51)."""
        if self.rules.draw == DRAW_AMERICAN or self.tables is None:
            return 0
        return sum(self.tables.points[c] for c in cards_of(self.pile & self.tables.counting_mask))

    def points(self) -> tuple[int, int]:
        """Points per side (NS, EW): tricks, Low where it goes to its holder, discards."""
        taken = self.taken.copy()
        if self.phase == DONE:
            taken[self.declarer & 1] += self.discard_points()
        return taken[0], taken[1]

    def delta(self) -> tuple[int, int]:
        """Score change per side (NS, EW) of a complete hand."""
        return hand_delta(self.rules, self.declarer & 1, self.contract[1] if self.contract else None,
                          self.points())

    # ------------------------------------------------------------------ wire layer
    def legal_actions(self) -> list[dict[str, Any]] | None:
        """Every legal action in RULES.md 6 form; one choice object for discard and rob."""
        phase = self.phase
        if phase == BIDDING:
            return [{"type": "bid", "amount": a} if a else {"type": "pass"} for a in self.legal_bids()]
        if phase == TRUMP:
            return [{"type": "trump", "suit": s} for s in SUITS]
        if phase == DISCARD:
            src, low, high, must = self.discard_rules()
            choice: dict[str, Any] = {"type": "discard", "from": names_of(src), "min": low}
            if high != src.bit_count() or must:
                choice["max"] = high
                choice["must_include"] = names_of(must)
            return [choice]
        if phase == ROB:
            return [{"type": "rob", "from": names_of(self.rob_pool), "must_keep": names_of(self.rob_must),
                     "size": self.rob_size}]
        if phase == PLAY:
            owed = self.extras_owed(self.to_act)
            if not owed:
                return [{"type": "play", "card": CARD_NAMES[c]} for c in self.legal_plays()]
            return [{"type": "play", "card": CARD_NAMES[c], "extras_count": owed,
                     "extras_from": names_of(self.extras_from(c))} for c in self.legal_plays()]
        return None

    def apply(self, action: Any) -> None:
        """Validate and apply one wire-format action, or raise ``IllegalAction`` unchanged."""
        if self.phase == DONE:
            raise IllegalAction("the hand is over: no action is expected")
        if not isinstance(action, dict):
            raise IllegalAction("an action must be a JSON object with a 'type'")
        kind = action.get("type")
        seat = SEATS[self.to_act]
        if not isinstance(kind, str) or kind not in _PHASE_OF_TYPE:
            raise IllegalAction(f"unknown action type {kind!r} (known: {', '.join(_PHASE_OF_TYPE)})")
        if "seat" in action and action["seat"] != seat:
            raise IllegalAction(f"out of turn: the seat to act is {seat}, not {action['seat']!r}")
        if _PHASE_OF_TYPE[kind] != self.phase:
            raise IllegalAction(f"a {kind!r} action is not allowed now: expected {_EXPECTED[self.phase]} from {seat}")
        allowed = {"type", "seat", *_FIELDS[kind]}
        unknown = sorted(set(action) - allowed)
        if unknown:
            raise IllegalAction(f"a {kind!r} action has no field {unknown[0]!r}")
        getattr(self, "_apply_" + kind)(action)
        # a copy, lists included: the record must not change if the caller's lists do
        entry = {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
        entry["seat"] = seat
        self.actions.append(entry)

    def _apply_pass(self, action: dict) -> None:
        if self.rules.dealer_must_bid and self.to_act == self.dealer and self.high_bid == 0:
            raise IllegalAction(f"the dealer must bid {self.rules.min_bid} when the first three players pass")
        self.do_bid(0)

    def _apply_bid(self, action: dict) -> None:
        amount = action.get("amount")
        r = self.rules
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction(f"bid amount must be a whole number, not {amount!r}")
        if not r.min_bid <= amount <= r.max_bid:
            raise IllegalAction(f"bid {amount} is out of range {r.min_bid}..{r.max_bid}")
        if amount <= self.high_bid:
            raise IllegalAction(f"bid {amount} is not above the highest bid {self.high_bid}")
        if r.dealer_must_bid and self.to_act == self.dealer and self.high_bid == 0 and amount != r.min_bid:
            raise IllegalAction(f"the dealer must bid exactly {r.min_bid} when the first three players pass")
        self.do_bid(amount)

    def _apply_trump(self, action: dict) -> None:
        suit = action.get("suit")
        if not isinstance(suit, str) or suit not in SUITS or len(suit) != 1:
            raise IllegalAction(f"trump suit must be one of C D H S, not {suit!r}")
        self.do_trump(SUITS.index(suit))

    def _card_set(self, cards: Any, field: str) -> int:
        """A list of distinct card strings as a mask, or IllegalAction naming the problem."""
        if not isinstance(cards, list):
            raise IllegalAction(f"{field} must be a list of cards")
        try:
            parsed = [parse_card(c) for c in cards]
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        mask = mask_of(parsed)
        if mask.bit_count() != len(parsed):
            raise IllegalAction(f"{field} names a card twice")
        return mask

    def _apply_discard(self, action: dict) -> None:
        cards = self._card_set(action.get("cards"), "discard cards")
        seat = self.to_act
        hand = self.hands[seat]
        for c in cards_of(cards & ~hand):
            raise IllegalAction(f"{SEATS[seat]} does not hold {CARD_NAMES[c]}")
        src, low, high, must = self.discard_rules()
        n = cards.bit_count()
        if n < low:
            raise IllegalAction(f"a discard must be at least {low} cards, not {n}")
        if n > high:
            raise IllegalAction(f"a discard may be at most {high} cards here, not {n}")
        for c in cards_of(cards & ~src):
            raise IllegalAction(f"{CARD_NAMES[c]} is a trump: trumps may be discarded only "
                                f"by a player holding more than six, down to six")
        for c in cards_of(must & ~cards):
            raise IllegalAction(f"{CARD_NAMES[c]} must be discarded before any trump")
        self.do_discard(cards)

    def _apply_rob(self, action: dict) -> None:
        keep = self._card_set(action.get("keep"), "rob keep")
        for c in cards_of(keep & ~self.rob_pool):
            raise IllegalAction(f"{CARD_NAMES[c]} is neither in the dealer's hand nor in the stock")
        for c in cards_of(self.rob_must & ~keep):
            why = ("every trump, in american62" if (self.tables.trump_mask >> c) & 1
                   else "dealt blind from the rebuilt stock")
            raise IllegalAction(f"the dealer must keep {CARD_NAMES[c]} ({why})")
        n = keep.bit_count()
        if n != self.rob_size:
            raise IllegalAction(f"the dealer's hand after the rob must be {self.rob_size} cards, not {n}")
        self.do_rob(keep)

    def _apply_play(self, action: dict) -> None:
        try:
            card = parse_card(action.get("card"))
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        extras = self._card_set(action.get("extras", []), "extras")
        seat = self.to_act
        name = SEATS[seat]
        hand = self.hands[seat]
        if not (hand >> card) & 1:
            raise IllegalAction(f"{name} does not hold {CARD_NAMES[card]}")
        for c in cards_of(extras & ~hand):
            raise IllegalAction(f"{name} does not hold {CARD_NAMES[c]}")
        if (extras >> card) & 1:
            raise IllegalAction(f"{CARD_NAMES[card]} cannot be both the main card and an extra")
        if card not in self.legal_plays():
            raise IllegalAction(self._follow_error(card))
        owed = self.extras_owed(seat)
        n = extras.bit_count()
        if not owed and n:
            raise IllegalAction(f"{name} owes no extras here, but played {n}")
        if owed and n != owed:
            raise IllegalAction(f"{name} must play exactly {owed} extras with the main card, not {n}")
        for c in cards_of(extras & self.tables.counting_mask):
            raise IllegalAction(f"extra {CARD_NAMES[c]} is a counting trump")
        self.do_play(card, extras)

    def _follow_error(self, card: int) -> str:
        tab = self.tables
        trick = self.tricks[-1]
        name = CARD_NAMES[card]
        if (self._follow_mask() >> card) & 1:
            return f"{name} cannot be the main card: too few non-counting trumps would be left for the extras"
        if not trick.plays:
            return f"{name} breaks the first-lead rule: the first lead must be a trump"
        if trick.lead_suit == tab.trump:
            return f"{name} breaks the follow rules: a trump was led and the player holds a trump"
        return (f"{name} breaks the follow rules: {SUITS[trick.lead_suit]} was led: "
                f"the player must follow suit or trump")



    def public(self, me: int | None) -> dict[str, Any]:
        """Cinch's own observation fields: the auction, the draw as ``me`` may see it."""
        return {
            "bids": [{"seat": SEATS[s], "type": "bid", "amount": a} if a else {"seat": SEATS[s], "type": "pass"}
                     for s, a in self.bids],
            "draws": [d.to_dict(-1 if me is None else me) for d in self.draws],
            "restocks": self.restocks,
            "bidder_goes_out": self.bidder_goes_out,
        }


_FIELDS = {"pass": (), "bid": ("amount",), "trump": ("suit",), "discard": ("cards",), "rob": ("keep",),
           "play": ("card", "extras")}
