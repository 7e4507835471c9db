"""What a seat sees when it must decide, with helpers; and the actions it can answer.

An ``Observation`` *is* the engine's JSON object (a ``dict``: ``obs["hand"]`` works as
everywhere else), with read-only properties for what bots keep computing: the table's
seats and sides (any ruleset, any table size), my partner (the other seat of my side), my side, the trick in progress, the cards played, the legal cards, and so on. The
``legal`` list holds every legal bid, suit or card, or one *choice object* for a
discard (``{"type": "discard", "from", "min"[, "max", "must_include"]}``), a rob
(``{"type": "rob", "from", "must_keep", "size"}``) or a play that owes extras
(``"extras_count"``, ``"extras_from"``). ``random_action``, ``first_action`` and
``check`` turn such a list into a concrete action or validate one, exactly as the
server does.
"""

from __future__ import annotations

import random as _random
from collections.abc import Iterable, Sequence
from typing import Any

from sdk import cards as C

Action = dict[str, Any]

# What is asked, named by the phase that asks it ("bidding" asks for a bid); the All Fours
# games add the eldest's beg or stand, the dealer's give or run, and a bunch proposal
# and its answer, the auction games the eldest's sale, widow_cinch the declarer's widow,
# taken or left, and auction_cinch the declarer's call (docs/rules/actions.md#family-actions).
DECISIONS = ("bid", "trump", "discard", "rob", "play", "beg", "give", "bunch", "accept", "sale", "widow", "call")
_KIND_OF_TYPE = {
    "pass": "bid",
    "bid": "bid",
    "trump": "trump",
    "discard": "discard",
    "rob": "rob",
    "play": "play",
    "stand": "beg",
    "beg": "beg",
    "give": "give",
    "run": "give",
    "bunch": "bunch",
    "accept": "accept",
    "refuse": "accept",
    "sell": "sale",
    "pitch": "sale",
    "widow": "widow",
    "call": "call",
}
# The fields of each action type: pass and the family's types are their name alone.
_FIELDS = {
    "pass": set(),
    "bid": {"amount"},
    "trump": {"suit"},
    "discard": {"cards"},
    "rob": {"keep"},
    "play": {"card", "extras"},
    "widow": {"take"},
    "call": {"card"},
    **{kind: set() for kind in ("stand", "beg", "give", "run", "bunch", "accept", "refuse", "sell", "pitch")},
}


# ---------------------------------------------------------------------- action builders
def pass_() -> Action:
    return {"type": "pass"}


def bid(amount: int) -> Action:
    return {"type": "bid", "amount": int(amount)}


def trump(suit: str) -> Action:
    return {"type": "trump", "suit": suit}


def discard(cards: Iterable[str]) -> Action:
    return {"type": "discard", "cards": list(cards)}


def rob(keep: Iterable[str]) -> Action:
    """The dealer's whole hand after drawing from the stock."""
    return {"type": "rob", "keep": list(keep)}


def widow(take: bool) -> Action:
    """widow_cinch's declarer: take the widow into his hand (True) or leave it (False)."""
    return {"type": "widow", "take": bool(take)}


def play(card: str, extras: Iterable[str] | None = None) -> Action:
    action: Action = {"type": "play", "card": card}
    if extras:
        action["extras"] = list(extras)
    return action


def call(card: str) -> Action:
    """auction_cinch's declarer calls ``card``: its holder, if another player, is his partner."""
    return {"type": "call", "card": card}


# ---------------------------------------------------------------------- concrete actions from a legal list
def random_action(legal: Sequence[dict[str, Any]], rng: _random.Random | None = None) -> Action:
    """A uniformly chosen concrete action: each bid, suit or card equally likely; a discard
    of a random allowed size; a rob keeping the forced cards plus random others; random extras."""
    rng = rng or _random.Random()
    if not legal:
        raise ValueError("no legal action: it is not this seat's turn")
    action = dict(legal[rng.randrange(len(legal))])
    kind = action["type"]
    if kind == "discard":
        must = list(action.pop("must_include", []))
        optional = [c for c in action.pop("from") if c not in must]
        count = rng.randint(action.pop("min"), action.pop("max", len(optional) + len(must))) - len(must)
        action["cards"] = must + rng.sample(optional, max(0, count))
    elif kind == "rob":
        must = list(action.pop("must_keep"))
        optional = [c for c in action.pop("from") if c not in must]
        action["keep"] = must + rng.sample(optional, action.pop("size") - len(must))
    elif kind == "play" and "extras_count" in action:
        action["extras"] = rng.sample(action.pop("extras_from"), action.pop("extras_count"))
    return action


def first_action(legal: Sequence[dict[str, Any]]) -> Action:
    """The server's default for a seat that does not answer: the first legal choice,
    a discard of the fewest cards allowed (forced ones first), a rob keeping the forced
    cards and then the first listed, the first listed extras. Always legal."""
    if not legal:
        raise ValueError("no legal action: it is not this seat's turn")
    action = dict(legal[0])
    kind = action["type"]
    if kind == "discard":
        must = list(action.pop("must_include", []))
        optional = [c for c in action.pop("from") if c not in must]
        action["cards"] = must + optional[: max(0, action.pop("min") - len(must))]
        action.pop("max", None)
    elif kind == "rob":
        must = list(action.pop("must_keep"))
        optional = [c for c in action.pop("from") if c not in must]
        action["keep"] = must + optional[: action.pop("size") - len(must)]
    elif kind == "play" and "extras_count" in action:
        action["extras"] = list(action.pop("extras_from"))[: action.pop("extras_count")]
    return action


class IllegalAction(ValueError):
    """An action the legal list does not allow; the message says why (as the server would)."""


def _cards(value: Any, what: str) -> set[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in C.ALL_CARDS for c in value):
        raise IllegalAction(f'{what} must be a list of cards such as "AH"')
    if len(set(value)) != len(value):
        raise IllegalAction(f"{what} names a card twice")
    return set(value)


def check(action: Any, legal: Sequence[dict[str, Any]], seat: str | None = None) -> None:
    """Raise ``IllegalAction`` unless ``legal`` allows ``action`` (the server's own test)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("an action must be a JSON object with a 'type'")
    kind = action["type"]
    if kind not in _FIELDS:
        raise IllegalAction(f"unknown action type {kind!r} (known: {', '.join(_FIELDS)})")
    extra = set(action) - _FIELDS[kind] - {"type", "seat"}
    if extra:
        raise IllegalAction(f"a {kind!r} action has no field {sorted(extra)[0]!r}")
    if seat is not None and "seat" in action and action["seat"] != seat:
        raise IllegalAction(f"out of turn: the seat to act is {seat}, not {action['seat']!r}")
    options = [a for a in legal if a["type"] == kind]
    if not options:
        expected = " or ".join(sorted({a["type"] for a in legal})) or "nothing"
        raise IllegalAction(f"a {kind!r} action is not allowed now: expected {expected}")
    if kind == "widow" and not isinstance(action.get("take"), bool):
        raise IllegalAction(f"a widow action needs a boolean take, not {action.get('take')!r}")
    if kind not in ("discard", "rob", "play"):
        plain = {k: v for k, v in action.items() if k != "seat"}
        if plain not in options:
            raise IllegalAction(f"{plain} is not among the legal actions: {options}")
        return
    choice = options[0]
    if kind == "discard":
        chosen = _cards(action.get("cards"), "discard cards")
        allowed, must = set(choice["from"]), set(choice.get("must_include", []))
        high = choice.get("max", len(allowed))
        if not chosen <= allowed:
            raise IllegalAction(f"{sorted(chosen - allowed)[0]} may not be discarded (allowed: {choice['from']})")
        if not choice["min"] <= len(chosen) <= high:
            raise IllegalAction(f"a discard must be {choice['min']} to {high} cards, not {len(chosen)}")
        if not must <= chosen:
            raise IllegalAction(f"{sorted(must - chosen)[0]} must be discarded")
    elif kind == "rob":
        keep = _cards(action.get("keep"), "rob keep")
        if not keep <= set(choice["from"]):
            raise IllegalAction(f"{sorted(keep - set(choice['from']))[0]} is neither in the hand nor in the stock")
        if not set(choice["must_keep"]) <= keep:
            raise IllegalAction(f"the dealer must keep {sorted(set(choice['must_keep']) - keep)[0]}")
        if len(keep) != choice["size"]:
            raise IllegalAction(f"the dealer's hand after the rob must be {choice['size']} cards, not {len(keep)}")
    else:
        card = action.get("card")
        match = next((a for a in options if a["card"] == card), None)
        if match is None:
            raise IllegalAction(f"{card!r} is not a legal card here (legal: {[a['card'] for a in options]})")
        extras = _cards(action.get("extras", []), "extras")
        owed = match.get("extras_count", 0)
        if len(extras) != owed:
            raise IllegalAction(f"exactly {owed} extras must go with the main card here, not {len(extras)}")
        if not extras <= set(match.get("extras_from", [])):
            raise IllegalAction(f"{sorted(extras)[0]} cannot be an extra (allowed: {match.get('extras_from', [])})")


def is_legal(action: Any, legal: Sequence[dict[str, Any]], seat: str | None = None) -> bool:
    try:
        check(action, legal, seat)
    except IllegalAction:
        return False
    return True


# ---------------------------------------------------------------------- the observation
class Observation(dict[str, Any]):
    """The engine's view for one seat (a dict), with helpers. Keys, as the server sends them
    for every ruleset: ruleset, options, seat, seats, dealer, phase, to_act, hand,
    hand_sizes, contract, declarer, trump, tricks, points, scores, legal; then the game's
    own (Cinch: bids, draws, restocks, bidder_goes_out; the All Fours games: items,
    turnups, ...; auction_cinch: bids, draws, restocked, stock_size, called, partner, makers)."""

    # --- who
    @property
    def seat(self) -> str:
        return str(self["seat"])

    @property
    def seats(self) -> tuple[str, ...]:
        """The table's seats, clockwise: N E S W at four, else P1 ... Pk."""
        seats = self.get("seats")
        return tuple(seats) if seats else C.SEATS

    @property
    def sides(self) -> tuple[str, ...]:
        """Who scores: ``"NS"`` and ``"EW"`` at four, else each seat for itself (the
        keys of ``scores``)."""
        scores = self.get("scores")
        return tuple(scores) if scores else (C.SIDES if len(self.seats) == 4 else self.seats)

    @property
    def alone(self) -> bool:
        """Whether each plays for himself: the sides are the seats (any table but the
        partnerships: NS v EW at four, widow_cinch's P1P4, P2P5, P3P6 at six; the auction
        games, auction_pitch, pedro and snoozer, at four too)."""
        return self["seat"] in self.sides

    @property
    def makers(self) -> list[str] | None:
        """auction_cinch: the declarer and the called card's holder, from the call on (the
        declarer alone when nobody else held it); None before the call and in other games."""
        makers = self.get("makers")
        return None if makers is None else list(makers)

    @property
    def allies(self) -> tuple[str, ...]:
        """The other seats whose tricks count for my side in this hand: my partner in
        partnerships; in auction_cinch, once the call is made, my fellow makers or my
        fellow opponents; else nobody."""
        makers = self.makers
        if makers is not None:
            mine = self["seat"] in makers
            return tuple(s for s in self.seats if s != self["seat"] and (s in makers) == mine)
        partner = self.partner
        return () if partner is None else (partner,)

    @property
    def partner(self) -> str | None:
        """My partner: the other seat of my side (opposite at four, three seats on in
        widow_cinch); in auction_cinch the declarer's partner once called (for each of the
        two, the other); None where each plays for himself."""
        makers = self.makers
        if makers is not None:
            others = [s for s in makers if s != self["seat"]]
            return others[0] if self["seat"] in makers and others else None
        return None if self.alone else next(s for s in self._clockwise() if C.side(s, self.sides) == self.side)

    @property
    def opponents(self) -> tuple[str, ...]:
        """The seats playing against me, clockwise from my left: every seat not on my side."""
        if self.alone:
            return self._clockwise()
        return tuple(s for s in self._clockwise() if C.side(s, self.sides) != self.side)

    def _clockwise(self) -> tuple[str, ...]:
        """The other seats, clockwise from my left."""
        seats = self.seats
        i = seats.index(self["seat"])
        return tuple(seats[(i + step) % len(seats)] for step in range(1, len(seats)))

    @property
    def side(self) -> str:
        """The side I score for: ``"NS"`` or ``"EW"`` at four, else my own seat."""
        return C.side(self["seat"], self.sides)

    @property
    def other_side(self) -> str | None:
        """The other side of a two-side game; None when more sides score (see ``other_sides``)."""
        return C.other_side(self.side, self.sides)

    @property
    def other_sides(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s != self.side)

    @property
    def dealer(self) -> str:
        return str(self["dealer"])

    @property
    def is_dealer(self) -> bool:
        return bool(self.get("dealer") == self["seat"])

    @property
    def ruleset(self) -> str:
        return str(self.get("ruleset", ""))

    @property
    def phase(self) -> str:
        """bidding, trump, discard, rob, play or done."""
        return str(self.get("phase", ""))

    @property
    def my_turn(self) -> bool:
        return self.get("to_act") == self["seat"] and bool(self.get("legal"))

    # --- cards
    @property
    def hand(self) -> list[str]:
        return list(self.get("hand") or [])

    @property
    def trump(self) -> str | None:
        return self.get("trump")

    @property
    def plain_trumps(self) -> bool:
        """Whether trumps are the suit's thirteen cards (the All Fours games), not Cinch's."""
        return self.ruleset in C.PLAIN_TRUMPS

    @property
    def deck(self) -> tuple[str, ...]:
        """Every card of the game's pack: the 52, and in snoozer the joker ``"JK"`` too."""
        return C.DECK_53 if self.ruleset in C.JOKER_RULESETS else C.ALL_CARDS

    def is_trump(self, card: str) -> bool:
        return C.is_trump(card, self.trump, self.plain_trumps)

    @property
    def my_trumps(self) -> list[str]:
        """The trumps in my hand, highest first (empty before trump is named)."""
        return C.trumps_in(self.hand, self.trump, self.plain_trumps)

    @property
    def tricks(self) -> list[dict[str, Any]]:
        """Every trick so far, the one in progress last (its winner is None)."""
        return list(self.get("tricks") or [])

    @property
    def completed_tricks(self) -> list[dict[str, Any]]:
        return [t for t in self.tricks if t.get("winner") is not None]

    @property
    def current_trick(self) -> list[dict[str, Any]]:
        """Plays ``{"seat", "card", "extras"}`` of the trick in progress; empty when it has not started."""
        tricks = self.tricks
        return list(tricks[-1]["plays"]) if tricks and tricks[-1].get("winner") is None else []

    @property
    def current_cards(self) -> list[str]:
        return [p["card"] for p in self.current_trick]

    @property
    def leading(self) -> bool:
        """Whether I lead to the trick (nothing played to it yet)."""
        return self.phase == "play" and not self.current_trick

    @property
    def led_card(self) -> str | None:
        plays = self.current_trick
        return plays[0]["card"] if plays else None

    @property
    def led_suit(self) -> str | None:
        """The suit led to the current trick (the left Pedro leads trumps)."""
        card = self.led_card
        return None if card is None else C.effective_suit(card, self.trump, self.plain_trumps)

    @property
    def winning_play(self) -> dict[str, Any] | None:
        """The play now winning the current trick, or None when it is empty."""
        plays = self.current_trick
        i = C.winning_index([p["card"] for p in plays], self.trump, self.plain_trumps)
        return None if i is None else plays[i]

    @property
    def partner_winning(self) -> bool:
        best = self.winning_play
        return best is not None and best["seat"] in self.allies

    @property
    def cards_played(self) -> list[str]:
        """Every card played to tricks so far, main cards and extras, in order."""
        out = []
        for trick in self.tricks:
            for p in trick["plays"]:
                out.append(p["card"])
                out.extend(p.get("extras") or [])
        return out

    @property
    def widow_taken(self) -> bool | None:
        """widow_cinch: whether the declarer took the widow (None until he decides, and in
        the other rulesets). Its cards are never shown to anyone else."""
        return self.get("widow_taken")

    @property
    def shown_cards(self) -> list[str]:
        """Cards discarded face up (foster51, widow_cinch, auction_cinch), seen by everyone and still out
        of play: those put back into a rebuilt stock (``restocked``) may be anywhere again."""
        back = set(self.get("restocked") or [])
        return [c for d in self.get("draws") or [] for c in d.get("shown") or [] if c not in back]

    @property
    def seen_cards(self) -> set[str]:
        """Cards I know are not in another player's hand: mine, played, shown, and my own discards."""
        seen = set(self.hand) | set(self.cards_played) | set(self.shown_cards)
        for d in self.get("draws") or []:
            if d.get("seat") == self["seat"]:
                seen |= set(d.get("cards") or []) | set(d.get("left_in_stock") or [])
        seen -= set(self.get("restocked") or []) - set(self.hand) - set(self.cards_played)
        return seen

    @property
    def unseen_trumps(self) -> list[str]:
        """Trumps I have not seen anywhere: held by others or still out of play, highest first
        (snoozer's joker last)."""
        if self.trump is None:
            return []
        seen = self.seen_cards
        joker = self.ruleset in C.JOKER_RULESETS
        return [c for c in C.all_trumps(self.trump, self.plain_trumps, joker) if c not in seen]

    # --- bidding and scores
    @property
    def bids(self) -> list[dict[str, Any]]:
        return list(self.get("bids") or [])

    @property
    def high_bid(self) -> int | None:
        amounts = [b["amount"] for b in self.bids if b.get("type") == "bid"]
        return max(amounts) if amounts else None

    @property
    def contract(self) -> dict[str, Any] | None:
        return self.get("contract")

    @property
    def declarer(self) -> str | None:
        return self.get("declarer")

    @property
    def we_declared(self) -> bool:
        """Whether my side declared: in auction_cinch, whether I am one of the makers."""
        if self.makers is not None:
            return self["seat"] in self.makers
        return self.declarer is not None and C.side(self.declarer, self.sides) == self.side

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.get("scores") or {})

    @property
    def my_score(self) -> int:
        return self.scores.get(self.side, 0)

    @property
    def their_score(self) -> int:
        """The best score among the other sides (the other side's, in a two-side game)."""
        scores = self.scores
        return max((scores.get(s, 0) for s in self.other_sides), default=0)

    # --- the decision
    @property
    def legal(self) -> list[dict[str, Any]]:
        return list(self.get("legal") or [])

    @property
    def decision(self) -> str | None:
        """What is asked (one of ``DECISIONS``): "bid" (a bid or a pass), "trump",
        "discard", "rob", "play"; in the All Fours games "beg" (stand or beg), "give"
        (give or run), "bunch" (bunch or pass), "accept" (accept or refuse); in the
        auction games (auction_pitch, pedro, snoozer) "sale" (sell or pitch); None when nothing is
        asked of me."""
        legal = self.get("legal")
        if not legal:
            return None
        phase = {"bidding": "bid"}.get(self.get("phase", ""), self.get("phase"))
        return phase if phase in DECISIONS else _KIND_OF_TYPE.get(legal[0]["type"])

    @property
    def legal_bids(self) -> list[int]:
        """Amounts I may bid (the pass is ``can_pass``)."""
        return [a["amount"] for a in self.legal if a["type"] == "bid"]

    @property
    def can_pass(self) -> bool:
        return any(a["type"] == "pass" for a in self.legal)

    @property
    def legal_suits(self) -> list[str]:
        return [a["suit"] for a in self.legal if a["type"] == "trump"]

    @property
    def legal_cards(self) -> list[str]:
        """Main cards I may play."""
        return [a["card"] for a in self.legal if a["type"] == "play"]

    @property
    def choice(self) -> dict[str, Any] | None:
        """The choice object of a discard or rob decision."""
        legal = self.legal
        return legal[0] if legal and legal[0]["type"] in ("discard", "rob") else None

    def extras_for(self, card: str) -> tuple[int, list[str]]:
        """(how many extras must go with ``card``, which cards may) — (0, []) when none are owed."""
        for a in self.legal:
            if a["type"] == "play" and a["card"] == card:
                return a.get("extras_count", 0), list(a.get("extras_from", []))
        raise IllegalAction(f"{card!r} is not a legal card here (legal: {self.legal_cards})")

    def random_action(self, rng: _random.Random | None = None) -> Action:
        return random_action(self.legal, rng)

    def first_action(self) -> Action:
        """What the server applies if I do not answer in time."""
        return first_action(self.legal)

    def check(self, action: Any) -> None:
        check(action, self.legal, self["seat"])

    def is_legal(self, action: Any) -> bool:
        return is_legal(action, self.legal, self["seat"])
