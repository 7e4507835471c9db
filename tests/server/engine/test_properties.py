"""Property tests of the rules engine over thousands of random hands (docs/rules/common.md, #boards, docs/rules/american62.md, docs/rules/foster51.md, docs/rules/actions.md#refusals, #wire-format).

Each hypothesis example draws a few boards (one from a random permutation of the deck,
the others from the canonical generator), a ruleset (american62, foster51, or foster51
with a random set of its named options) and a seed for a ``random.Random`` that picks
random legal moves, either through the fast layer (``random_step``) or through the wire
layer (``legal_actions`` + ``apply``, choice objects filled in here). The rules used as
oracles (follow rules, trick winners, counting cards, scoring) are re-derived from
RULES.md with card strings, independently of the engine's tables.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.examples import examples as scaled

from server.engine import (
    BIDDING,
    CARD_NAMES,
    DISCARD,
    DONE,
    PLAY,
    ROB,
    SEATS,
    SUITS,
    TRUMP,
    Board,
    HandState,
    IllegalAction,
    generate_board,
    make_ruleset,
    observation,
    replay,
)
from server.engine.playout import random_step

# ---------------------------------------------------------------------------- cards (docs/rules/common.md)

ALL_CARDS = frozenset(CARD_NAMES)
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
PLAIN_ORDER = "AKQJT98765432"


def names(mask: int) -> set[str]:
    """The card strings of an engine card mask."""
    return {CARD_NAMES[i] for i in range(52) if mask >> i & 1}


def left_pedro(trump: str) -> str:
    return "5" + SAME_COLOUR[trump]


def suit_of(card: str, trump: str) -> str:
    """The suit a card belongs to once trump is named: the left Pedro is a trump."""
    return trump if card == left_pedro(trump) else card[1]


def trump_order(trump: str) -> list[str]:
    """The 14 trumps, high to low."""
    return [r + trump for r in "AKQJT98765"] + [left_pedro(trump)] + [r + trump for r in "432"]


def card_points(card: str, trump: str) -> int:
    return {"A" + trump: 1, "J" + trump: 1, "T" + trump: 1, "5" + trump: 5, left_pedro(trump): 5, "2" + trump: 1}.get(
        card, 0
    )


def side_of(seat: str) -> int:
    """0 for NS, 1 for EW (the engine's order of sides)."""
    return SEATS.index(seat) % 2


def trick_winner(plays: list[dict], trump: str) -> str:
    """The seat whose main card wins a complete trick (extras never win)."""
    order = trump_order(trump)
    trumps = [p for p in plays if suit_of(p["card"], trump) == trump]
    if trumps:
        return min(trumps, key=lambda p: order.index(p["card"]))["seat"]
    led = suit_of(plays[0]["card"], trump)
    followers = [p for p in plays if suit_of(p["card"], trump) == led]
    return min(followers, key=lambda p: PLAIN_ORDER.index(p["card"][0]))["seat"]


# ---------------------------------------------------------------------------- rulesets as RULES.md reads them


@dataclass
class Spec:
    """A ruleset as drawn (name and named options) and what docs/rules/american62.md, docs/rules/foster51.md say it means.

    The oracles below read these properties rather than the engine's ``Ruleset`` fields,
    so that a wrong default in the engine's ruleset table is caught too.
    """

    name: str
    options: dict = field(default_factory=dict)

    def ruleset(self):
        return make_ruleset(self.name, self.options)

    @property
    def american(self) -> bool:
        return self.name == "american62"

    @property
    def min_bid(self) -> int:
        return 7 if self.american else self.options.get("min_bid", 1)

    @property
    def low_to_holder(self) -> bool:
        return self.american or self.options.get("low_to_holder", False)

    @property
    def scoring(self) -> str:
        return "american" if self.american else self.options.get("scoring", "difference")

    @property
    def first_lead_trump(self) -> bool:
        return self.options.get("first_lead_trump", False)

    @property
    def dealer_draws_blind(self) -> bool:
        return self.options.get("dealer_draws_blind", False)

    @property
    def katz(self) -> bool:
        """Trumps may be discarded only by a player holding more than six."""
        return self.options.get("trump_discard_over_six_only", False)

    @property
    def decisions(self) -> int:
        """docs/rules/actions.md#wire-format: a hand's action list always has the same length for a ruleset.

        4 bids, 1 trump, the draw (american62: the dealer's rob; foster51: three discards
        and the rob, or four discards when the dealer draws blind), then 24 plays.
        """
        return 4 + 1 + (1 if self.american else 4) + 24


# ---------------------------------------------------------------------------- strategies

FOSTER_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "min_bid": st.integers(1, 14),
        "trump_discard_over_six_only": st.booleans(),
        "low_to_holder": st.booleans(),
        "first_lead_trump": st.booleans(),
        "dealer_draws_blind": st.booleans(),
        "scoring": st.sampled_from(["difference", "set_back", "eight_point_minimum"]),
    },
)
AMERICAN = st.just(Spec("american62"))
FOSTER = st.one_of(st.just(Spec("foster51")), FOSTER_OPTIONS.map(lambda o: Spec("foster51", o)))
ANY_RULESET = st.one_of(AMERICAN, FOSTER)
RNG_SEEDS = st.integers(0, 2**64 - 1)


def dealt_positions(dealer: str, seat: str) -> list[int]:
    """The deck positions dealt to ``seat`` (docs/rules/common.md#boards: three rounds of three)."""
    i = (SEATS.index(seat) - SEATS.index(dealer) - 1) % 4
    return [rnd * 12 + i * 3 + k for rnd in range(3) for k in range(3)]


@st.composite
def boards(draw, count: int) -> list[Board]:
    """``count`` boards: one from a hypothesis-drawn deck, the rest from the canonical generator.

    The drawn deck is often stacked so that one seat is dealt 7 to 9 of the 14 cards of
    one trump suit: long trump hands (american62's extras, the Katz rule over six) are
    rare in uniformly random deals.
    """
    deck = list(draw(st.permutations(CARD_NAMES)))
    dealer = draw(st.sampled_from(SEATS))
    if draw(st.booleans()):
        long_suit = trump_order(draw(st.sampled_from(SUITS)))
        seat = draw(st.sampled_from(SEATS))
        wanted = [c for c in deck if c in long_suit][: draw(st.integers(7, 9))]
        for pos, card in zip(dealt_positions(dealer, seat), wanted):
            other = deck.index(card)
            deck[pos], deck[other] = deck[other], deck[pos]
    seed = draw(st.binary(min_size=1, max_size=8)).hex()
    drawn = Board.from_dict({"dealer": dealer, "deck": deck, "seed": seed})
    set_seed = draw(st.text("abcxyz0123456789-", max_size=6))
    first = draw(st.integers(1, 10**6))
    return [drawn] + [generate_board(set_seed, first + i) for i in range(count - 1)]


def prop_settings(examples: int):
    return settings(
        max_examples=scaled(examples),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ---------------------------------------------------------------------------- driving a hand


def longest_holding(state: HandState) -> str:
    """The suit (left Pedro included) of which one player holds the most cards."""
    return max(SUITS, key=lambda t: max(len(set(trump_order(t)) & names(hand)) for hand in state.hands))


def concrete_action(state: HandState, rng: Random) -> dict:
    """A random legal wire action, filling in the choice objects of discard, rob and extras.

    Half the time trump is the suit of the table's longest holding, so that stacked
    boards (see ``boards``) do lead to long trump hands.
    """
    choice = rng.choice(state.legal_actions())
    kind = choice["type"]
    if kind == "trump" and rng.random() < 0.5:
        action = {"type": "trump", "suit": longest_holding(state)}
    elif kind == "discard":
        must = choice.get("must_include", [])
        optional = [c for c in choice["from"] if c not in must]
        count = rng.randint(choice["min"], choice.get("max", len(choice["from"])))
        action = {"type": "discard", "cards": must + rng.sample(optional, count - len(must))}
        rng.shuffle(action["cards"])
    elif kind == "rob":
        must = choice["must_keep"]
        optional = [c for c in choice["from"] if c not in must]
        action = {"type": "rob", "keep": must + rng.sample(optional, choice["size"] - len(must))}
        rng.shuffle(action["keep"])
    elif kind == "play" and "extras_count" in choice:
        action = {
            "type": "play",
            "card": choice["card"],
            "extras": rng.sample(choice["extras_from"], choice["extras_count"]),
        }
    else:
        action = dict(choice)
    if rng.random() < 0.5:
        action["seat"] = state.seat_to_act()
    return action


def play_hand(spec: Spec, board: Board, rng: Random, wire: bool, check=None) -> HandState:
    """Play a hand with random legal moves; ``check(state)`` runs before and after each move.

    Fails if the hand is not over after the fixed number of decisions of its ruleset.
    """
    state = HandState(spec.ruleset(), board)
    steps = 0
    if check:
        check(state)
    while state.phase != DONE:
        assert steps < spec.decisions, f"the hand is not over after {steps} decisions (phase {state.phase})"
        if wire:
            state.apply(concrete_action(state, rng))
        else:
            random_step(state, rng)
        steps += 1
        if check:
            check(state)
    assert steps == spec.decisions, f"the hand took {steps} decisions, not {spec.decisions}"
    return state


# ---------------------------------------------------------------------------- views of the state


def places(state: HandState) -> dict[str, set[str]]:
    """Where every card is: hands, stock, discard pile, tricks, and (american62 rob) set aside."""
    out = {f"hand {seat}": names(state.hands[i]) for i, seat in enumerate(SEATS)}
    stock = {CARD_NAMES[c] for c in state.stock}
    assert len(stock) == len(state.stock), f"the stock holds a card twice: {state.stock}"
    out["stock"] = stock
    out["pile"] = names(state.pile)
    out["tricks"] = {c for t in state.trick_dicts() for p in t["plays"] for c in [p["card"], *p["extras"]]}
    if state.phase == ROB:
        # american62: the stock's trumps and any blind cards are taken out of the stock
        # for the dealer, but join his hand only with the rob action.
        out["set aside for the rob"] = names(state.rob_pool & ~state.hands[state.dealer]) - stock
    return out


def all_strings(obj) -> tuple[set[str], set[str]]:
    """Every string value and every key anywhere in a JSON-like structure."""
    values: set[str] = set()
    keys: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys.update(item)
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, str):
            values.add(item)
    return values, keys


def plain(value):
    """A deep, plain-data copy of an engine object, through its ``__slots__``.

    Tuples are kept as they are: every tuple in a hand's state holds only ints.
    """
    if isinstance(value, tuple):
        return value
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    slots = getattr(type(value), "__slots__", None)
    if slots:
        return {name: plain(getattr(value, name)) for name in slots}
    return value


def snapshot(state: HandState) -> tuple:
    """Everything about a hand: every state attribute as plain data, and all four observations."""
    return plain(state), [observation(state, seat) for seat in SEATS]


def recount(spec: Spec, state: HandState) -> tuple[int, int]:
    """Points per side recomputed from RULES.md: trick winners, Low, foster51's discards."""
    trump = SUITS[state.trump]
    low = "2" + trump
    totals = [0, 0]
    for trick in state.trick_dicts():
        winner = trick_winner(trick["plays"], trump)
        assert trick["winner"] == winner, f"trick {trick} is won by {winner} under trump {trump}"
        for play in trick["plays"]:
            for card in [play["card"], *play["extras"]]:
                holder = play["seat"] if card == low and spec.low_to_holder else winner
                totals[side_of(holder)] += card_points(card, trump)
    if not spec.american:
        totals[state.declarer % 2] += sum(card_points(c, trump) for c in names(state.pile))
    return totals[0], totals[1]


def expected_delta(spec: Spec, declarer_side: int, contract: int | None, points: tuple[int, int]) -> tuple[int, int]:
    """The score change per side (NS, EW) as docs/rules/american62.md, docs/rules/foster51.md (and Foster's VARIATIONS) read."""
    bidders, defenders = points[declarer_side], points[1 - declarer_side]
    made = contract is None or bidders >= contract
    if spec.scoring == "american":
        gain = (bidders if made else -contract, defenders)
    elif not made:
        # difference and eight-point: the defenders score the bid plus their points;
        # set back (the "old way"): the bidders lose the bid, the defenders add their points.
        gain = (-contract, defenders) if spec.scoring == "set_back" else (0, contract + defenders)
    elif spec.scoring == "eight_point_minimum":
        # "if the bidder's side do not make at least 8 points they cannot score anything";
        # the adversaries score what they make; 7-7 scores nothing.
        gain = (0, 0) if bidders == defenders else (bidders if bidders >= 8 else 0, defenders)
    else:
        gain = (max(bidders - defenders, 0), max(defenders - bidders, 0))
    return gain if declarer_side == 0 else (gain[1], gain[0])


# ---------------------------------------------------------------------------- the follow rules


def allowed_mains(spec: Spec, state: HandState) -> set[str]:
    """Main cards RULES.md allows the player to act, with the american62 extras constraint."""
    trump = SUITS[state.trump]
    hand = names(state.hands[state.to_act])
    tricks = state.trick_dicts()
    current = tricks[-1]["plays"] if tricks and len(tricks[-1]["plays"]) < 4 else []
    first_trick = not tricks or (len(tricks) == 1 and bool(current))
    trumps = {c for c in hand if suit_of(c, trump) == trump}
    if not current:
        allowed = trumps if spec.first_lead_trump and not tricks and trumps else hand
    elif suit_of(current[0]["card"], trump) == trump:
        allowed = trumps or hand
    else:
        follow = {c for c in hand if suit_of(c, trump) == suit_of(current[0]["card"], trump)}
        allowed = follow | trumps if follow else hand
    owed = len(hand) - 6 if first_trick and len(hand) > 6 else 0
    if owed:
        spare = {c for c in trumps if not card_points(c, trump)}
        allowed = {c for c in allowed if len(spare - {c}) >= owed}
    return allowed


def extras_owed(state: HandState) -> int:
    """How many extras the player to act must add (docs/rules/american62.md: down to five after trick 1)."""
    hand = state.hands[state.to_act].bit_count()
    tricks = state.trick_dicts()
    first_trick = not tricks or (len(tricks) == 1 and len(tricks[0]["plays"]) < 4)
    return hand - 6 if first_trick and hand > 6 else 0


# ---------------------------------------------------------------------------- illegal actions (docs/rules/actions.md#refusals)

PHASE_TYPES = {BIDDING: ("pass", "bid"), TRUMP: ("trump",), DISCARD: ("discard",), ROB: ("rob",), PLAY: ("play",)}


def pick(rng: Random, cards: set[str]) -> str:
    return rng.choice(sorted(cards))


def illegal_actions(spec: Spec, state: HandState, rng: Random) -> list[tuple[str, object]]:
    """(rule broken, action) pairs, every one of which RULES.md refuses in this state."""
    if state.phase == DONE:
        played = pick(rng, places(state)["tricks"])
        return [
            ("after the hand", a)
            for a in (
                {"type": "pass"},
                {"type": "bid", "amount": 14},
                {"type": "trump", "suit": "H"},
                {"type": "play", "card": played},
            )
        ]
    seat = state.seat_to_act()
    hand = names(state.hands[state.to_act])
    elsewhere = ALL_CARDS - hand
    legal = concrete_action(state, rng)
    legal.pop("seat", None)
    out: list[tuple[str, object]] = [("out of turn", {**legal, "seat": s}) for s in SEATS if s != seat]
    out += [
        ("not a seat", {**legal, "seat": "n"}),
        ("not an object", [legal]),
        ("unknown type", {"type": "draw"}),
        ("no type", {k: v for k, v in legal.items() if k != "type"}),
        ("unknown field", {**legal, "x": 1}),
    ]
    some = sorted(hand) or ["AS"]
    samples = {
        "pass": {"type": "pass"},
        "bid": {"type": "bid", "amount": 14},
        "trump": {"type": "trump", "suit": "S"},
        "discard": {"type": "discard", "cards": some[:3]},
        "rob": {"type": "rob", "keep": some[:6]},
        "play": {"type": "play", "card": some[0]},
    }
    out += [("wrong type for the phase", a) for kind, a in samples.items() if kind not in PHASE_TYPES[state.phase]]
    out += {
        BIDDING: illegal_bids,
        TRUMP: illegal_trumps,
        DISCARD: illegal_discards,
        ROB: illegal_robs,
        PLAY: illegal_plays,
    }[state.phase](spec, state, rng, hand, elsewhere, legal)
    return out


# Each helper below gets the player's hand, the cards he does not hold and one legal
# concrete action, and returns the phase's own illegal actions.


def illegal_bids(spec, state, rng, hand, elsewhere, legal):
    """Out of range, not a whole number, not above the highest, the dealer's forced 7."""
    high = max((amount for _, amount in state.bids), default=0)
    out = [("bid out of range", {"type": "bid", "amount": a}) for a in (spec.min_bid - 1, 15, -1, 0, 99)]
    out += [("bid not a whole number", {"type": "bid", "amount": a}) for a in ("9", 9.0, True, None)]
    out += [
        ("bid not above the highest", {"type": "bid", "amount": a})
        for a in {spec.min_bid, high, rng.randint(spec.min_bid, max(spec.min_bid, high))}
        if a <= high
    ]
    if spec.american and state.to_act == state.dealer and high == 0:
        out += [
            ("dealer must bid the minimum", {"type": "pass"}),
            ("dealer must bid the minimum", {"type": "bid", "amount": spec.min_bid + 1}),
        ]
    return out


def illegal_trumps(spec, state, rng, hand, elsewhere, legal):
    """A trump suit that is not one of C D H S."""
    return [
        ("trump not C D H S", {"type": "trump", "suit": s}) for s in ("X", "h", "", "HS", "5", "CDHS", None, 2, ["H"])
    ] + [("trump not C D H S", {"type": "trump"})]


def illegal_discards(spec, state, rng, hand, elsewhere, legal):
    """Too few cards, a card not held, a card twice, malformed lists, the Katz option."""
    cards = legal["cards"]
    trump = SUITS[state.trump]
    out = [
        ("too few cards", {"type": "discard", "cards": rng.sample(sorted(hand), 2)}),
        ("too few cards", {"type": "discard", "cards": []}),
        ("card not held", {"type": "discard", "cards": cards[:-1] + [pick(rng, elsewhere)]}),
        ("a card twice", {"type": "discard", "cards": cards + [cards[0]]}),
        ("a card twice", {"type": "discard", "cards": cards[:-1] + [cards[0]]}),
        ("not a card", {"type": "discard", "cards": cards[:-1] + ["1X"]}),
        ("not a list", {"type": "discard", "cards": cards[0]}),
    ]
    if spec.katz:
        trumps = {c for c in hand if suit_of(c, trump) == trump}
        plain_cards = hand - trumps
        if trumps and len(trumps) <= 6:
            out.append(
                (
                    "trump discarded by a player with six or fewer",
                    {"type": "discard", "cards": rng.sample(sorted(plain_cards), 2) + [pick(rng, trumps)]},
                )
            )
        if len(trumps) > 6:
            keep = rng.sample(sorted(trumps), 5)
            out.append(("trumps discarded below six", {"type": "discard", "cards": sorted(hand - set(keep))}))
    return out


def illegal_robs(spec, state, rng, hand, elsewhere, legal):
    """Wrong size, a forced card left out, a card not available, a card twice."""
    choice = state.legal_actions()[0]
    pool, must = set(choice["from"]), set(choice["must_keep"])
    if spec.american:
        trump = SUITS[state.trump]
        others = set().union(*(names(state.hands[i]) for i in range(4) if i != state.dealer))
        assert {c for c in must if suit_of(c, trump) == trump} == set(trump_order(trump)) - others, (
            "american62: the dealer must keep every trump not held by another player"
        )
    keep = legal["keep"]
    spare = sorted(pool - set(keep))
    out = [
        ("wrong size", {"type": "rob", "keep": keep[:-1]}),
        ("unavailable card", {"type": "rob", "keep": keep[:-1] + [pick(rng, ALL_CARDS - pool)]}),
        ("a card twice", {"type": "rob", "keep": keep[:-1] + [keep[0]]}),
        ("a card twice", {"type": "rob", "keep": keep + [keep[0]]}),
    ]
    if spare:
        out.append(("wrong size", {"type": "rob", "keep": keep + [rng.choice(spare)]}))
        if must:
            dropped = pick(rng, must)
            out.append(
                (
                    "forced card omitted",
                    {"type": "rob", "keep": [c for c in keep if c != dropped] + [rng.choice(spare)]},
                )
            )
    return out


def illegal_plays(spec, state, rng, hand, elsewhere, legal):
    """A card not held, a breach of the follow rules, extras missing/too many/counting."""
    trump = SUITS[state.trump]
    allowed = allowed_mains(spec, state)
    offered = {a["card"] for a in state.legal_actions()}
    assert offered == allowed, f"the engine offers {sorted(offered)}, RULES.md allows {sorted(allowed)}"
    owed = extras_owed(state)
    spare = {c for c in hand if suit_of(c, trump) == trump and not card_points(c, trump)}

    def with_extras(card: str) -> dict:
        pool = sorted(spare - {card})
        action = {"type": "play", "card": card}
        if owed:
            action["extras"] = rng.sample(pool, min(owed, len(pool)))
        return action

    out = [
        ("card not held", with_extras(pick(rng, elsewhere))),
        ("not a card", {"type": "play", "card": "ZZ"}),
        ("not a card", {"type": "play"}),
    ]
    out += [("breaks the follow rules", with_extras(c)) for c in sorted(hand - allowed)]
    main = legal["card"]
    extras = legal.get("extras", [])
    if not owed:
        if len(hand) > 1:
            out.append(("extras not owed", {"type": "play", "card": main, "extras": [pick(rng, hand - {main})]}))
        return out
    others = hand - {main} - set(extras)
    out += [
        ("extras missing", {"type": "play", "card": main}),
        ("too few extras", {"type": "play", "card": main, "extras": extras[:-1]}),
        ("extra not held", {"type": "play", "card": main, "extras": extras[:-1] + [pick(rng, elsewhere)]}),
        ("main card as an extra", {"type": "play", "card": main, "extras": extras[:-1] + [main]}),
        ("extras not a list", {"type": "play", "card": main, "extras": extras[0]}),
    ]
    if others & spare:
        out.append(("too many extras", {"type": "play", "card": main, "extras": extras + [pick(rng, others & spare)]}))
    counting = {c for c in others if card_points(c, trump)}
    if counting:
        out.append(
            (
                "counting trump as an extra",
                {"type": "play", "card": main, "extras": extras[:-1] + [pick(rng, counting)]},
            )
        )
    return out


# ---------------------------------------------------------------------------- 1. card accounting


@prop_settings(250)
@given(boards(4), ANY_RULESET, RNG_SEEDS, st.booleans())
def test_every_card_is_in_exactly_one_place_at_every_step(hands, spec, seed, wire):
    """Hands, stock, discard pile, tricks (main cards and extras) partition the 52 cards.

    A card lost, duplicated or conjured up by the draw, a reshuffle or the rob would
    silently corrupt every later rule (follow, points, hidden information).
    """

    def check(state):
        seen: set[str] = set()
        for where, cards in places(state).items():
            assert not seen & cards, f"{sorted(seen & cards)} is in two places, one of them {where}"
            seen |= cards
        assert seen == ALL_CARDS, f"missing: {sorted(ALL_CARDS - seen)}"

    rng = Random(seed)
    for board in hands:
        play_hand(spec, board, rng, wire, check)


# ---------------------------------------------------------------------------- 2. american62 points


@prop_settings(300)
@given(boards(8), RNG_SEEDS)
def test_american62_points_always_sum_to_14(hands, seed):
    """All 14 trumps are in play in american62, so every hand distributes exactly 14 points.

    The points are also recounted from the tricks (winners recomputed, Low to its holder).
    """
    spec = Spec("american62")
    rng = Random(seed)
    for board in hands:
        state = play_hand(spec, board, rng, wire=False)
        assert sum(state.points()) == 14, state.points()
        assert sum(state.taken) == 14 and state.discard_points() == 0
        assert state.points() == recount(spec, state)


# ---------------------------------------------------------------------------- 3. foster51 points


@prop_settings(300)
@given(boards(8), FOSTER, RNG_SEEDS)
def test_foster51_trick_and_discard_points_sum_to_14(hands, spec, seed):
    """Tricks plus counting trumps among the discards make 14 (docs/rules/foster51.md).

    Under ``dealer_draws_blind`` the counting cards left face down in the stock count
    for nobody: the total falls short by exactly their value.
    """
    rng = Random(seed)
    for board in hands:
        state = play_hand(spec, board, rng, wire=False)
        trump = SUITS[state.trump]
        in_stock = sum(card_points(CARD_NAMES[c], trump) for c in state.stock)
        if spec.dealer_draws_blind:
            assert sum(state.points()) == 14 - in_stock <= 14, (state.points(), in_stock)
        else:
            assert in_stock == 0
            assert sum(state.points()) == 14, state.points()
        assert sum(state.taken) + state.discard_points() == sum(state.points())
        assert state.points() == recount(spec, state)


# ---------------------------------------------------------------------------- 4. completion and score


@prop_settings(300)
@given(boards(8), ANY_RULESET, RNG_SEEDS)
def test_random_play_completes_and_scores_by_the_rules(hands, spec, seed):
    """Random legal play ends in the fixed number of decisions, bids and contract follow
    docs/rules/common.md, and the hand's score change follows docs/rules/american62.md, docs/rules/foster51.md for the ruleset's scoring.
    """
    rng = Random(seed)
    for board in hands:
        state = play_hand(spec, board, rng, wire=False)
        dealer = SEATS.index(board.dealer)
        assert [s for s, _ in state.bids] == [(dealer + 1 + i) % 4 for i in range(4)]
        high = 0
        for _, amount in state.bids:
            assert amount == 0 or spec.min_bid <= amount <= 14 and amount > high, state.bids
            high = max(high, amount)
        if high:
            bidder = next(s for s, a in state.bids if a == high)
            assert state.contract == (bidder, high) and state.declarer == bidder
        else:
            assert not spec.american and state.contract is None and state.declarer == dealer
        contract = state.contract[1] if state.contract else None
        delta, points = state.delta(), state.points()
        expected = expected_delta(spec, state.declarer % 2, contract, points)
        assert delta == expected, f"contract {state.contract}, points {points}: {delta} != {expected}"
        if spec.scoring in ("difference", "set_back"):
            assert min(delta) <= 0, "in Foster's scoring only one side scores per hand"


# ---------------------------------------------------------------------------- 5. illegal actions


@pytest.mark.slow  # about 5 s of CPU under the dev profile, four times that under ci
@prop_settings(80)
@given(boards(2), ANY_RULESET, RNG_SEEDS)
def test_every_illegal_action_is_refused_and_changes_nothing(hands, spec, seed):
    """docs/rules/actions.md#refusals: every class of illegal action raises IllegalAction and leaves the state,
    and what every seat sees, exactly as it was; also the engine offers exactly the main
    cards the follow rules allow, and american62 forces the dealer to keep every trump.
    """
    rng = Random(seed)

    def check(state):
        before = snapshot(state)
        for rule, action in illegal_actions(spec, state, rng):
            try:
                state.apply(action)
            except IllegalAction as exc:
                assert str(exc), f"{rule}: refusal without a message"
            else:
                raise AssertionError(f"{rule}: {action!r} was accepted in phase {before[0]['phase']}")
            assert snapshot(state) == before, f"{rule}: refusing {action!r} changed the state"

    for board in hands:
        play_hand(spec, board, rng, wire=True, check=check)


# ---------------------------------------------------------------------------- 6. hidden information


@prop_settings(150)
@given(boards(3), ANY_RULESET, RNG_SEEDS)
def test_observations_never_reveal_hidden_cards(hands, spec, seed):
    """No observation shows another player's unplayed card, the stock or a face-down
    discard unless it was shown face up to all; the board's deck and seed never appear.

    Exception, given by the rules: a seat knows the cards it discarded itself, even once a
    rebuilt stock deals them to somebody else. A dealer who robs sees the original stock
    (deck[36:]) from his rob on, but never a rebuilt stock (other players' discards).
    """

    def check(state):
        original_stock = {CARD_NAMES[c] for c in state.board.deck[36:]}
        shown = set().union(*(names(d.shown) for d in state.draws))
        stock = {CARD_NAMES[c] for c in state.stock}
        set_aside = places(state).get("set aside for the rob", set())
        robbed = not spec.dealer_draws_blind and state.phase in (ROB, PLAY, DONE)
        for me, seat in enumerate(SEATS):
            view = observation(state, seat)
            strings, keys = all_strings(view)
            assert not keys & {"deck", "seed", "board"} and state.board.seed not in strings
            assert view["hand"] == sorted(names(state.hands[me]), key=CARD_NAMES.index)
            assert (view["legal"] is None) == (state.to_act != me)
            assert [set(d["shown"]) for d in view["draws"]] == [names(d.shown) for d in state.draws]
            known = shown | set().union(*(names(d.discarded) for d in state.draws if d.seat == me))
            seen = strings & ALL_CARDS
            for other in range(4):
                if other != me:
                    leak = seen & names(state.hands[other]) - known
                    assert not leak, f"{seat} sees {sorted(leak)} in {SEATS[other]}'s hand"
            leak = seen & names(state.pile) - known
            assert not leak, f"{seat} sees face-down discards {sorted(leak)}"
            if me == state.dealer:
                leak = seen & stock - known - (original_stock if robbed else set())
            else:
                leak = seen & (stock | set_aside) - known
            assert not leak, f"{seat} sees {sorted(leak)} in the stock"

    rng = Random(seed)
    for board in hands:
        play_hand(spec, board, rng, wire=True, check=check)


# ---------------------------------------------------------------------------- 7. determinism


@prop_settings(150)
@given(boards(3), ANY_RULESET, RNG_SEEDS, st.integers(0, 40))
def test_replaying_the_action_list_reproduces_the_hand(hands, spec, seed, cut):
    """replay(board, state.actions) describes the same hand as the live state, for the
    whole hand and for a prefix; the action list is plain JSON and records each seat.
    """
    rng = Random(seed)
    for board in hands:
        described: list[dict] = []
        seats: list[str | None] = []

        def record(state):
            described.append(state.describe())
            seats.append(state.seat_to_act())

        state = play_hand(spec, board, rng, wire=True, check=record)
        assert [a["seat"] for a in state.actions] == seats[:-1]
        doc = json.loads(
            json.dumps(
                {"ruleset": spec.name, "options": spec.options, "board": board.to_dict(), "actions": state.actions}
            )
        )
        assert replay(doc) == state.describe() == described[-1]
        prefix = min(cut, len(state.actions))
        assert replay({**doc, "actions": doc["actions"][:prefix]}) == described[prefix]


# ---------------------------------------------------------------------------- engine bugs found


def test_regression_action_with_unhashable_type_is_refused_as_illegal_action():
    """Regression for a bug this suite found: ``{"type": ["pass"]}`` (valid JSON) made
    ``apply`` raise TypeError (unhashable type: 'list') instead of IllegalAction, so
    the "clear error naming the rule" of docs/rules/actions.md#refusals failed on malformed wire input.
    """
    state = HandState(make_ruleset("american62"), generate_board("bug", 1))
    before = snapshot(state)
    for action in ({"type": ["pass"]}, {"type": {"bid": 7}}):
        try:
            state.apply(action)
        except IllegalAction:
            pass
        assert snapshot(state) == before


def test_bug_recorded_action_does_not_alias_the_callers_lists():
    """ENGINE BUG (minor): ``apply`` records ``dict(action)``, a shallow copy, so the card
    lists in ``state.actions`` are the caller's own lists: a caller that reuses or edits
    its action afterwards rewrites the hand's record, and replaying it no longer works.
    """
    state = HandState(make_ruleset("foster51"), generate_board("bug", 1))
    for action in [{"type": "pass"}] * 4 + [{"type": "trump", "suit": "H"}]:
        state.apply(action)
    cards = state.legal_actions()[0]["from"][:3]
    state.apply({"type": "discard", "cards": cards})
    cards.append("XX")
    assert state.actions[-1]["cards"] == cards[:3]
