"""``rule``: a hand-written club player, after Foster's "Suggestions for good play".

The bot sees only its observation and follows a short list of rules of thumb:

* bid on *catching cards* (the high trumps of its best suit, the Pedros it can guard,
  length), never on the points themselves, and bid the least that takes the contract;
* name the suit where it is strongest, counting the left Pedro as a trump;
* keep trumps only (foster51 discards, both robs), the best six when it has more;
* widow_cinch: always take the widow (see ``choose_widow``); partners are read from the
  sides (three seats on, at six), so the play rules below hold at any table;
* in play: lead a sure-winning trump to pull trumps and let partner throw points on it;
  throw counting cards on partner's sure tricks, never on the opponents'; save a
  Pedro (or Ten, Jack) by winning with it when nobody can overtake; as third hand
  *cinch* (a small trump above the Five, so the last player cannot win with a Pedro);
  otherwise play the cheapest card. Which trumps are gone is read from the tricks and
  the face-up discards.

Every decision is a pure function of (seed, observation): ties are broken with
``decision_rng``, which hashes both. Cards stay strings throughout; a decision costs a
few tens of microseconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from random import Random
from typing import Any

from workers.bots import all_fours_rule
from workers.bots.base import Action, Observation, decision_rng

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SEATS, SIDES = ("N", "E", "S", "W"), ("NS", "EW")  # an observation without seats is Cinch's table
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
PEDRO_KEY = 100 + 2 * 3 + 1  # strength of the five of trumps (the right Pedro)
LEFT_PEDRO_KEY = 100 + 2 * 3  # the left Pedro, just below it
POINTS_BY_RANK = {"A": 1, "J": 1, "T": 1, "5": 5, "2": 1}
# Points a deal holds where it is not Cinch's 14: a hand's value (on the 14-point scale
# of the catching cards it holds) is scaled to the auction's range.
DEAL_POINTS = {"sixty_three": 63}


# ---------------------------------------------------------------------- card helpers
def left_pedro(trump: str) -> str:
    """The five of the same-colour suit, which becomes a trump."""
    return "5" + SAME_COLOUR[trump]


def is_trump(card: str, trump: str) -> bool:
    """Trump suit cards and the left Pedro."""
    return card[1] == trump or (card[0] == "5" and card[1] == SAME_COLOUR[trump])


def strength(card: str, trump: str) -> int:
    """Trick-taking strength, as the engine ranks it: trumps 100+, plain cards by rank.

    Trump order is A K Q J T 9 8 7 6 5 5(left) 4 3 2: ranks are spaced by two so that
    the left Pedro fits between the right Pedro and the four.
    """
    r = RANKS.index(card[0])
    if card[1] == trump:
        return 100 + (2 * r + 1 if r >= 3 else 2 * r)
    if card[0] == "5" and card[1] == SAME_COLOUR[trump]:
        return LEFT_PEDRO_KEY
    return r


def card_points(card: str, trump: str) -> int:
    """Points a card is worth in the trick that captures it (0 for plain cards)."""
    if not is_trump(card, trump):
        return 0
    return POINTS_BY_RANK.get(card[0], 0)


def trumps_of(cards: Iterable[str], trump: str) -> list[str]:
    """The trumps among ``cards``, highest first."""
    return sorted((c for c in cards if is_trump(c, trump)), key=lambda c: -strength(c, trump))


def all_trumps(trump: str) -> list[str]:
    """The 14 trumps of a suit, highest first."""
    return trumps_of([r + trump for r in RANKS] + [left_pedro(trump)], trump)


# ---------------------------------------------------------------------- hand valuation
@dataclass(frozen=True)
class SuitValue:
    suit: str
    value: float  # estimated points for the partnership with this suit trump
    trumps: int  # trumps held (left Pedro included)


# Points our side takes, by card held in the suit named trump (fitted on self-play hands
# in which this bot named each suit in turn; see value_suit).
CATCHER_VALUE = {"A": 2.9, "K": 1.7, "Q": 1.2}
OTHER_VALUE = {"J": 0.6, "T": 0.7, "5": 1.3, "L": 0.95, "9": 0.6, "8": 0.6, "7": 0.6, "6": 0.6, "4": 0.45, "3": 0.45}


def value_suit(hand: list[str], suit: str, low_to_holder: bool, is_dealer: bool) -> SuitValue:
    """Expected points for our side if we name ``suit``, counted from *catching* cards.

    Foster: bid on catching cards, not on points. The ace, king and queen win tricks
    and so capture what partner throws on them, and they are worth far more than the
    Jack or Ten; a Pedro adds less when the top cards are there already (the guards
    were going to catch something anyway), and every small trump helps to protect
    them. Low is a sure point only where it goes to its holder. About four points come
    from partner and the draw whatever we hold. The weights were fitted by least
    squares on 12,800 hands of this bot naming every suit.
    """
    trumps = trumps_of(hand, suit)
    ranks = [c[0] if c[1] == suit else "L" for c in trumps]
    value = 4.1
    top = 0
    pedros = 0
    for rank in ranks:
        if rank in CATCHER_VALUE:
            value += CATCHER_VALUE[rank]
            top += 1
        elif rank == "2":
            value += 1.2 if low_to_holder else 0.1
        else:
            value += OTHER_VALUE[rank]
            pedros += rank in "5L"
    value += 0.1 * top * top - 0.48 * pedros * top
    if is_dealer:
        value += 0.2 + 0.06 * len(trumps)  # the dealer draws last, with the most choice
    return SuitValue(suit, value, len(trumps))


def best_suit(hand: list[str], low_to_holder: bool, is_dealer: bool, rng_source: Any) -> SuitValue:
    """The suit that values highest; exact ties go to the longer suit, then to the seeded generator."""
    values = [value_suit(hand, s, low_to_holder, is_dealer) for s in SUITS]
    top = max(v.value for v in values)
    tied = [v for v in values if v.value == top]
    if len(tied) > 1:
        tied.sort(key=lambda v: -v.trumps)
        tied = [v for v in tied if v.trumps == tied[0].trumps]
    if len(tied) == 1:
        return tied[0]
    return tied[rng_source().randrange(len(tied))]


# ---------------------------------------------------------------------- what the seat knows
@dataclass
class View:
    """The facts of an observation that the play rules need, computed once per decision."""

    trump: str
    seat: str
    seats: tuple[str, ...]  # the table, clockwise
    allies: frozenset[str]  # the other seats of our side in this hand (``allies_of``)
    low_to_holder: bool
    trick: list[tuple[str, str]]  # the trick in progress: (seat, main card)
    unseen_trumps: list[str]  # trumps another player may still hold, highest first
    void_in_trumps: set[str]  # seats that failed to follow a trump lead

    def points(self, card: str) -> int:
        """Points a card risks when it is captured (Low is never at risk if it goes to its holder)."""
        if self.low_to_holder and card[0] == "2" and card[1] == self.trump:
            return 0
        return card_points(card, self.trump)

    def key(self, card: str) -> int:
        return strength(card, self.trump)

    def is_boss(self, card: str) -> bool:
        """A trump no unseen trump can beat: it wins any trick it is played to."""
        return is_trump(card, self.trump) and all(self.key(u) < self.key(card) for u in self.unseen_trumps)

    def at_risk(self, card: str) -> int:
        """Points this card could lose to the opponents if we keep it (0 for a boss)."""
        if self.is_boss(card):
            return 0
        return self.points(card)

    def is_opponent(self, seat: str) -> bool:
        return seat != self.seat and seat not in self.allies


def seats_of(obs: Observation) -> tuple[str, ...]:
    """The table's seats, clockwise (N E S W where an observation does not list them)."""
    return tuple(obs.get("seats") or SEATS)


def allies_of(obs: Observation) -> frozenset[str]:
    """The seats whose tricks count for our side: the other seats of our fixed side (the
    sides are the keys of ``scores``: NS and EW at four, P1P4, P2P5 and P3P6 in
    widow_cinch, each seat alone in the single-seat games); in auction_cinch, once the call
    has made the sides (``makers``), our fellow makers or fellow opponents."""
    seat, makers = obs["seat"], obs.get("makers")
    if makers is not None:
        return frozenset(s for s in seats_of(obs) if s != seat and (s in makers) == (seat in makers))
    side = next((s for s in obs.get("scores") or SIDES if seat in s), seat)
    return frozenset(other for other in seats_of(obs) if other != seat and other in side)


def on_declaring_side(obs: Observation) -> bool:
    return obs["declarer"] == obs["seat"] or obs["declarer"] in allies_of(obs)


def choose_call(obs: Observation) -> Action:
    """auction_cinch's call: the highest trump we lack that may be in another hand (not
    ours, not a face-up discard still out of play), so the partner holds a catcher; with
    every such trump ours or out, a card of our own (we play alone)."""
    trump, hand = obs["trump"], set(obs["hand"])
    back = set(obs.get("restocked") or ())
    out = {c for d in obs["draws"] for c in d["shown"] if c not in back}
    wanted = next((c for c in all_trumps(trump) if c not in hand and c not in out), None)
    return {"type": "call", "card": wanted or min(hand)}


def make_view(obs: Observation) -> View:
    """Collect trump, the trick in progress, unseen trumps and known trump voids.

    A trump is *seen* if it is in our hand, was played (main card or extra), or lies
    among the face-up discards (foster51), our own discards or what we left in the
    stock; every other trump may be in another hand (or, with a blind draw, the stock).
    """
    trump = obs["trump"]
    seat = obs["seat"]
    hand = obs["hand"]
    seen = set(hand)
    for draw in obs["draws"]:
        seen.update(draw["shown"])
        seen.update(draw.get("cards") or ())
        seen.update(draw.get("left_in_stock") or ())
    seen -= set(obs.get("restocked") or ()) - set(hand)  # put back into the stock: anywhere again
    void: set[str] = set()
    current: list[tuple[str, str]] = []
    for trick in obs["tricks"]:
        plays = trick["plays"]
        lead_trump = bool(plays) and is_trump(plays[0]["card"], trump)
        for play in plays:
            seen.add(play["card"])
            seen.update(play["extras"])
            if lead_trump and not is_trump(play["card"], trump):
                void.add(play["seat"])
        if trick["winner"] is None:
            current = [(p["seat"], p["card"]) for p in plays]
    return View(
        trump=trump,
        seat=seat,
        seats=seats_of(obs),
        allies=allies_of(obs),
        low_to_holder=low_goes_to_holder(obs),
        trick=current,
        unseen_trumps=[c for c in all_trumps(trump) if c not in seen],
        void_in_trumps=void,
    )


def low_goes_to_holder(obs: Observation) -> bool:
    """american62 (and foster51's option): Low scores for its holder, so it is never at risk."""
    if obs["ruleset"] == "american62":
        return True
    return bool(obs.get("options", {}).get("low_to_holder", False))


# ---------------------------------------------------------------------- play rules
def trick_state(view: View) -> tuple[str, int, str | None, int]:
    """(lead suit, best strength, seat winning so far, points in the trick)."""
    trump = view.trump
    lead = view.trick[0][1]
    lead_suit = trump if is_trump(lead, trump) else lead[1]
    best_key, best_seat, pts = -1, None, 0
    for seat, card in view.trick:
        if is_trump(card, trump) or card[1] == lead_suit:
            k = view.key(card)
            if k > best_key:
                best_key, best_seat = k, seat
        pts += view.points(card)
    return lead_suit, best_key, best_seat, pts


def seats_after_me(view: View) -> list[str]:
    """Who still plays to this trick after me."""
    seats = view.seats
    i = seats.index(view.seat)
    return [seats[(i + k) % len(seats)] for k in range(1, len(seats) - len(view.trick))]


def beats(view: View, card: str, best_key: int, lead_suit: str) -> bool:
    """Would ``card`` take the lead in the trick (a trump, or a higher card of the suit led)?"""
    if is_trump(card, view.trump) or card[1] == lead_suit:
        return view.key(card) > best_key
    return False


def sure_against(view: View, key: int, later: list[str]) -> bool:
    """No opponent still to play can beat a winning card of strength ``key``.

    A plain card is only sure when no opponent is left (anyone may trump); a trump is
    sure when no unseen trump outranks it, or every opponent left has shown out of trumps.
    """
    opponents = [s for s in later if view.is_opponent(s)]
    if not opponents:
        return True
    if key < 100:
        return False
    if all(s in view.void_in_trumps for s in opponents):
        return True
    return all(view.key(u) < key for u in view.unseen_trumps)


def throw_cost(view: View, card: str) -> float:
    """What a card is worth keeping: cheapest first when we have nothing better to do.

    Plain cards cost almost nothing (low ranks least), then small trumps; counting cards
    at risk cost their points; the ace and other catchers cost their catching power.
    """
    k = view.key(card)
    if k < 100:
        return k / 100
    return 1 + (k - 100) / 10 + 10 * view.points(card)


def cheapest(view: View, cards: list[str]) -> str:
    """The card we miss least (ties by card string, so the choice is deterministic)."""
    return min(cards, key=lambda c: (throw_cost(view, c), c))


def dump_to_partner(view: View, legal: list[str]) -> str:
    """Partner's trick is safe: give him the counting card most at risk.

    Pedros first (5 points); then, following Foster, Low before the Ten and the Jack
    ("you may catch something with the Jack or Ten"). Never the ace: it is a catcher.
    With nothing to give, play the cheapest card.
    """
    order = {"5": 0, "2": 1, "T": 2, "J": 3}
    givable = [c for c in legal if view.at_risk(c) and c[0] in order]
    if givable:
        return min(givable, key=lambda c: (order[c[0]], c))
    return cheapest(view, legal)


def pedro_outstanding(view: View) -> bool:
    """Some Pedro is neither ours nor played nor shown: an opponent may hold it."""
    return any(LEFT_PEDRO_KEY <= view.key(u) <= PEDRO_KEY for u in view.unseen_trumps)


def cinching_card(view: View, legal: list[str], best_key: int, later: list[str]) -> str | None:
    """Foster's cinch, as third hand: make the trick need more than a Pedro.

    With one opponent left to play, a Pedro outstanding and the trick so far won by a
    card below the Five (partner's plain lead, a small trump), that opponent could win
    it with his Pedro, or throw his Pedro on his partner's small trump. Any trump above
    the Five stops both. We cinch with a small one (6 to 9): spending a king or a
    counting card on it costs more than it saves (measured in self-play, where
    cinching as second hand or with high trumps lost points too).
    """
    if len(later) != 1 or later[0] in view.void_in_trumps:
        return None
    if best_key >= PEDRO_KEY or not pedro_outstanding(view):
        return None
    options = [c for c in legal if c[1] == view.trump and c[0] in "6789"]
    if not options:
        return None
    return min(options, key=lambda c: (view.key(c), c))


def choose_follow(view: View, legal: list[str]) -> str:
    """Second, third or fourth to a trick: give, win, cinch or throw, in that order."""
    lead_suit, best_key, best_seat, pts = trick_state(view)
    later = seats_after_me(view)
    partner_winning = best_seat in view.allies
    if partner_winning and sure_against(view, best_key, later):
        return dump_to_partner(view, legal)

    winners = [c for c in legal if beats(view, c, best_key, lead_suit)]
    sure = [c for c in winners if sure_against(view, view.key(c), later)]
    # Save one of our own counting cards by winning with it (e.g. a Pedro played last).
    saving = [c for c in sure if view.at_risk(c)]
    if saving:
        return max(saving, key=lambda c: (view.points(c), c))
    if sure and pts > 0:
        return cheapest(view, sure)
    cinch = cinching_card(view, legal, best_key, later)
    if cinch:
        return cinch
    safe = [c for c in legal if not view.at_risk(c)]
    return cheapest(view, safe or legal)


def choose_lead(view: View, legal: list[str]) -> str:
    """Lead a sure-winning trump when we have one, else the cheapest card.

    A boss trump pulls trumps and lets partner throw his Pedro on it (Foster's reason
    for bidding on an ace). Among bosses, lead a counting one first to bank it. Without
    one, a low plain card leads nothing away and gives partner the chance to cinch.
    """
    bosses = [c for c in legal if view.is_boss(c)]
    if bosses:
        return max(bosses, key=lambda c: (view.points(c), view.key(c)))
    plain = [c for c in legal if not is_trump(c, view.trump)]
    if plain:
        return cheapest(view, plain)
    safe = [c for c in legal if not view.at_risk(c)]
    return cheapest(view, safe or legal)


def choose_extras(view: View, extras_from: list[str], count: int) -> list[str]:
    """First-trick extras (american62): the smallest trumps, keeping the catchers."""
    return sorted(extras_from, key=lambda c: (view.key(c), c))[:count]


# ---------------------------------------------------------------------- draw rules
def keep_order(cards: list[str], trump: str, declaring_side: bool, banking: bool) -> list[str]:
    """Cards best-to-keep first: trumps by strength, then plain cards by rank.

    ``banking``: in foster51 a trump thrown away is shown face up and its points go to
    the side that named trump, so a declaring-side player with more than six trumps
    throws his surplus counting trumps (other than the ace, a catcher) first: they are
    banked points. A defender throws non-counting ones first, not to give points away.
    """

    def score(c: str) -> tuple[int, int]:
        k = strength(c, trump)
        if k < 100:
            return (0, k)
        pts = card_points(c, trump)
        if banking and declaring_side and pts and c[0] != "A":
            return (1, -pts)  # just above plain cards: the first trumps to go
        if not declaring_side and pts:
            return (3, k)
        return (2, k)

    return sorted(cards, key=score, reverse=True)


def choose_discard(trump: str, choice: dict[str, Any], declaring_side: bool) -> list[str]:
    """Discard everything but trumps; with more than six trumps, keep the best six.

    Satisfies the choice object: at least ``min``, at most ``max``, every
    ``must_include`` card, only cards ``from``.
    """
    source = choice["from"]
    must = list(choice.get("must_include", []))
    low = choice["min"]
    high = choice.get("max", len(source))
    ranked = keep_order(source, trump, declaring_side, banking=True)  # best first
    trumps = [c for c in ranked if is_trump(c, trump)]
    wanted = {c for c in source if not is_trump(c, trump)} | set(trumps[6:])
    wanted |= set(must)
    out = [c for c in reversed(ranked) if c in wanted]  # worst first
    extra = [c for c in reversed(ranked) if c not in wanted]
    while len(out) < low:
        out.append(extra.pop(0))
    if len(out) > high:
        keep_must = [c for c in out if c in must]
        rest = [c for c in out if c not in must]
        out = keep_must + rest[: high - len(keep_must)]
    return out


def choose_rob(trump: str, choice: dict[str, Any], declaring_side: bool, banking: bool) -> list[str]:
    """The dealer's final hand: the forced cards, then the best trumps, then high plain cards.

    Only with more trumps than room does it matter which trumps stay behind (see
    ``keep_order`` for why a bidder leaves his small counting trumps face up).
    """
    must = list(choice["must_keep"])
    size = choice["size"]
    rest = [c for c in choice["from"] if c not in must]
    surplus = sum(is_trump(c, trump) for c in choice["from"]) > size
    ranked = keep_order(rest, trump, declaring_side, banking and surplus)
    return must + ranked[: size - len(must)]


# ---------------------------------------------------------------------- bidding
def bid_limit(value: float, ruleset: str) -> int:
    """The highest bid a hand of this expected value supports (0: not worth a bid).

    american62: a failed bid costs the whole bid, so keep a margin below what the
    hand should make. foster51: the contract only has to be reached, and naming
    trump is the prize.
    """
    margin = 1.5 if ruleset == "american62" else 2.0
    scale = DEAL_POINTS.get(ruleset, 14) / 14
    return max(0, int((value - margin) * scale))


def choose_bid(obs: Observation, legal: list[dict[str, Any]], rng_source: Any) -> Action:
    """Bid the least that wins the auction, if the hand supports it; never outbid partner lightly."""
    if len(legal) == 1:
        return dict(legal[0])
    ruleset = obs["ruleset"]
    hand = obs["hand"]
    seat = obs["seat"]
    value = best_suit(hand, low_goes_to_holder(obs), seat == obs["dealer"], rng_source).value
    limit = bid_limit(value, ruleset)
    amounts = sorted(a["amount"] for a in legal if a["type"] == "bid")
    high = max((b["amount"] for b in obs["bids"] if b["type"] == "bid"), default=0)
    high_seat = next((b["seat"] for b in obs["bids"] if b["type"] == "bid" and b["amount"] == high), None)
    if high_seat in allies_of(obs):
        limit -= 2  # partner already holds the contract: take it only with a clearly better hand
    can = [a for a in amounts if a <= limit]
    if can:
        return {"type": "bid", "amount": can[0]}
    if any(a["type"] == "pass" for a in legal):
        return {"type": "pass"}
    return {"type": "bid", "amount": amounts[0]}


def choose_widow() -> Action:
    """widow_cinch: take the widow, always. Trump is named after it, the declarer keeps
    the best six of twelve, and every counting trump in it scores for his side, kept or
    discarded (docs/rules/widow_cinch.md#discard), where a left widow's score for nobody; all it costs is
    four more cards shown face up among his discards."""
    return {"type": "widow", "take": True}


# ---------------------------------------------------------------------- the bot
class RuleBot:
    """A rule-of-thumb player for every ruleset: the Cinch games here, the All Fours
    games in ``all_fours_rule``."""

    def __init__(self, seed: int | str = 0):
        self.seed = seed

    def decide(self, observation: Observation) -> Action:
        """One legal action for the seat to act, in the wire format of docs/rules/actions.md#wire-format."""
        legal = observation["legal"]
        if not legal:
            raise ValueError("this seat has no decision to make")
        if observation["ruleset"] in all_fours_rule.GAMES:
            return all_fours_rule.decide(observation)
        rng: list[Random] = []

        def rng_source() -> Random:
            if not rng:
                rng.append(decision_rng(self.seed, observation))
            return rng[0]

        kind = legal[0]["type"]
        phase = observation["phase"]
        if phase == "bidding":
            return choose_bid(observation, legal, rng_source)
        if kind == "widow":
            return choose_widow()
        if kind == "trump":
            hand = observation["hand"]
            is_dealer = observation["seat"] == observation["dealer"]
            suit = best_suit(hand, low_goes_to_holder(observation), is_dealer, rng_source).suit
            return {"type": "trump", "suit": suit}
        trump = observation["trump"]
        declaring = on_declaring_side(observation)
        if kind == "call":
            return choose_call(observation)
        if kind == "discard":
            return {"type": "discard", "cards": choose_discard(trump, legal[0], declaring)}
        if kind == "rob":
            # foster51 robbing: trumps left behind are shown and count for the side that named trump
            banking = observation["ruleset"] != "american62"
            return {"type": "rob", "keep": choose_rob(trump, legal[0], declaring, banking)}
        return self._play(observation, legal)

    def _play(self, observation: Observation, legal: list[dict[str, Any]]) -> Action:
        view = make_view(observation)
        cards = [a["card"] for a in legal]
        card = choose_follow(view, cards) if view.trick else choose_lead(view, cards)
        action: dict[str, Any] = {"type": "play", "card": card}
        chosen = next(a for a in legal if a["card"] == card)
        if "extras_count" in chosen:
            action["extras"] = choose_extras(view, chosen["extras_from"], chosen["extras_count"])
        return action
