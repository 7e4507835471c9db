"""The game's shapes, typed for the OpenAPI document: cards, actions, legal entries,
observations and played hands, exactly as the engine writes them (RULES.md section 6).

One schema per shape, so a client generated from the document can read every field a
bot needs and answer with nothing but its types. Actions and legal entries are each a
``oneOf`` by ``type``, observations a ``oneOf`` by ``ruleset`` (their options differ),
through marshmallow-oneofschema, which also loads an answer by its type: a bid without
an amount is refused by the schema, before the engine is asked.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow_oneofschema import OneOfSchema

from server.engine import BASE_RULESETS
from server.engine.cards import CARD_NAMES, SEATS, SUITS
from server.engine.rulesets import OPTION_NAMES, SCORING_DIFFERENCE, SCORING_EIGHT_POINT, SCORING_SET_BACK
from server.engine.state import BIDDING, DISCARD, DONE, PLAY, ROB, TRUMP

RULESETS = list(BASE_RULESETS)
PHASES = [BIDDING, TRUMP, DISCARD, ROB, PLAY, DONE]
SIDES = ["NS", "EW"]

ENUMS: dict[str, tuple[list[str], str]] = {
    "Card": (list(CARD_NAMES), "rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), e.g. 'TH'"),
    "Seat": (list(SEATS), "a seat at the table"),
    "Suit": (list(SUITS), "clubs, diamonds, hearts, spades"),
    "Side": (SIDES, "a partnership: North-South or East-West"),
    "Phase": (PHASES, "the part of the hand that is being played"),
    "Ruleset": (RULESETS, "the game's rules (RULES.md)"),
}
"""The enums every shape shares, each one component of the document (``ENUM_KEY`` in a
field's metadata names it): a generated client gets one ``Card`` type, not one per field,
so a card read from an observation can be sent back in an action as it is."""

ENUM_KEY = "enum_component"


def _enum(component: str, **kw: Any) -> fields.String:
    kw["metadata"] = {ENUM_KEY: component, **kw.get("metadata", {})}
    return fields.String(validate=validate.OneOf(ENUMS[component][0]), **kw)


def Card(**kw: Any) -> fields.String:
    return _enum("Card", **kw)


def Cards(max_length: int = 52, **kw: Any) -> fields.List:
    return fields.List(Card(), validate=validate.Length(max=max_length), **kw)


def Seat(**kw: Any) -> fields.String:
    return _enum("Seat", **kw)


def Suit(**kw: Any) -> fields.String:
    return _enum("Suit", **kw)


def Side(**kw: Any) -> fields.String:
    return _enum("Side", **kw)


def Ruleset(**kw: Any) -> fields.String:
    return _enum("Ruleset", **kw)


def Kind(name: str) -> fields.String:
    """The ``type`` of one action schema: one value only, required."""
    return fields.String(required=True, validate=validate.OneOf([name]))


class BySides(ma.Schema):
    NS = fields.Integer(required=True)
    EW = fields.Integer(required=True)


class BySeats(ma.Schema):
    N = fields.Integer(required=True)
    E = fields.Integer(required=True)
    S = fields.Integer(required=True)
    W = fields.Integer(required=True)


class ByType(OneOfSchema):
    """One schema per value of ``type_field``; the field stays in the object, and an
    unknown value is refused with the values there are. ``type_schemas`` holds instances,
    made once: the answer to every decision is loaded here, and making a schema per load
    would double the cost."""

    type_field_remove = False

    def get_obj_type(self, obj: dict[str, Any]) -> str:
        return obj[self.type_field]

    def _load(self, data: Any, **kwargs: Any) -> Any:
        kind = data.get(self.type_field) if isinstance(data, dict) else None
        if kind is not None and (not isinstance(kind, str) or kind not in self.type_schemas):
            raise ma.ValidationError({self.type_field: [f"Must be one of: {', '.join(self.type_schemas)}."]})
        return super()._load(data, **kwargs)


# ---------------------------------------------------------------- actions (answers)

class PassAction(ma.Schema):
    type = Kind("pass")
    seat = Seat(metadata={"description": "optional; if present, the seat to act"})


class BidAction(PassAction):
    type = Kind("bid")
    amount = fields.Integer(required=True, strict=True, validate=validate.Range(1, 14), metadata={
        "description": "above the highest bid so far, within the ruleset's range (see legal)"})


class TrumpAction(PassAction):
    type = Kind("trump")
    suit = Suit(required=True)


class DiscardAction(PassAction):
    type = Kind("discard")
    cards = Cards(13, required=True, metadata={"description": (
        "the cards to discard, from the discard entry's 'from', at least its 'min' and at most its 'max', "
        "every card of its 'must_include' among them")})


class RobAction(PassAction):
    type = Kind("rob")
    keep = Cards(20, required=True, metadata={"description": (
        "the dealer's whole hand afterwards: 'size' cards of the rob entry's 'from', every card of its "
        "'must_keep' among them")})


class PlayAction(PassAction):
    type = Kind("play")
    card = Card(required=True)
    extras = Cards(13, metadata={"description": (
        "first trick only, when the play entry has 'extras_count': that many cards of its 'extras_from' "
        "played face down with the card")})


class ActionSchema(ByType):
    """An answer: one object, its fields set by its ``type`` (RULES.md section 6)."""

    type_schemas = {"pass": PassAction(), "bid": BidAction(), "trump": TrumpAction(), "discard": DiscardAction(),
                    "rob": RobAction(), "play": PlayAction()}


# ---------------------------------------------------------------- legal entries

class PlayChoice(ma.Schema):
    """A card that may be played; on the first trick it may owe extras."""

    type = Kind("play")
    card = Card(required=True)
    extras_count = fields.Integer(metadata={"description": "cards to play face down with it (first trick)"})
    extras_from = Cards(13, metadata={"description": "the cards the extras are chosen from"})


class DiscardChoice(ma.Schema):
    """The discard asked for: answer with a discard action whose cards satisfy it."""

    type = Kind("discard")
    from_ = Cards(13, required=True, data_key="from", metadata={"description": "the cards that may be discarded"})
    min = fields.Integer(required=True, metadata={"description": "discard at least this many"})
    max = fields.Integer(metadata={"description": "at most this many (default: all of 'from')"})
    must_include = Cards(13, metadata={"description": "cards that must be among the discards"})


class RobChoice(ma.Schema):
    """The dealer's draw: answer with a rob action keeping ``size`` cards."""

    type = Kind("rob")
    from_ = Cards(52, required=True, data_key="from", metadata={
        "description": "the dealer's hand and the stock's cards he may take"})
    must_keep = Cards(52, required=True, metadata={"description": "cards the dealer must keep"})
    size = fields.Integer(required=True, metadata={"description": "cards to keep"})


class LegalSchema(ByType):
    """One entry of ``legal``: a complete action (pass, bid, trump, play) to send back as
    it is, or a choice (discard, rob, play with extras) that says what to send."""

    type_schemas = {"pass": PassAction(), "bid": BidAction(), "trump": TrumpAction(), "play": PlayChoice(),
                    "discard": DiscardChoice(), "rob": RobChoice()}


# ---------------------------------------------------------------- observations

class Contract(ma.Schema):
    seat = Seat(required=True)
    amount = fields.Integer(required=True)


class BidRecord(ma.Schema):
    seat = Seat(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["pass", "bid"]))
    amount = fields.Integer(metadata={"description": "bids only"})


class Draw(ma.Schema):
    seat = Seat(required=True)
    discarded = fields.Integer(required=True, metadata={"description": "how many cards the seat discarded"})
    received = fields.Integer(required=True, metadata={"description": "how many it drew"})
    shown = Cards(required=True, metadata={"description": "discards shown face up (public)"})
    cards = Cards(required=True, allow_none=True, metadata={
        "description": "the cards it discarded: the seat's own draw only, else null"})
    left_in_stock = Cards(metadata={"description": "the dealer's own rob: what he left in the stock"})


class Play(ma.Schema):
    seat = Seat(required=True)
    card = Card(required=True)
    extras = Cards(13, required=True, metadata={"description": "played face down with it (first trick)"})


class Trick(ma.Schema):
    leader = Seat(required=True)
    winner = Seat(required=True, allow_none=True, metadata={"description": "null while the trick is open"})
    plays = fields.List(fields.Nested(Play), required=True)


class American62Options(ma.Schema):
    """american62 takes no options: its source's single profile."""


class Foster51Options(ma.Schema):
    """The named variations of foster51 (RULES.md section 4); only those that differ
    from the base ruleset are present."""

    min_bid = fields.Integer(validate=validate.Range(1, 14))
    trump_discard_over_six_only = fields.Boolean()
    low_to_holder = fields.Boolean()
    first_lead_trump = fields.Boolean()
    dealer_draws_blind = fields.Boolean()
    scoring = fields.String(validate=validate.OneOf([SCORING_DIFFERENCE, SCORING_SET_BACK, SCORING_EIGHT_POINT]))


assert set(Foster51Options._declared_fields) == set(OPTION_NAMES)     # a new option joins this schema


class ObservationBase(ma.Schema):
    """What one seat may know (``server/engine/observation.py``); a spectator's view has
    ``seat``, ``hand`` and ``legal`` null."""

    ruleset = Ruleset(required=True)
    seat = Seat(required=True, allow_none=True)
    seats = fields.List(Seat(), required=True, metadata={"description": "the table's seats, clockwise"})
    dealer = Seat(required=True)
    phase = _enum("Phase", required=True)
    to_act = Seat(required=True, allow_none=True, metadata={"description": "null once the hand is done"})
    hand = Cards(14, required=True, allow_none=True, metadata={"description": "the seat's cards"})
    hand_sizes = fields.Nested(BySeats, required=True)
    bids = fields.List(fields.Nested(BidRecord), required=True)
    contract = fields.Nested(Contract, required=True, allow_none=True)
    declarer = Seat(required=True, allow_none=True)
    trump = Suit(required=True, allow_none=True)
    draws = fields.List(fields.Nested(Draw), required=True)
    restocks = fields.Integer(required=True, metadata={"description": "times the stock was rebuilt"})
    tricks = fields.List(fields.Nested(Trick), required=True)
    points = fields.Nested(BySides, required=True, allow_none=True, metadata={
        "description": "points taken in the hand, once it is done"})
    scores = fields.Nested(BySides, required=True, metadata={"description": "game scores before the hand"})
    bidder_goes_out = fields.Boolean(required=True)
    legal = fields.List(fields.Nested(LegalSchema), required=True, allow_none=True, metadata={
        "description": "for the seat to act: every legal action or choice; null otherwise"})


class American62Observation(ObservationBase):
    ruleset = fields.String(required=True, validate=validate.OneOf(["american62"]))
    options = fields.Nested(American62Options, required=True)


class Foster51Observation(ObservationBase):
    ruleset = fields.String(required=True, validate=validate.OneOf(["foster51"]))
    options = fields.Nested(Foster51Options, required=True)


class ObservationSchema(ByType):
    type_field = "ruleset"
    type_schemas = {"american62": American62Observation(), "foster51": Foster51Observation()}


assert set(ObservationSchema.type_schemas) == set(RULESETS)      # a new ruleset joins this schema


# ---------------------------------------------------------------- played hands

class BoardSchema(ma.Schema):
    dealer = Seat(required=True)
    deck = Cards(52, required=True, metadata={"description": "the shuffled deck, dealt as RULES.md section 2 says"})
    seed = fields.String(required=True, metadata={"description": "what the deck was generated from"})


class RecordedAction(ma.Schema):
    """An action as the hand recorded it: the answer's fields, and always its seat."""

    type = fields.String(required=True, validate=validate.OneOf(list(ActionSchema.type_schemas)))
    seat = Seat(required=True)
    amount = fields.Integer()
    suit = Suit()
    cards = Cards(13)
    keep = Cards(20)
    card = Card()
    extras = Cards(13)


class Fault(ma.Schema):
    seat = Seat(required=True)
    index = fields.Integer(required=True, metadata={"description": "the action it replaced"})
    error = fields.String(required=True, metadata={"description": "why the seat's answer was replaced"})


class HandResult(ma.Schema):
    """What a played hand came to."""

    contract = fields.Nested(Contract, required=True, allow_none=True, metadata={
        "description": "null when every seat passed (foster51)"})
    trump = Suit(required=True, allow_none=True)
    tricks = fields.Nested(BySides, required=True, metadata={"description": "tricks won"})
    points = fields.Nested(BySides, required=True)
    delta = fields.Nested(BySides, required=True, metadata={"description": (
        "the hand's change to the score: the scores after the hand are scores + delta")})


class HandRecord(ma.Schema):
    """The one record of a played hand, the same for a duplicate room and a table hand,
    and itself a ``cinch replay`` input (the replay reads ruleset, options, board, scores
    and actions, and ignores the rest)."""

    ruleset = Ruleset(required=True)
    options = fields.Dict(required=True, metadata={"description": "as the observation's options"})
    board = fields.Nested(BoardSchema, required=True)
    scores = fields.Nested(BySides, required=True, metadata={"description": (
        "the game scores before the hand (0-0 in a duplicate room)")})
    actions = fields.List(fields.Nested(RecordedAction), required=True)
    faults = fields.List(fields.Nested(Fault), required=True, metadata={"description": (
        "the actions that replaced a seat's answer (a timeout, an error or an illegal action)")})
    result = fields.Nested(HandResult, required=True)


class Room(HandRecord):
    """One room of a board: the hand's record, and N/S's luck next to it."""

    luck = fields.Float(allow_none=True, metadata={"description": (
        "N/S's luck on the draw in this room: the fixed evaluator's value of the position the stock made "
        "minus its mean over other stocks (absent on boards stored before it was measured)")})
