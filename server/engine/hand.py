"""What every game's hand answers: the one interface the rest of the tree plays through.

Each game module has a hand class (a state machine from the deal to the last trick)
deriving from ``Hand``. The API, workers, bots, replays and pages use only what is
declared here, so none of them knows which game it runs, how many seats there are or
whether the sides are partnerships. Two layers, as in the Cinch hand:

* the *wire* layer: ``legal_actions`` and ``apply`` in docs/rules/actions.md#wire-format /
  docs/rules/actions.md#family-actions form; a refused action raises ``IllegalAction`` and changes
  nothing;
* the *fast* layer for search and benchmarks: ``hands`` (card masks per seat),
  ``legal_plays``/``do_play`` during the play, and ``random_step`` for every decision.

A hand also describes itself for audits (``describe``, the replay contract) and says
what each seat may see beyond the common observation (``public``).

Some state exists only in some phases (a seat to act until the hand is over, trump's
tables once trump is named, the hands after the draw once the play starts). The
narrowing helpers (``actor``, ``trump_tables``, ``hands_in_play``) answer it as a plain
value where the phase guarantees it, and raise naming the phase where it does not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any, Self

from server.engine.boards import Board
from server.engine.cards import SUITS, Tables, mask_of, names_of, parse_card
from server.engine.rulesets import Ruleset, game_spec
from server.engine.tricks import Trick

BIDDING, TRUMP, DISCARD, ROB, PLAY, DONE = "bidding", "trump", "discard", "rob", "play", "done"
"""The phases of a hand, every game's (a game uses those it has)."""


class IllegalAction(ValueError):
    """An action the rules refuse; the message names the rule that refuses it."""


class Hand:
    """Shared behaviour of every game's hand. Subclasses set the attributes below."""

    __slots__ = ()

    # set by every subclass (class attributes for fixed tables, slots otherwise)
    rules: Ruleset
    board: Board
    seats: tuple[str, ...]  # seat names, clockwise
    sides: tuple[str, ...]  # side names: partnerships ("NS", "EW") or the seats themselves
    side_of: tuple[int, ...]  # seat index -> side index
    dealer: int
    phase: str  # the decision asked for, or "done"
    to_act: int | None
    trump: int | None
    tables: Tables | None  # the trump's tables, None before trump is named
    contract: tuple[int, int] | None  # (seat, amount)
    declarer: int  # -1 while unknown or where the game has none
    hands: list[int]
    hands_after_draw: tuple[int, ...] | None
    tricks: list[Trick]
    actions: list[dict[str, Any]]
    scores: tuple[int, ...]  # game scores per side before the hand
    in_game: bool  # a hand of a game (target and score rules apply), not a duplicate board

    # ------------------------------------------------------------------ to implement
    def clone(self) -> Self:
        raise NotImplementedError

    def legal_actions(self) -> list[dict[str, Any]] | None:
        raise NotImplementedError

    def apply(self, action: Any) -> None:
        raise NotImplementedError

    def points(self) -> tuple[int, ...]:
        """What each side won in the play so far (complete hands: the final figure)."""
        raise NotImplementedError

    def delta(self) -> tuple[int, ...]:
        """The change to each side's score on a complete hand."""
        raise NotImplementedError

    def legal_plays(self) -> list[int]:
        """The main cards the seat to act may play now (the play only)."""
        raise NotImplementedError

    def do_play(self, card: int, extras: int = 0) -> None:
        """Play ``card`` (and ``extras``, a mask) for the seat to act; trusted, unchecked."""
        raise NotImplementedError

    def random_step(self, rng: Random) -> None:
        """Apply one random legal decision, whatever the phase (rollouts, benchmarks)."""
        raise NotImplementedError

    @classmethod
    def start(cls, rules: Ruleset, board: Board, scores: tuple[int, ...] | None) -> Self:
        """A fresh hand. ``scores`` None: a duplicate board, played in full from zeros
        with no target (docs/rules/common.md#game-and-board); else a hand of a game at these scores, where the
        target and the score-dependent rules apply."""
        raise NotImplementedError

    def settle(self, before: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        """A complete hand of a game applied to the scores ``before``: the scores after it
        and the side that has won the game, if one has (F9: the items one at a time in the
        game's order; the first side to reach the target wins and nothing later counts)."""
        scores = list(before)
        for side, value in self.score_items():
            scores[side] += value
            if scores[side] >= self.rules.target:
                return tuple(scores), side
        return tuple(scores), None

    def score_items(self) -> list[tuple[int, int]]:
        """(side index, change) of every scoring item of the hand, in the game's order;
        they add up to ``delta``. Games whose game end is not item by item override
        ``settle`` instead."""
        side_index = {name: i for i, name in enumerate(self.sides)}
        return [(side_index[item["side"]], item["value"]) for item in self.describe_extra().get("items", ())]

    @classmethod
    def at_play(cls, rules: Ruleset, obs: Mapping[str, Any], hands: list[int]) -> Self:
        """The state at the first lead of a hand that ``obs`` (a seat's observation during
        the play) describes, every seat holding ``hands`` (card masks): the public facts
        (dealer, declarer, contract, trump, scores, anything scored before the play) come
        from ``obs``. ``server.engine.world`` replays the tricks on it."""
        raise NotImplementedError

    def team_of(self, seat: int) -> int:
        """The partnership hook: who ``seat`` plays the tricks with now (seats of one team
        answer the same number). Fixed sides by default; a game whose partnerships are
        decided in the hand (auction_cinch's call) answers from its own state."""
        return self.side_of[seat]

    def check_extras(self, seat: int, card: int, extras: int) -> None:
        """Refuse extras that the rules do not allow with ``card`` (none in most games)."""
        if extras:
            raise IllegalAction(f"{self.seats[seat]} owes no extras here")

    def extras_owed(self, seat: int) -> int:
        """Extras ``seat`` must play with its main card now (american62's first trick)."""
        return 0

    def extras_from(self, card: int) -> int:
        """The cards the player to act may add as extras with ``card``."""
        return 0

    def describe_extra(self) -> dict[str, Any]:
        """The game's own fields of the replay output (items, record, turnups, ...)."""
        return {}

    def public(self, me: int | None) -> dict[str, Any]:
        """The game's own fields of seat ``me``'s observation (None: a spectator)."""
        return {}

    # ------------------------------------------------------------------ phase narrowing
    def actor(self) -> int:
        """The seat to act: there is one in every phase but the end."""
        seat = self.to_act
        if seat is None:
            raise ValueError("the hand is over: no seat is to act")
        return seat

    def trump_tables(self) -> Tables:
        """The trump's tables: there are some once trump is named (every play but pitch's lead)."""
        tables = self.tables
        if tables is None:
            raise ValueError(f"trump is not named yet (phase {self.phase})")
        return tables

    def hands_in_play(self) -> tuple[int, ...]:
        """Each seat's hand after the draw: the cards in play, known once the play starts."""
        hands = self.hands_after_draw
        if hands is None:
            raise ValueError(f"the play has not started (phase {self.phase})")
        return hands

    # ------------------------------------------------------------------ shared
    def seat_to_act(self) -> str | None:
        return None if self.to_act is None else self.seats[self.to_act]

    def trick_dicts(self) -> list[dict[str, Any]]:
        """Finished tricks and the one in progress; a trick nobody has led to is not shown."""
        return [t.to_dict(self.seats) for t in self.tricks if t.plays]

    def contract_dict(self) -> dict[str, Any] | None:
        return None if self.contract is None else {"seat": self.seats[self.contract[0]], "amount": self.contract[1]}

    def side_dict(self, values: Sequence[int]) -> dict[str, int]:
        return dict(zip(self.sides, values))

    def seat_dict(self, masks: Iterable[int]) -> dict[str, list[str]]:
        return {seat: names_of(mask) for seat, mask in zip(self.seats, masks)}

    def trump_name(self) -> str | None:
        return None if self.trump is None else SUITS[self.trump]

    def describe(self) -> dict[str, Any]:
        """The replay result: the full, audit view (every hand after the draw)."""
        done = self.phase == "done"
        after = self.hands_after_draw
        out = {
            "complete": done,
            "phase": self.phase,
            "seats": list(self.seats),
            "dealer": self.seats[self.dealer],
            "to_act": self.seat_to_act(),
            "legal": self.legal_actions(),
            "contract": self.contract_dict(),
            "declarer": self.seats[self.declarer] if self.declarer >= 0 else None,
            "trump": self.trump_name(),
            "hands_after_draw": None if after is None else self.seat_dict(after),
            "tricks": self.trick_dicts(),
            "points": self.side_dict(self.points()) if done else None,
            "delta": self.side_dict(self.delta()) if done else None,
        }
        out.update(self.describe_extra())
        return out

    # ------------------------------------------------------------------ wire helpers
    def check_envelope(self, action: Any, fields: dict[str, tuple[str, ...]], expected: dict[str, str]) -> str:
        """Refuse what no game accepts (not an object, unknown type or field, wrong seat,
        wrong decision) and return the action's type. ``fields`` maps each type to its
        fields; ``expected`` maps each phase to the words for what it asks."""
        if self.phase == "done":
            raise IllegalAction("the hand is over: no action is expected")
        if not isinstance(action, dict):
            raise IllegalAction("an action must be a JSON object with a 'type'")
        kind = action.get("type")
        seat = self.seats[self.actor()]
        if not isinstance(kind, str) or kind not in fields:
            raise IllegalAction(f"unknown action type {kind!r} (known: {', '.join(fields)})")
        if "seat" in action and action["seat"] != seat:
            raise IllegalAction(f"out of turn: the seat to act is {seat}, not {action['seat']!r}")
        if not any(a.get("type") == kind for a in self.legal_actions() or ()):
            raise IllegalAction(f"a {kind!r} action is not allowed now: expected {expected[self.phase]} from {seat}")
        unknown = sorted(set(action) - {"type", "seat", *fields[kind]})
        if unknown:
            raise IllegalAction(f"a {kind!r} action has no field {unknown[0]!r}")
        return kind

    def record_action(self, action: dict[str, Any], seat: int) -> None:
        """Keep a copy of an applied action, seat included: the record must not change if
        the caller's lists do."""
        entry = {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
        entry["seat"] = self.seats[seat]
        self.actions.append(entry)


def card_set(cards: Any, field: str) -> int:
    """A list of distinct card strings as a mask, or ``IllegalAction`` naming the problem."""
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


def one_card(value: Any) -> int:
    """A single card string as an index, or ``IllegalAction``."""
    try:
        return parse_card(value)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None


def bid_entries(amounts: Iterable[int]) -> list[dict[str, Any]]:
    """The auction's legal entries in docs/rules/actions.md#wire-format form, 0 standing for pass."""
    return [{"type": "bid", "amount": a} if a else {"type": "pass"} for a in amounts]


def trump_entries() -> list[dict[str, Any]]:
    """Naming trump: an entry a suit (a fresh list: callers may keep it)."""
    return [{"type": "trump", "suit": s} for s in SUITS]


def bid_amount(rules: Ruleset, amount: Any, high_bid: int) -> int:
    """The amount of a bid, or ``IllegalAction`` naming the rule it breaks: a whole number
    in the ruleset's range and above the highest bid so far (every auction of the family)."""
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise IllegalAction(f"bid amount must be a whole number, not {amount!r}")
    if not rules.min_bid <= amount <= rules.max_bid:
        raise IllegalAction(f"bid {amount} is out of range {rules.min_bid}..{rules.max_bid}")
    if amount <= high_bid:
        raise IllegalAction(f"bid {amount} is not above the highest bid {high_bid}")
    return amount


def new_hand(rules: Ruleset, board: Board, scores: tuple[int, ...] | None = None) -> Hand:
    """A fresh hand of ``rules`` on ``board``: a duplicate board when ``scores`` is None,
    else a hand of a game at these scores (see ``Hand.start``)."""
    return game_spec(rules).hand.start(rules, board, scores)
