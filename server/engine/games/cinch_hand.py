"""The state machine of one hand of Cinch.

Two layers over one state:

* the *fast* layer (``legal_bids``, ``legal_plays``, ``do_*``) works on ints and card
  masks and trusts its caller: search bots and benchmarks drive it millions of times;
* the *wire* layer (``legal_actions``, ``apply``) speaks docs/rules/actions.md#wire-format actions,
  validates everything and raises ``IllegalAction`` naming the rule, checking before it
  changes anything so a refused action leaves the state exactly as it was.

Chance is data: the board fixes the deal and, through its seed, every reshuffle.

The Cinch variants of the family (docs/rules/index.md#family: ``blind_cinch``, ``sixty_three``) are the same
machine steered by ``Ruleset`` fields: ``blind_packet`` (four cards face down per seat
instead of a stock, taken up at the owner's discard turn), ``raises`` (the auction goes
round until all but the highest bidder have passed) and ``extra_counts`` (more counting
trumps). Nothing here names a ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from random import Random
from typing import Any, Self

from server.engine.boards import Board, restock_order
from server.engine.cards import (
    ALL_NAMES,
    CARD_INDEX,
    CARD_NAMES,
    RANKS,
    SEATS,
    SIDES,
    SUITS,
    TRUMP_TABLES,
    TrumpTables,
    cards_of,
    mask_of,
    names_of,
)
from server.engine.hand import (
    BIDDING,
    DISCARD,
    DONE,
    PLAY,
    ROB,
    TRUMP,
    Hand,
    IllegalAction,
    bid_amount,
    bid_entries,
    card_set,
    one_card,
    trump_entries,
)
from server.engine.rulesets import DRAW_AMERICAN, Ruleset
from server.engine.scoring import bidder_goes_out_next, game_winner, hand_delta, made_contract
from server.engine.tricks import Trick

_EXPECTED = {BIDDING: "pass or bid", TRUMP: "trump", DISCARD: "discard", ROB: "rob", PLAY: "play"}
_PHASE_OF_TYPE = {"pass": BIDDING, "bid": BIDDING, "trump": TRUMP, "discard": DISCARD, "rob": ROB, "play": PLAY}


@cache
def counting_tables(extra_counts: tuple[tuple[str, int], ...]) -> tuple[TrumpTables, ...]:
    """Cinch's trump tables per suit with further counting trumps ((rank, value) pairs,
    e.g. sixty_three's King 25, Three 15, Nine 9); cached, so built once per ruleset."""
    if not extra_counts:
        return TRUMP_TABLES
    out = []
    for trump in range(4):
        tab = TrumpTables(trump)
        points = list(tab.points)
        for rank, value in extra_counts:
            points[trump * 13 + RANKS.index(rank)] = value
        tab.points = tuple(points)
        tab.counting_mask = mask_of(c for c in range(52) if points[c])
        tab.noncounting_trumps = tab.trump_mask & ~tab.counting_mask
        out.append(tab)
    return tuple(out)


class DrawRecord:
    """What one seat did in the draw. ``shown`` is public; the rest is the seat's own.

    ``listed`` is the discard in the order its action named the cards (empty from the
    fast layer): face-up counting cards are scored, and listed, in that order.
    """

    __slots__ = ("seat", "discarded", "received", "shown", "left_in_stock", "listed")

    def __init__(
        self, seat: int, discarded: int, received: int, shown: int, left_in_stock: int = 0, listed: Sequence[int] = ()
    ):
        self.seat, self.discarded, self.received = seat, discarded, received
        self.shown, self.left_in_stock, self.listed = shown, left_in_stock, listed

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

    __slots__ = (
        "rules",
        "board",
        "dealer",
        "hands",
        "stock",
        "pile",
        "restocks",
        "phase",
        "to_act",
        "bids",
        "high_bid",
        "high_bidder",
        "declarer",
        "contract",
        "trump",
        "tables",
        "draws",
        "draw_turn",
        "rob_pool",
        "rob_must",
        "rob_size",
        "tricks",
        "taken",
        "hands_after_draw",
        "scores",
        "in_game",
        "bidder_goes_out",
        "actions",
        "dealt",
    )

    def __init__(
        self,
        rules: Ruleset,
        board: Board,
        scores: tuple[int, int] = (0, 0),
        bidder_goes_out: bool = False,
        in_game: bool = False,
    ):
        self.rules = rules
        self.board = board
        self.dealer = SEATS.index(board.dealer)
        deck = board.deck
        hands = [0, 0, 0, 0]
        for rnd in range(3):
            for i in range(4):
                seat = (self.dealer + 1 + i) % 4
                start = rnd * 12 + i * 3
                for c in deck[start : start + 3]:
                    hands[seat] |= 1 << c
        self.hands = hands
        self.dealt = tuple(hands)
        # top of the stock is the end; blind packets (deck[36:]) are no stock
        self.stock: list[int] = [] if rules.blind_packet else list(reversed(deck[36:]))
        self.pile = 0  # discards not (yet) rebuilt into a stock
        self.restocks = 0
        self.phase = BIDDING
        self.to_act: int | None = (self.dealer + 1) % 4
        self.bids: list[tuple[int, int]] = []  # (seat, amount), 0 = pass
        self.high_bid = 0
        self.high_bidder = -1
        self.declarer = -1  # who names trump and leads first
        self.contract: tuple[int, int] | None = None
        self.trump: int | None = None
        self.tables: TrumpTables | None = None
        self.draws: list[DrawRecord] = []
        self.draw_turn = 0
        self.rob_pool = self.rob_must = 0
        self.rob_size = 6
        self.tricks: list[Trick] = []
        self.taken = [0, 0]  # points per side (0 = NS, 1 = EW) from tricks
        self.hands_after_draw: tuple[int, ...] | None = None
        self.scores = scores
        self.in_game = in_game
        self.bidder_goes_out = bidder_goes_out
        self.actions: list[dict[str, Any]] = []

    @classmethod
    def start(cls, rules: Ruleset, board: Board, scores: tuple[int, ...] | None) -> Self:
        """A board from zeros, or a hand of a game: bidder-goes-out follows the scores."""
        if scores is None:
            return cls(rules, board)
        return cls(
            rules, board, (scores[0], scores[1]), bidder_goes_out_next(rules, (scores[0], scores[1])), in_game=True
        )

    def settle(self, before: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        """Cinch's game end (docs/rules/american62.md, docs/rules/foster51.md): the whole hand scores at once; then the
        target, bidder-goes-out and the declarers' counting out decide."""
        delta = self.delta()
        after = (before[0] + delta[0], before[1] + delta[1])
        side = self.declarer & 1
        made = made_contract(self.contract[1] if self.contract else None, self.points()[side])
        return after, game_winner(self.rules, after, side, made, self.bidder_goes_out)

    @classmethod
    def at_play(cls, rules: Ruleset, obs: Mapping[str, Any], hands: list[int]) -> Self:
        """The play's first lead with ``hands``: the bidding, contract and trump from
        ``obs``; the face-up discards (whose counting trumps are the declarer's in
        foster51) are the pile. The deal, stock and draw are not rebuilt: nothing in
        the play depends on them."""
        seats = list(SEATS)
        scores = obs["scores"]
        # the deal is unknown and replaced by ``hands``: an ordered deck stands for it
        state = cls(
            rules,
            Board(obs["dealer"], tuple(range(52)), "00"),
            (scores["NS"], scores["EW"]),
            obs.get("bidder_goes_out", False),
        )
        state.hands = list(hands)
        state.stock = []
        for d in obs["draws"]:
            state.pile |= card_set(d["shown"], "shown")
        state.bids = [(seats.index(b["seat"]), b.get("amount", 0)) for b in obs["bids"]]
        if obs["contract"]:
            state.high_bidder = seats.index(obs["contract"]["seat"])
            state.high_bid = obs["contract"]["amount"]
            state.contract = (state.high_bidder, state.high_bid)
        state.declarer = seats.index(obs["declarer"])
        state.trump = SUITS.index(obs["trump"])
        state.tables = state.tables_for(state.trump)
        state.restocks = obs.get("restocks", 0)
        state._start_play()
        return state

    # ------------------------------------------------------------------ copying
    def clone(self) -> Self:
        """An independent copy for search; the board and ruleset are shared (immutable)."""
        new = object.__new__(type(self))
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
        seat = self.actor()
        self.bids.append((seat, amount))
        if amount:
            self.high_bid, self.high_bidder = amount, seat
        if self.rules.raises:
            nxt = self._next_bidder(seat)
            if nxt >= 0:
                self.to_act = nxt
                return
        elif seat != self.dealer:
            self.to_act = (seat + 1) % 4
            return
        if self.high_bid:
            self.contract = (self.high_bidder, self.high_bid)
            self.declarer = self.high_bidder
        else:
            self.declarer = self.dealer  # foster51: nobody bid, the dealer names trump
        if self.rules.blind_packet:
            self.hands[self.declarer] |= self.packet(self.declarer)  # taken up before naming trump
        self.phase, self.to_act = TRUMP, self.declarer

    def _next_bidder(self, seat: int) -> int:
        """With raises: the next seat clockwise after ``seat`` that has not passed (a pass
        is final) and is not the highest bidder; -1 when the auction is over."""
        passed = 0
        for s, a in self.bids:
            if not a:
                passed |= 1 << s
        for step in (1, 2, 3):
            s = (seat + step) % 4
            if not passed >> s & 1 and s != self.high_bidder:
                return s
        return -1

    def packet(self, seat: int) -> int:
        """``seat``'s blind packet (docs/rules/blind_cinch.md#deal): a round of ``blind_packet`` from 36."""
        size = self.rules.blind_packet
        start = 36 + size * ((seat - self.dealer - 1) % 4)
        return mask_of(self.board.deck[start : start + size])

    # ------------------------------------------------------------------ trump and draw
    def tables_for(self, suit: int) -> TrumpTables:
        """The trump tables of ``suit``, with the ruleset's extra counting trumps."""
        extra = self.rules.extra_counts
        return (counting_tables(extra) if extra else TRUMP_TABLES)[suit]

    def do_trump(self, suit: int) -> None:
        r = self.rules
        self.trump = suit
        self.tables = self.tables_for(suit)
        if r.blind_packet:
            # the declarer discards first, then each seat clockwise from his left
            self.phase, self.draw_turn, self.to_act = DISCARD, 0, self.declarer
        elif r.draw == DRAW_AMERICAN:
            trumps = self.trump_tables().trump_mask
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
            rebuilt = self.pile & ~self.trump_tables().trump_mask
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
        """The dealer takes every trump in the stock, then fills up to six (docs/rules/american62.md)."""
        dealer, trumps = self.dealer, self.trump_tables().trump_mask
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
        hand = self.hands[self.actor()]
        r = self.rules
        if r.blind_packet:
            # no stock to draw from: down to six exactly; american62 keeps every trump
            src = hand & ~self.trump_tables().trump_mask if r.draw == DRAW_AMERICAN else hand
            n = min(src.bit_count(), hand.bit_count() - 6)
            return src, n, n, 0
        if r.trump_discard_over_six_only:
            trumps = hand & self.trump_tables().trump_mask
            if trumps.bit_count() > 6:
                # Katz: trumps may go only to come down to six, so exactly the
                # non-trumps plus the surplus trumps: always three cards from nine.
                return hand, r.min_discard, hand.bit_count() - 6, hand & ~trumps
            plain = hand & ~trumps
            return plain, r.min_discard, plain.bit_count(), 0
        return hand, r.min_discard, hand.bit_count(), 0

    def do_discard(self, cards: int, listed: Sequence[int] = ()) -> None:
        """Discard ``cards`` (``listed``: the same cards in the order the action named them)."""
        seat = self.actor()
        self.hands[seat] &= ~cards
        self.pile |= cards
        if self.rules.blind_packet:
            self._after_blind_discard(seat, cards, listed)
            return
        got = self._deal_to(seat, 6 - self.hands[seat].bit_count())
        self.draws.append(DrawRecord(seat, cards, got, cards, listed=listed))
        self.draw_turn += 1
        last = 4 if self.rules.dealer_draws_blind else 3
        if self.draw_turn < last:
            self.to_act = (self.dealer + 1 + self.draw_turn) % 4
        elif self.rules.dealer_draws_blind:
            self._start_play()
        else:
            self._enter_foster_rob()

    def _after_blind_discard(self, seat: int, cards: int, listed: Sequence[int]) -> None:
        """Blind Cinch: no draw; the next seat takes up his packet, or the play begins."""
        shown = 0 if self.rules.draw == DRAW_AMERICAN else cards  # american62: face down
        self.draws.append(DrawRecord(seat, cards, self.packet(seat), shown, listed=listed))
        self.draw_turn += 1
        if self.draw_turn == 4:
            self._start_play()
            return
        nxt = (self.declarer + self.draw_turn) % 4
        self.hands[nxt] |= self.packet(nxt)
        self.to_act = nxt

    def do_rob(self, keep: int) -> None:
        dealer = self.dealer
        old_hand = self.hands[dealer]
        left = self.rob_pool & ~keep
        if self.rules.draw == DRAW_AMERICAN:
            self.stock = [c for c in self.stock if not (keep >> c) & 1]
            record = self.draws[-1]
            self.draws[-1] = DrawRecord(dealer, record.discarded, keep & ~old_hand, 0, left)
        else:
            trumps = self.trump_tables().trump_mask
            shown = left & trumps
            from_hand = old_hand & ~keep
            self.pile |= shown | from_hand
            self.stock = [c for c in self.stock if not ((keep | shown) >> c) & 1]
            self.draws.append(DrawRecord(dealer, from_hand, keep & ~old_hand, shown, left & ~trumps & ~old_hand))
        self.hands[dealer] = keep
        self._start_play()

    def _start_play(self) -> None:
        self.hands_after_draw = tuple(self.hands)
        self.phase = PLAY
        self.tricks.append(Trick(self.declarer))
        self.to_act = self.declarer

    # ------------------------------------------------------------------ play
    def check_extras(self, seat: int, card: int, extras: int) -> None:
        """Extras must be exactly the owed count, of the non-counting trumps beside ``card``."""
        owed = self.extras_owed(seat)
        if extras.bit_count() != owed or extras & ~self.extras_from(card):
            raise IllegalAction(f"{SEATS[seat]}'s extras do not fit: {owed} non-counting trumps are owed")

    def extras_owed(self, seat: int) -> int:
        if len(self.tricks) != 1:
            return 0
        n = self.hands[seat].bit_count()
        return n - 6 if n > 6 else 0

    def _follow_mask(self) -> int:
        """Cards the follow rules allow the player to act, before the extras constraint."""
        hand = self.hands[self.actor()]
        tab = self.trump_tables()
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
        seat = self.actor()
        owed = self.extras_owed(seat)
        if owed:
            spare = self.hands[seat] & self.trump_tables().noncounting_trumps
            return [c for c in cards_of(legal) if (spare & ~(1 << c)).bit_count() >= owed]
        return cards_of(legal)

    def extras_from(self, card: int) -> int:
        """Cards the player to act may add as extras with main card ``card``."""
        return self.hands[self.actor()] & self.trump_tables().noncounting_trumps & ~(1 << card)

    def do_play(self, card: int, extras: int = 0) -> None:
        seat = self.actor()
        tab = self.trump_tables()
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
        for s, c, _x in trick.plays:
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

    # ------------------------------------------------------------------ random play
    def random_step(self, rng: Random) -> None:
        """Apply one uniformly random legal decision: each legal bid, suit or main card is
        equally likely; a discard takes a random size in its range, then random cards; a
        rob keeps the forced cards plus a random choice of the rest."""
        phase = self.phase
        if phase == PLAY:
            owed = self.extras_owed(self.actor())
            legal = self.legal_plays() if owed else cards_of(self._follow_mask())
            card = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
            extras = mask_of(rng.sample(cards_of(self.extras_from(card)), owed)) if owed else 0
            self.do_play(card, extras)
        elif phase == BIDDING:
            self.do_bid(rng.choice(self.legal_bids()))
        elif phase == TRUMP:
            self.do_trump(rng.randrange(4))
        elif phase == DISCARD:
            src, low, high, must = self.discard_rules()
            optional = cards_of(src & ~must)
            count = rng.randint(low, high) - must.bit_count()
            self.do_discard(must | mask_of(rng.sample(optional, count)))
        elif phase == ROB:
            optional = cards_of(self.rob_pool & ~self.rob_must)
            count = self.rob_size - self.rob_must.bit_count()
            self.do_rob(self.rob_must | mask_of(rng.sample(optional, count)))
        else:
            raise ValueError("the hand is over")

    # ------------------------------------------------------------------ result
    def discard_points(self) -> int:
        """Counting trumps among the discards and rob leftovers: the declarer's (foster51)."""
        if self.rules.draw == DRAW_AMERICAN or self.tables is None:
            return 0
        return sum(self.trump_tables().points[c] for c in cards_of(self.pile & self.trump_tables().counting_mask))

    def points(self) -> tuple[int, int]:
        """Points per side (NS, EW): tricks, Low where it goes to its holder, discards."""
        taken = self.taken.copy()
        if self.phase == DONE:
            taken[self.declarer & 1] += self.discard_points()
        return taken[0], taken[1]

    def delta(self) -> tuple[int, int]:
        """Score change per side (NS, EW) of a complete hand."""
        return hand_delta(self.rules, self.declarer & 1, self.contract[1] if self.contract else None, self.points())

    # ------------------------------------------------------------------ wire layer
    def legal_actions(self) -> list[dict[str, Any]] | None:
        """Every legal action in docs/rules/actions.md#wire-format form; one choice object for discard and rob."""
        phase = self.phase
        if phase == BIDDING:
            return bid_entries(self.legal_bids())
        if phase == TRUMP:
            return trump_entries()
        if phase == DISCARD:
            src, low, high, must = self.discard_rules()
            choice: dict[str, Any] = {"type": "discard", "from": names_of(src), "min": low}
            if high != src.bit_count():
                choice["max"] = high
            if must:
                choice["must_include"] = names_of(must)
            return [choice]
        if phase == ROB:
            return [
                {
                    "type": "rob",
                    "from": names_of(self.rob_pool),
                    "must_keep": names_of(self.rob_must),
                    "size": self.rob_size,
                }
            ]
        if phase == PLAY:
            owed = self.extras_owed(self.actor())
            if not owed:
                return [{"type": "play", "card": CARD_NAMES[c]} for c in self.legal_plays()]
            return [
                {
                    "type": "play",
                    "card": CARD_NAMES[c],
                    "extras_count": owed,
                    "extras_from": names_of(self.extras_from(c)),
                }
                for c in self.legal_plays()
            ]
        return None

    def apply(self, action: Any) -> None:
        """Validate and apply one wire-format action, or raise ``IllegalAction`` unchanged."""
        if self.phase == DONE:
            raise IllegalAction("the hand is over: no action is expected")
        if not isinstance(action, dict):
            raise IllegalAction("an action must be a JSON object with a 'type'")
        kind = action.get("type")
        seat = SEATS[self.actor()]
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

    def _apply_pass(self, action: dict[str, Any]) -> None:
        if self.rules.dealer_must_bid and self.to_act == self.dealer and self.high_bid == 0:
            raise IllegalAction(f"the dealer must bid {self.rules.min_bid} when the first three players pass")
        self.do_bid(0)

    def _apply_bid(self, action: dict[str, Any]) -> None:
        r = self.rules
        amount = bid_amount(r, action.get("amount"), self.high_bid)
        if r.dealer_must_bid and self.to_act == self.dealer and self.high_bid == 0 and amount != r.min_bid:
            raise IllegalAction(f"the dealer must bid exactly {r.min_bid} when the first three players pass")
        self.do_bid(amount)

    def _apply_trump(self, action: dict[str, Any]) -> None:
        suit = action.get("suit")
        if not isinstance(suit, str) or suit not in SUITS or len(suit) != 1:
            raise IllegalAction(f"trump suit must be one of C D H S, not {suit!r}")
        self.do_trump(SUITS.index(suit))

    def _apply_discard(self, action: dict[str, Any]) -> None:
        cards = card_set(action.get("cards"), "discard cards")
        seat = self.actor()
        hand = self.hands[seat]
        for c in cards_of(cards & ~hand):
            raise IllegalAction(f"{SEATS[seat]} does not hold {ALL_NAMES[c]}")
        src, low, high, must = self.discard_rules()
        for c in cards_of(cards & ~src):
            if self.rules.draw == DRAW_AMERICAN:
                raise IllegalAction(f"{CARD_NAMES[c]} is a trump: on american62 only non-trumps are discarded")
            raise IllegalAction(
                f"{CARD_NAMES[c]} is a trump: trumps may be discarded only "
                f"by a player holding more than six, down to six"
            )
        n = cards.bit_count()
        if low == high != n:
            raise IllegalAction(f"a discard must be exactly {low} cards here (down to six), not {n}")
        if n < low:
            raise IllegalAction(f"a discard must be at least {low} cards, not {n}")
        if n > high:
            raise IllegalAction(f"a discard may be at most {high} cards here, not {n}")
        for c in cards_of(must & ~cards):
            raise IllegalAction(f"{CARD_NAMES[c]} must be discarded before any trump")
        self.do_discard(cards, tuple(CARD_INDEX[c] for c in action["cards"]))

    def _apply_rob(self, action: dict[str, Any]) -> None:
        keep = card_set(action.get("keep"), "rob keep")
        for c in cards_of(keep & ~self.rob_pool):
            raise IllegalAction(f"{ALL_NAMES[c]} is neither in the dealer's hand nor in the stock")
        for c in cards_of(self.rob_must & ~keep):
            why = (
                "every trump, in american62"
                if (self.trump_tables().trump_mask >> c) & 1
                else "dealt blind from the rebuilt stock"
            )
            raise IllegalAction(f"the dealer must keep {CARD_NAMES[c]} ({why})")
        n = keep.bit_count()
        if n != self.rob_size:
            raise IllegalAction(f"the dealer's hand after the rob must be {self.rob_size} cards, not {n}")
        self.do_rob(keep)

    def _apply_play(self, action: dict[str, Any]) -> None:
        card = one_card(action.get("card"))
        extras = card_set(action.get("extras", []), "extras")
        seat = self.actor()
        name = SEATS[seat]
        hand = self.hands[seat]
        if not (hand >> card) & 1:
            raise IllegalAction(f"{name} does not hold {ALL_NAMES[card]}")
        for c in cards_of(extras & ~hand):
            raise IllegalAction(f"{name} does not hold {ALL_NAMES[c]}")
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
        for c in cards_of(extras & self.trump_tables().counting_mask):
            raise IllegalAction(f"extra {CARD_NAMES[c]} is a counting trump")
        self.do_play(card, extras)

    def _follow_error(self, card: int) -> str:
        tab = self.trump_tables()
        trick = self.tricks[-1]
        name = CARD_NAMES[card]
        if (self._follow_mask() >> card) & 1:
            return f"{name} cannot be the main card: too few non-counting trumps would be left for the extras"
        if not trick.plays:
            return f"{name} breaks the first-lead rule: the first lead must be a trump"
        if trick.lead_suit == tab.trump:
            return f"{name} breaks the follow rules: a trump was led and the player holds a trump"
        return f"{name} breaks the follow rules: {SUITS[trick.lead_suit]} was led: the player must follow suit or trump"

    # ------------------------------------------------------------------ audit
    def describe_extra(self) -> dict[str, Any]:
        """Cinch's replay fields: the scoring ``items`` so far and, when complete, the ``record``."""
        return {"items": self.items(), "record": self.record() if self.phase == DONE else None}

    def items(self) -> list[dict[str, Any]]:
        """One entry per counting card scored, in the order won: tricks as they finish
        (play order within a trick), then, on a complete hand, face-up discards as they
        were shown. They sum to ``points``."""
        tab = self.tables
        out: list[dict[str, Any]] = []
        if tab is None:
            return out
        points, low_to_holder = tab.points, self.rules.low_to_holder
        for trick in self.tricks:
            if trick.winner is None:
                break
            for seat, card, extras in trick.plays:
                for c in (card, *cards_of(extras)):
                    if points[c]:
                        owner = seat if c == tab.low_card and low_to_holder else trick.winner
                        out.append({"item": CARD_NAMES[c], "side": SIDES[owner & 1], "value": points[c]})
        if self.phase == DONE and self.discard_points():
            side = SIDES[self.declarer & 1]
            for rec in self.draws:
                for c in self._shown_in_order(rec):
                    if points[c]:
                        out.append({"item": CARD_NAMES[c], "side": side, "value": points[c], "discard": True})
        return out

    def _shown_in_order(self, rec: DrawRecord) -> list[int]:
        """The cards a draw showed face up, in the order shown: as the discard named them,
        else (the rob, the fast layer) as they were dealt."""
        if rec.listed:
            return [c for c in rec.listed if rec.shown >> c & 1]
        return sorted(cards_of(rec.shown), key=self.board.deck.index)

    def record(self) -> dict[str, Any]:
        """Where the cards not played went: each seat's discards (a robbing dealer's are
        everything he did not keep), the stock left (top first; a rebuilt stock's cards
        stay listed as their discarder's), nothing out of play."""
        rob_discards = self.rules.draw != DRAW_AMERICAN  # foster: the dealer robs the whole stock
        discards = [0, 0, 0, 0]
        for rec in self.draws:
            discards[rec.seat] |= rec.discarded | rec.shown | (rec.left_in_stock if rob_discards else 0)
        gone = discards[0] | discards[1] | discards[2] | discards[3]
        return {
            "discards": self.seat_dict(discards),
            "stock": [CARD_NAMES[c] for c in reversed(self.stock) if not gone >> c & 1],
            "out_of_play": [],
            "widow": [],
            "turnups": [],
        }

    def public(self, me: int | None) -> dict[str, Any]:
        """Cinch's own observation fields: the auction, the draw as ``me`` may see it."""
        return {
            "bids": [
                {"seat": SEATS[s], "type": "bid", "amount": a} if a else {"seat": SEATS[s], "type": "pass"}
                for s, a in self.bids
            ],
            "draws": [d.to_dict(-1 if me is None else me) for d in self.draws],
            "restocks": self.restocks,
            "bidder_goes_out": self.bidder_goes_out,
        }


_FIELDS = {
    "pass": (),
    "bid": ("amount",),
    "trump": ("suit",),
    "discard": ("cards",),
    "rob": ("keep",),
    "play": ("card", "extras"),
}
