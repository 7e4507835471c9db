"""Request and response bodies. Observations and actions keep the engine's JSON shape."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from server.engine.cards import CARD_NAMES, SEATS, SUITS
from server.tournaments import DEFAULTS, FORMATS, LIMITS, STATUSES

Card = lambda **kw: fields.String(validate=validate.OneOf(CARD_NAMES), **kw)  # noqa: E731


class BotRegisterSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Regexp(r"^[a-z][a-z0-9_-]{1,31}$", error=(
        "must be 2-32 characters: lowercase letters, digits, - and _, starting with a letter")))
    description = fields.String(load_default="", validate=validate.Length(max=200))
    invite = fields.String(load_only=True, validate=validate.Length(max=200), metadata={
        "description": "the invitation code, when the arena's registration is by invitation"})


class BotTokenSchema(ma.Schema):
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "shown once; send as 'Authorization: Bearer'"})


def StrictBool(**kw) -> fields.Boolean:
    """true or false, not "yes" or 1: a flag that opens formats must be meant."""
    return fields.Boolean(truthy={True}, falsy={False}, **kw)


class TrustSchema(ma.Schema):
    trusted = StrictBool(required=True)


class RatingSchema(ma.Schema):
    mu = fields.Float()
    sigma = fields.Float()
    rating = fields.Float(metadata={"description": "mu - 3 sigma"})
    matches = fields.Integer(metadata={"description": "matches that brought new board pairs"})
    boards = fields.Integer(metadata={"description": "board pairs counted (each at most once)"})


class BotSchema(ma.Schema):
    name = fields.String()
    kind = fields.String(validate=validate.OneOf(["builtin", "remote"]))
    status = fields.String(validate=validate.OneOf(["active", "disabled"]))
    description = fields.String()
    trusted = fields.Boolean(metadata={"description": (
        "may play two-room matches (built-in bots always; remote bots when the admin says so)")})
    created = fields.Float()
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(RatingSchema),
                          metadata={"description": "per ruleset"})


class ActionSchema(ma.Schema):
    """RULES.md section 6: one object per decision."""

    type = fields.String(required=True, validate=validate.OneOf(["pass", "bid", "trump", "discard", "rob", "play"]))
    seat = fields.String(validate=validate.OneOf(SEATS))
    amount = fields.Integer(strict=True)
    suit = fields.String(validate=validate.OneOf(list(SUITS)))
    cards = fields.List(Card(), validate=validate.Length(max=13))
    keep = fields.List(Card(), validate=validate.Length(max=20))
    card = Card()
    extras = fields.List(Card(), validate=validate.Length(max=13))


class DecisionSchema(ma.Schema):
    id = fields.String(metadata={"description": "opaque; answer with POST /decisions/{id}"})
    observation = fields.Dict(metadata={"description": "the engine's view for the seat, same shape everywhere"})
    legal = fields.List(fields.Dict())
    deadline = fields.Float(metadata={"description": "Unix time by which the answer must arrive"})
    deadline_in_ms = fields.Integer()


class WaitSchema(ma.Schema):
    wait = fields.Float(load_default=20.0, validate=validate.Range(min=0, max=25),
                        metadata={"description": "seconds to long-poll when nothing is pending"})


DECISION_ID = "[0-9a-f]{32}"
"""A decision id: 32 lowercase hex digits (``Store``), so 64 of them in ``skip`` stay well
inside the server's request-line limit, and ``/decisions/next`` is never taken for one."""


class AnswerArgsSchema(ma.Schema):
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=25),
                        metadata={"description": "seconds to wait for a next decision when none is open"})
    skip = fields.List(fields.String(validate=validate.Regexp(f"^{DECISION_ID}$", error="not a decision id")),
                       load_default=list,
                       validate=validate.Length(max=64),
                       metadata={"description": "ids of decisions not to return (already in hand)"})


class AcceptedSchema(ma.Schema):
    accepted = fields.Boolean()
    next = fields.List(fields.Nested(DecisionSchema),
                       metadata={"description": "the bot's other open decisions, soonest deadline first"})


class LimitsSchema(ma.Schema):
    decision_ms = fields.Integer(strict=True, validate=validate.Range(*LIMITS["decision_ms"]))
    bank_ms = fields.Integer(strict=True, validate=validate.Range(*LIMITS["bank_ms"]))
    max_timeouts = fields.Integer(strict=True, validate=validate.Range(*LIMITS["max_timeouts"]))


class TournamentCreateSchema(ma.Schema):
    format = fields.String(validate=validate.OneOf(FORMATS), metadata={"description": (
        "round_robin, gauntlet (two-room matches: trusted bots only) or blind (the blind movement); "
        "default: round_robin when every bot is trusted, blind otherwise")})
    bots = fields.List(fields.String(), validate=validate.Length(max=64))
    candidates = fields.List(fields.String(), validate=validate.Length(max=64))
    references = fields.List(fields.String(), validate=validate.Length(max=64))
    ruleset = fields.String(load_default=DEFAULTS["ruleset"])
    options = fields.Dict(load_default=dict)
    deals = fields.String(validate=validate.Length(max=64), metadata={"description": (
        "a deal set's name, or 'secret' for a fresh secret set; default: standard when every bot is built in, "
        "secret otherwise (a named set with remote bots needs practice)")})
    practice = StrictBool(load_default=False, metadata={"description": (
        "allow a named (public) deal set with remote bots: results of a practice run prove little")})
    first = fields.Integer(strict=True, load_default=DEFAULTS["first"], validate=validate.Range(min=1))
    boards = fields.Integer(strict=True, load_default=DEFAULTS["boards"], validate=validate.Range(min=1))
    chunk = fields.Integer(strict=True, load_default=DEFAULTS["chunk"], validate=validate.Range(min=1, max=1000))
    seed = fields.Integer(strict=True, load_default=DEFAULTS["seed"], validate=validate.Range(min=0))
    limits = fields.Nested(LimitsSchema, load_default=dict)


class WaitingSchema(ma.Schema):
    bot = fields.String()
    connected = fields.Boolean(metadata={"description": "talked to the API in the last 30 s"})
    seen_seconds_ago = fields.Float(allow_none=True, metadata={"description": "null: never seen"})
    open_decisions = fields.Integer()
    timeouts = fields.Integer(metadata={"description": "timeouts in this tournament so far"})


class CommitmentSchema(ma.Schema):
    name = fields.String(metadata={"description": "the secret set's name: 'secret-' + sha256(seed)[:16]"})
    boards = fields.Integer(metadata={"description": "boards in the set"})
    seed_sha256 = fields.String(metadata={"description": "sha256 of the seed (UTF-8), hex"})
    deals_sha256 = fields.String(metadata={"description": "sha256 of the set's JSON Lines file, hex"})


class TournamentSchema(ma.Schema):
    id = fields.String()
    format = fields.String()
    ruleset = fields.String()
    options = fields.Dict()
    deals = fields.String()
    first = fields.Integer()
    boards = fields.Integer()
    bots = fields.List(fields.String())
    candidates = fields.List(fields.String())
    references = fields.List(fields.String())
    limits = fields.Dict()
    practice = fields.Boolean(metadata={"description": "a practice run: a named deal set with remote bots"})
    status = fields.String(validate=validate.OneOf(STATUSES), metadata={"description": (
        "queued (no board started), running, interrupted (its driver stopped or died; resume continues it), "
        "cancelled, finished, failed (jobs kept failing: see error)")})
    driver = fields.String(allow_none=True, metadata={"description": "who plays it: the service, or a CLI command"})
    error = fields.String(allow_none=True, metadata={"description": "why it failed"})
    waiting = fields.List(fields.Nested(WaitingSchema), metadata={
        "description": "remote entrants of a live tournament: connected or not, open decisions, timeouts "
                       "(on GET /tournaments/{id})"})
    pairs_done = fields.Integer()
    pairs_total = fields.Integer()
    created = fields.Float()
    finished = fields.Float(allow_none=True)
    commitment = fields.Nested(CommitmentSchema, allow_none=True, metadata={"description": (
        "for a tournament dealt from a secret deal set, published before play: the set's name and size, "
        "the sha256 of its seed and the sha256 of its file; null for a public set")})
    seed = fields.Integer(metadata={"description": "the built-in bots' seed"})
    deals_seed = fields.String(allow_none=True, metadata={"description": (
        "the secret deal set's seed, revealed once the tournament is finished (null before): anyone can "
        "rebuild every deal from it and check it against the commitment (cinch deals verify --seed)")})


class CreatedSchema(ma.Schema):
    id = fields.String()


class TournamentCreatedSchema(ma.Schema):
    id = fields.String()
    commitment = fields.Nested(CommitmentSchema, allow_none=True, metadata={
        "description": "the secret deal set's commitment (null for a named set)"})


class MatchSchema(ma.Schema):
    id = fields.String()
    x = fields.String()
    y = fields.String()
    status = fields.String()
    stats = fields.Dict()
    timeouts = fields.Dict(keys=fields.String(), values=fields.Integer())
    faulty = fields.List(fields.String())


class ResultsSchema(ma.Schema):
    tournament = fields.String()
    format = fields.String()
    ruleset = fields.String()
    standings = fields.List(fields.Dict())
    crosstable = fields.Dict()
    matches = fields.List(fields.Dict())


class BoardPairSchema(ma.Schema):
    board = fields.Integer()
    score = fields.Integer(metadata={"description": "the match's X score on this pair"})
    rooms = fields.List(fields.Dict())
    side = fields.String(validate=validate.OneOf(["NS", "EW"]), metadata={"description": (
        "blind movement only: the side the entrant (X) held in the first room; the second is "
        "the reference pair's par room on the same cards")})


class LeaderboardSchema(ma.Schema):
    ruleset = fields.String()
    bots = fields.List(fields.Dict())


class RatingPointSchema(ma.Schema):
    t = fields.Float(metadata={"description": "when the rating changed (Unix time)"})
    mu = fields.Float()
    sigma = fields.Float()
    rating = fields.Float(metadata={"description": "mu - 3 sigma"})
    match = fields.String(metadata={"description": (
        "what moved it: a match id, or a blind movement's comparison of two entrants ('t3:a~b')")})


class RatingHistorySchema(ma.Schema):
    ruleset = fields.String()
    bot = fields.String()
    points = fields.List(fields.Nested(RatingPointSchema), metadata={"description": "oldest first"})


class HealthSchema(ma.Schema):
    status = fields.String()


class TableCreateSchema(ma.Schema):
    ruleset = fields.String(load_default=DEFAULTS["ruleset"])
    options = fields.Dict(load_default=dict)
    seats = fields.Dict(keys=fields.String(validate=validate.OneOf(SEATS)), values=fields.String(),
                        load_default=dict, metadata={"description": "seat -> bot name, for seats filled now"})
    seed = fields.Integer(strict=True, load_default=1, validate=validate.Range(min=0))
    limits = fields.Nested(LimitsSchema, load_default=dict)


class JoinSchema(ma.Schema):
    seat = fields.String(validate=validate.OneOf(SEATS))


class TableSchema(ma.Schema):
    id = fields.String()
    ruleset = fields.String()
    options = fields.Dict()
    seats = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True))
    status = fields.String(validate=validate.OneOf(["open", "running", "finished"]))
    winner = fields.String(allow_none=True)
    limits = fields.Dict()
    hands_played = fields.Integer()
    scores = fields.Dict(keys=fields.String(), values=fields.Integer())
    hands = fields.List(fields.Dict(), metadata={"description": "finished hands, public summary"})
    live = fields.Dict(allow_none=True, metadata={"description": "the hand in progress, public view"})
    commitment = fields.String(metadata={"description": (
        "sha256 (hex) of the table's deal seed, published from the start")})
    deal_seed = fields.String(allow_none=True, metadata={"description": (
        "the table's deal seed, revealed once the game is over (null before): board n of the game is "
        "the canonical generator's board n for this seed, and its sha256 is the commitment")})


class TableRecordSchema(ma.Schema):
    id = fields.String()
    winner = fields.String(allow_none=True)
    hands = fields.List(fields.Dict())
