"""The game's shapes, typed for the OpenAPI document: cards, actions, legal entries,
observations and played hands, exactly as the engine writes them (docs/rules/actions.md#wire-format).

One schema per shape, so a client generated from the document can read every field a
bot needs and answer with nothing but its types. Actions and legal entries are each a
``oneOf`` by ``type``, observations a ``oneOf`` by ``ruleset`` (their options differ),
through marshmallow-oneofschema, which also loads an answer by its type: a bid without
an amount is refused by the schema, before the engine is asked.
"""

from __future__ import annotations

import json
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow_oneofschema import OneOfSchema

from server.engine import GAMES
from server.engine.cards import ALL_NAMES, SEATS, SUITS, seats_for
from server.engine.games.all_fours import ACCEPT, BEG, BUNCH, GIVE
from server.engine.games.auction_cinch import CALL, MAKERS, OPPONENTS
from server.engine.games.auction_pitch import SALE
from server.engine.games.widow_cinch import WIDOW
from server.engine.hand import BIDDING, DISCARD, DONE, PLAY, ROB, TRUMP
from server.engine.rulesets import GameSpec, Option

RULESETS = list(GAMES)
PHASES = [BIDDING, SALE, WIDOW, TRUMP, BEG, GIVE, BUNCH, ACCEPT, DISCARD, ROB, CALL, PLAY, DONE]
SINGLE_SEATS = list(seats_for(7))  # P1 ... P7: every seat of a table that is not N E S W
SEAT_NAMES = [*SEATS, *SINGLE_SEATS]
SIDES = ["NS", "EW", *SEATS, *SINGLE_SEATS]  # N E S W: the auction games at four, each for himself
SIDES += [name for spec in GAMES.values() for names, _ in spec.fixed_sides.values() for name in names]
MAX_BID = 63  # sixty_three's top bid; each ruleset's range is in legal

ENUMS: dict[str, tuple[list[str], str]] = {
    "Card": (
        list(ALL_NAMES),
        "rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), e.g. 'TH'; or 'JK', "
        "the joker, in snoozer's 53-card pack only",
    ),
    "Seat": (SEAT_NAMES, "a seat at the table: N E S W at four, else P1 ... Pk clockwise"),
    "Suit": (list(SUITS), "clubs, diamonds, hearts, spades"),
    "Side": (
        SIDES,
        "who scores: a partnership (North-South, East-West; P1P4, P2P5, P3P6 in widow_cinch) "
        "or, where each plays for himself, a seat",
    ),
    "Phase": (PHASES, "the part of the hand that is being played"),
    "Ruleset": (RULESETS, "the game's rules (docs/rules/)"),
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


def Cards(max_length: int = len(ALL_NAMES), **kw: Any) -> fields.List:
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


BySides = ma.Schema.from_dict({side: fields.Integer() for side in SIDES}, name="BySides")
"""A number per side: exactly the ruleset's sides are present (NS and EW for
partnerships, else one per seat)."""

BySeats = ma.Schema.from_dict({seat: fields.Integer() for seat in SEAT_NAMES}, name="BySeats")
"""A number per seat: exactly the table's seats are present."""


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
    amount = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(1, MAX_BID),
        metadata={"description": "above the highest bid so far, within the ruleset's range (see legal)"},
    )


class TrumpAction(PassAction):
    type = Kind("trump")
    suit = Suit(required=True)


class DiscardAction(PassAction):
    type = Kind("discard")
    cards = Cards(
        required=True,
        metadata={
            "description": (
                "the cards to discard, from the discard entry's 'from', at least its 'min' and at most its 'max', "
                "every card of its 'must_include' among them"
            )
        },
    )


class RobAction(PassAction):
    type = Kind("rob")
    keep = Cards(
        20,
        required=True,
        metadata={
            "description": (
                "the dealer's whole hand afterwards: 'size' cards of the rob entry's 'from', every card of its "
                "'must_keep' among them"
            )
        },
    )


class PlayAction(PassAction):
    type = Kind("play")
    card = Card(required=True)
    extras = Cards(
        13,
        metadata={
            "description": (
                "first trick only, when the play entry has 'extras_count': that many cards of its 'extras_from' "
                "played face down with the card"
            )
        },
    )


class StrictBoolean(fields.Boolean):
    """true or false only: not 1, 0 or the strings marshmallow reads as booleans."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class WidowAction(PassAction):
    """The declarer takes the widow into his hand (seen by him alone) or leaves it out of
    play (widow_cinch, docs/rules/widow_cinch.md#widow)."""

    type = Kind("widow")
    take = StrictBoolean(required=True, metadata={"description": "true: take the widow; false: leave it"})


class CallAction(PassAction):
    """auction_cinch's declarer calls a card (docs/rules/auction_cinch.md#call): its holder, if another
    player, is his partner; else he plays alone. Each legal entry is a complete call."""

    type = Kind("call")
    card = Card(required=True, metadata={"description": "one of the 52 cards: never JK"})

    @ma.validates("card")
    def _not_the_joker(self, value: str, **_: Any) -> None:
        # one shared Card enum (JK included, for snoozer) keeps one Card type in clients
        if value == "JK":
            raise ma.ValidationError("a call names one of the 52 cards, not JK")


def _bare(kind: str, doc: str) -> PassAction:
    """An action that is its type alone (docs/rules/actions.md#family-actions)."""
    return type(f"{kind.capitalize()}Action", (PassAction,), {"type": Kind(kind), "__doc__": doc})()


BARE_ACTIONS = {
    kind: _bare(kind, doc)
    for kind, doc in (
        ("stand", "the eldest keeps the turn-up's suit as trump"),
        ("beg", "the eldest begs"),
        ("give", "the dealer gives the eldest's side a point"),
        ("run", "the dealer runs the cards"),
        ("bunch", "propose a new deal (two_player_bunch)"),
        ("accept", "agree to the proposed bunch"),
        ("refuse", "refuse the proposed bunch"),
        ("sell", "the eldest sells to the highest bidder"),
        ("pitch", "the eldest pitches himself"),
    )
}


class ActionSchema(ByType):
    """An answer: one object, its fields set by its ``type`` (docs/rules/actions.md#wire-format,
    docs/rules/actions.md#family-actions)."""

    type_schemas = {
        "pass": PassAction(),
        "bid": BidAction(),
        "trump": TrumpAction(),
        "discard": DiscardAction(),
        "rob": RobAction(),
        "play": PlayAction(),
        "widow": WidowAction(),
        "call": CallAction(),
        **BARE_ACTIONS,
    }


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
    from_ = Cards(required=True, data_key="from", metadata={"description": "the cards that may be discarded"})
    min = fields.Integer(required=True, metadata={"description": "discard at least this many"})
    max = fields.Integer(metadata={"description": "at most this many (default: all of 'from')"})
    must_include = Cards(metadata={"description": "cards that must be among the discards"})


class RobChoice(ma.Schema):
    """The dealer's draw: answer with a rob action keeping ``size`` cards."""

    type = Kind("rob")
    from_ = Cards(
        52,
        required=True,
        data_key="from",
        metadata={"description": "the dealer's hand and the stock's cards he may take"},
    )
    must_keep = Cards(52, required=True, metadata={"description": "cards the dealer must keep"})
    size = fields.Integer(required=True, metadata={"description": "cards to keep"})


class LegalSchema(ByType):
    """One entry of ``legal``: a complete action (pass, bid, trump, play) to send back as
    it is, or a choice (discard, rob, play with extras) that says what to send."""

    type_schemas = {
        "pass": PassAction(),
        "bid": BidAction(),
        "trump": TrumpAction(),
        "play": PlayChoice(),
        "discard": DiscardChoice(),
        "rob": RobChoice(),
        "widow": WidowAction(),
        "call": CallAction(),
        **BARE_ACTIONS,
    }


# ---------------------------------------------------------------- observations


class Contract(ma.Schema):
    seat = Seat(required=True)
    amount = fields.Integer(required=True)


class BidRecord(ma.Schema):
    seat = Seat(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["pass", "bid"]))
    amount = fields.Integer(metadata={"description": "bids only"})


class DrawCounts(ma.Schema):
    """What every seat's draw shows the table: how many cards went and came."""

    seat = Seat(required=True)
    discarded = fields.Integer(required=True, metadata={"description": "how many cards the seat discarded"})
    received = fields.Integer(required=True, metadata={"description": "how many it drew"})


class Draw(DrawCounts):
    shown = Cards(required=True, metadata={"description": "discards shown face up (public)"})
    cards = Cards(
        required=True,
        allow_none=True,
        metadata={"description": "the cards it discarded: the seat's own draw only, else null"},
    )
    left_in_stock = Cards(metadata={"description": "the dealer's own rob: what he left in the stock"})


class Play(ma.Schema):
    seat = Seat(required=True)
    card = Card(required=True)
    extras = Cards(13, required=True, metadata={"description": "played face down with it (first trick)"})


class Trick(ma.Schema):
    leader = Seat(required=True)
    winner = Seat(required=True, allow_none=True, metadata={"description": "null while the trick is open"})
    plays = fields.List(fields.Nested(Play), required=True)


class Item(ma.Schema):
    """One scoring item of the hand so far (the family's replay contract: tests/server/engine/data/family/README.md)."""

    item = fields.String(
        required=True,
        metadata={
            "description": (
                "turned-jack, gift, sale, peg, set-back, high, low, jack, game, ten, three, five, nine, snoozer (All Fours "
                "games), or "
                "the counting card (Cinch games)"
            )
        },
    )
    side = Side(required=True)
    value = fields.Integer(required=True)
    card = Card(metadata={"description": "the card that scored it, where one did"})
    trick = fields.Integer(metadata={"description": "pegs: the trick (1-based) that scored it"})
    discard = fields.Boolean(metadata={"description": "Cinch games: scored from the discards"})


class ObservationBase(ma.Schema):
    """What one seat may know (``server/engine/observation.py``); a spectator's view has
    ``seat``, ``hand`` and ``legal`` null. The fields here are every game's; each game
    adds its own (below)."""

    ruleset = Ruleset(required=True)
    seat = Seat(required=True, allow_none=True)
    seats = fields.List(Seat(), required=True, metadata={"description": "the table's seats, clockwise"})
    dealer = Seat(required=True)
    phase = _enum("Phase", required=True)
    to_act = Seat(required=True, allow_none=True, metadata={"description": "null once the hand is done"})
    hand = Cards(required=True, allow_none=True, metadata={"description": "the seat's cards"})
    hand_sizes = fields.Nested(BySeats, required=True)
    contract = fields.Nested(Contract, required=True, allow_none=True)
    declarer = Seat(required=True, allow_none=True)
    trump = Suit(required=True, allow_none=True)
    tricks = fields.List(fields.Nested(Trick), required=True)
    points = fields.Nested(
        BySides, required=True, allow_none=True, metadata={"description": "points taken in the hand, once it is done"}
    )
    scores = fields.Nested(BySides, required=True, metadata={"description": "game scores before the hand"})
    legal = fields.List(
        fields.Nested(LegalSchema),
        required=True,
        allow_none=True,
        metadata={"description": "for the seat to act: every legal action or choice; null otherwise"},
    )


class CinchObservation(ObservationBase):
    """The Cinch games' own fields: the auction and the draw."""

    bids = fields.List(fields.Nested(BidRecord), required=True)
    draws = fields.List(fields.Nested(Draw), required=True)
    restocks = fields.Integer(required=True, metadata={"description": "times the stock was rebuilt"})
    bidder_goes_out = fields.Boolean(required=True)


class WidowCinchObservation(ObservationBase):
    """widow_cinch: the auction, whether the declarer took the widow (never its cards) and
    the face-up discards (each ``draws`` entry shows its cards to everyone)."""

    bids = fields.List(fields.Nested(BidRecord), required=True)
    widow_taken = fields.Boolean(
        required=True, allow_none=True, metadata={"description": "null until the declarer decides"}
    )
    draws = fields.List(fields.Nested(Draw), required=True)


class AllFoursObservation(ObservationBase):
    """The All Fours games' own field: what has been scored so far."""

    items = fields.List(fields.Nested(Item), required=True)


class TurnUpObservation(AllFoursObservation):
    """seven_up and all_fives: the turn-ups, begging's refused suit, bunches, discards."""

    turnups = Cards(required=True, metadata={"description": "this deal's turn-ups, face up and out of play"})
    refused = Suit(required=True, allow_none=True, metadata={"description": "the suit the dealer ran from"})
    bunches = fields.Integer(required=True, metadata={"description": "new deals on this board so far"})
    discard_counts = fields.Nested(BySeats, required=True, metadata={"description": "cards each seat discarded"})
    my_discards = Cards(required=True, allow_none=True, metadata={"description": "the seat's own discards"})


class AuctionPitchObservation(AllFoursObservation):
    """auction_pitch, pedro and snoozer: the auction, bid by bid, as well."""

    bids = fields.List(fields.Nested(BidRecord), required=True)


class AuctionCinchItem(Item):
    """auction_cinch: a counting card scored for the hand's makers or opponents."""

    side = fields.String(required=True, validate=validate.OneOf([MAKERS, OPPONENTS]))


class AuctionCinchDraw(DrawCounts):
    """One seat's draw in auction_cinch: its discards are face up, what it drew its own."""

    shown = Cards(required=True, metadata={"description": "its discards, face up (public)"})
    drawn = Cards(
        required=True,
        allow_none=True,
        metadata={"description": "the cards it drew: the seat's own draw only, else null"},
    )


class AuctionCinchObservation(ObservationBase):
    """auction_cinch (Razzle-dazzle): the auction, the draw, the call and its makers."""

    items = fields.List(fields.Nested(AuctionCinchItem), required=True)
    bids = fields.List(fields.Nested(BidRecord), required=True)
    draws = fields.List(fields.Nested(AuctionCinchDraw), required=True)
    restocks = fields.Integer(required=True, metadata={"description": "times the stock was rebuilt"})
    restocked = Cards(
        required=True, metadata={"description": "discards put back into a rebuilt stock: in play again, wherever drawn"}
    )
    stock_size = fields.Integer(required=True, metadata={"description": "cards left in the stock"})
    called = Card(required=True, allow_none=True, metadata={"description": "the declarer's called card"})
    partner = Seat(
        required=True,
        allow_none=True,
        metadata={"description": "the called card's holder, the declarer's partner; null before the call or alone"},
    )
    makers = fields.List(
        Seat(),
        required=True,
        allow_none=True,
        metadata={"description": "the declarer and his partner, from the call on; null before it"},
    )


def option_field(option: Option, default: Any) -> fields.Field:
    """An option's field, from its declaration in the engine (``server.engine.rulesets.Option``)."""
    meta = {"description": f"{option.why}; default {json.dumps(default)}"}
    if option.kind is bool:
        return fields.Boolean(metadata=meta)
    if option.choices:
        field = fields.Integer if option.kind is int else fields.String
        return field(validate=validate.OneOf(list(option.choices)), metadata=meta)
    return fields.Integer(validate=validate.Range(min=option.low, max=option.high), metadata=meta)


def option_schema(spec: GameSpec) -> type[ma.Schema]:
    """A ruleset's options schema, generated from its game's declaration: ``players`` where the
    game seats more than one table size, and each declared option."""
    declared: dict[str, fields.Field] = {}
    if len(spec.players) > 1:
        declared["players"] = fields.Integer(
            validate=validate.OneOf(spec.players),
            metadata={"description": f"players at the table; default {spec.default.players}"},
        )
    for key, option in spec.options.items():
        declared[key] = option_field(option, getattr(spec.default, key))
    doc = f"{spec.name}'s options that differ from the defaults." if declared else f"{spec.name} takes no options."
    name = "".join(part.capitalize() for part in spec.name.split("_")) + "Options"
    return type(name, (ma.Schema,), {"__doc__": doc, **declared})


OBSERVED: dict[str, type[ObservationBase]] = {
    "american62": CinchObservation,
    "foster51": CinchObservation,
    "seven_up": TurnUpObservation,
    "pitch": AllFoursObservation,
    "all_fives": TurnUpObservation,
    "blind_cinch": CinchObservation,
    "sixty_three": CinchObservation,
    "auction_pitch": AuctionPitchObservation,
    "pedro": AuctionPitchObservation,
    "snoozer": AuctionPitchObservation,
    "widow_cinch": WidowCinchObservation,
    "auction_cinch": AuctionCinchObservation,
}
"""Each ruleset's observation shape (its options schema comes from the engine's declaration)."""
OPTIONS: dict[str, tuple[type[ma.Schema], type[ObservationBase]]] = {
    name: (option_schema(GAMES[name]), observed) for name, observed in OBSERVED.items()
}


def _observation(ruleset: str) -> ObservationBase:
    options, base = OPTIONS[ruleset]
    name = "".join(part.capitalize() for part in ruleset.split("_")) + "Observation"
    return type(
        name,
        (base,),
        {
            "ruleset": fields.String(required=True, validate=validate.OneOf([ruleset])),
            "options": fields.Nested(options, required=True),
        },
    )()


class ObservationSchema(ByType):
    type_field = "ruleset"
    type_schemas = {ruleset: _observation(ruleset) for ruleset in OPTIONS}


assert set(ObservationSchema.type_schemas) == set(RULESETS)  # a new ruleset joins this schema


# ---------------------------------------------------------------- played hands


class BoardSchema(ma.Schema):
    dealer = Seat(required=True)
    deck = Cards(
        required=True,
        metadata={
            "description": (
                "the shuffled deck, dealt as docs/rules/common.md#boards says: 52 cards, or 53 with 'JK' for snoozer"
            )
        },
    )
    seed = fields.String(required=True, metadata={"description": "what the deck was generated from"})


class RecordedAction(ma.Schema):
    """An action as the hand recorded it: the answer's fields, and always its seat."""

    type = fields.String(required=True, validate=validate.OneOf(list(ActionSchema.type_schemas)))
    seat = Seat(required=True)
    amount = fields.Integer()
    suit = Suit()
    cards = Cards()  # as DiscardAction's: after the cards are run twice in All Fours a hand holds 12 or more
    keep = Cards(20)
    card = Card()
    extras = Cards(13)
    take = fields.Boolean()


class Fault(ma.Schema):
    seat = Seat(required=True)
    index = fields.Integer(required=True, metadata={"description": "the action it replaced"})
    error = fields.String(required=True, metadata={"description": "why the seat's answer was replaced"})


class HandResult(ma.Schema):
    """What a played hand came to."""

    contract = fields.Nested(
        Contract, required=True, allow_none=True, metadata={"description": "null when every seat passed (foster51)"}
    )
    trump = Suit(required=True, allow_none=True)
    tricks = fields.Nested(BySides, required=True, metadata={"description": "tricks won"})
    points = fields.Nested(BySides, required=True)
    delta = fields.Nested(
        BySides,
        required=True,
        metadata={"description": ("the hand's change to the score: the scores after the hand are scores + delta")},
    )


class HandRecord(ma.Schema):
    """The one record of a played hand, the same for a duplicate room and a table hand,
    and itself a ``cinch replay`` input (the replay reads ruleset, options, board, scores
    and actions, and ignores the rest)."""

    ruleset = Ruleset(required=True)
    options = fields.Dict(required=True, metadata={"description": "as the observation's options"})
    board = fields.Nested(BoardSchema, required=True)
    scores = fields.Nested(
        BySides,
        required=True,
        allow_none=True,
        metadata={
            "description": (
                "the game scores before the hand; null in a duplicate room, which is played in full from zeros "
                "with no target"
            )
        },
    )
    actions = fields.List(fields.Nested(RecordedAction), required=True)
    faults = fields.List(
        fields.Nested(Fault),
        required=True,
        metadata={
            "description": ("the actions that replaced a seat's answer (a timeout, an error or an illegal action)")
        },
    )
    result = fields.Nested(HandResult, required=True)


class Room(HandRecord):
    """One room of a board: the hand's record, and N/S's luck next to it."""

    luck = fields.Float(
        allow_none=True,
        metadata={
            "description": (
                "N/S's luck on the draw in this room: the fixed evaluator's value of the position the stock made "
                "minus its mean over other stocks (absent on boards stored before it was measured)"
            )
        },
    )
    units = fields.List(
        fields.String(),
        metadata={
            "description": (
                "a match of k > 2 entrants: the unit (seat) each entrant held in this room, in entrant order"
            )
        },
    )
