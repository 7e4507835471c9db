"""Request and response bodies, typed to the last field for the OpenAPI document: a
client generated from it reads every response and sends every request with its types
alone. ``required`` marks what is always present. The game's own shapes (actions, legal
entries, observations, played hands) are in ``game_schemas``."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from server.arena import anytime
from server.arena.duplicate import ROOMS
from server.arena.formats import FORMATS
from server.arena.formats.progressive import BASE_RULESET as PROGRESSIVE_BASE
from server.arena.formats.progressive import MAX_ROUNDS
from server.arena.humans import NAME as HUMAN_NAME
from server.arena.settings import HUMAN_DECISION_MS
from server.arena.tournaments import (
    DEFAULTS,
    LIMITS,
    NAME_LENGTH,
    SPRT_CHUNK,
    SPRT_DELTA_LIMIT,
    SPRT_SETTINGS,
    STATUSES,
    name_problem,
)
from server.web.api.game_schemas import (
    BySides,
    Contract,
    HandRecord,
    LegalSchema,
    ObservationSchema,
    Room,
    Ruleset,
    Seat,
    Side,
    Suit,
    Trick,
)


class BotRegisterSchema(ma.Schema):
    name = fields.String(
        required=True,
        validate=validate.Regexp(
            r"^[a-z][a-z0-9_-]{1,31}$",
            error=("must be 2-32 characters: lowercase letters, digits, - and _, starting with a letter"),
        ),
    )
    description = fields.String(load_default="", validate=validate.Length(max=200))
    invite = fields.String(
        load_only=True,
        validate=validate.Length(max=200),
        metadata={"description": "the invitation code, when the arena's registration is by invitation"},
    )


class BotTokenSchema(ma.Schema):
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "shown once; send as 'Authorization: Bearer'"})


class StrictBool(fields.Boolean):
    """true or false, not "yes", 1 or 0: a flag that opens formats must be meant. (A set
    of allowed values would not do: 0 == False, and 0 is in {False}.)"""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictNumber(fields.Float):
    """A JSON number, not a string of one (nor true or false): as strict as the integer fields."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class TrustSchema(ma.Schema):
    trusted = StrictBool(required=True)


class RatingValueSchema(ma.Schema):
    """A rating as the leaderboard and a history point show it (``server.arena.ratings.shown``)."""

    rating = fields.Float(
        required=True,
        metadata={"description": "estimated points per board against an average field of the bots rated"},
    )
    se = fields.Float(required=True, metadata={"description": "the estimate's standard error"})
    low = fields.Float(required=True, metadata={"description": "lower end of its 95% interval"})
    high = fields.Float(required=True, metadata={"description": "upper end of its 95% interval"})
    provisional = fields.Boolean(
        required=True,
        metadata={"description": "the interval is wider than 2 points per board either side, or under 20 boards"},
    )


class RatingSchema(RatingValueSchema):
    matches = fields.Integer(required=True, metadata={"description": "comparisons that brought new boards"})


class BotSchema(ma.Schema):
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["builtin", "remote"]))
    status = fields.String(required=True, validate=validate.OneOf(["active", "disabled"]))
    description = fields.String(required=True)
    trusted = fields.Boolean(
        required=True,
        metadata={
            "description": ("may play two-room matches (built-in bots always; remote bots when the admin says so)")
        },
    )
    created = fields.Float(required=True)
    ratings = fields.Dict(
        required=True,
        keys=Ruleset(),
        values=fields.Nested(RatingSchema),
        metadata={"description": "per ruleset the bot is rated in"},
    )


class DecisionSchema(ma.Schema):
    id = fields.String(required=True, metadata={"description": "opaque; answer with POST /decisions/{id}"})
    observation = fields.Nested(
        ObservationSchema,
        required=True,
        metadata={"description": "what the seat may know, in the engine's shape (the same everywhere)"},
    )
    legal = fields.List(
        fields.Nested(LegalSchema),
        required=True,
        metadata={"description": "the observation's legal entries again: answer with one of them, or as a choice says"},
    )
    deadline = fields.Float(required=True, metadata={"description": "Unix time by which the answer must arrive"})
    deadline_in_ms = fields.Integer(required=True, metadata={"description": "milliseconds left (0 once passed)"})


class WaitSchema(ma.Schema):
    wait = fields.Float(
        load_default=20.0,
        validate=validate.Range(min=0, max=25),
        metadata={"description": "seconds to long-poll when nothing is pending"},
    )


DECISION_ID = "[0-9a-f]{32}"
"""A decision id: 32 lowercase hex digits (``Store``), so 64 of them in ``skip`` stay well
inside the server's request-line limit, and ``/decisions/next`` is never taken for one."""


class AnswerArgsSchema(ma.Schema):
    wait = fields.Float(
        load_default=0.0,
        validate=validate.Range(min=0, max=25),
        metadata={"description": "seconds to wait for a next decision when none is open"},
    )
    skip = fields.List(
        fields.String(validate=validate.Regexp(f"^{DECISION_ID}$", error="not a decision id")),
        load_default=list,
        validate=validate.Length(max=64),
        metadata={"description": "ids of decisions not to return (already in hand)"},
    )


class AcceptedSchema(ma.Schema):
    accepted = fields.Boolean(required=True)
    next = fields.List(
        fields.Nested(DecisionSchema),
        required=True,
        metadata={"description": "the bot's other open decisions, soonest deadline first"},
    )


class LimitsSchema(ma.Schema):
    """Time limits for remote seats; a limit not given takes the arena's default."""

    decision_ms = fields.Integer(
        strict=True,
        validate=validate.Range(*LIMITS["decision_ms"]),
        metadata={"description": "milliseconds a seat has for each decision"},
    )
    bank_ms = fields.Integer(
        strict=True,
        validate=validate.Range(*LIMITS["bank_ms"]),
        metadata={"description": "a silent grace, per bot and match, spent when a decision runs over"},
    )
    max_timeouts = fields.Integer(
        strict=True,
        validate=validate.Range(*LIMITS["max_timeouts"]),
        metadata={
            "description": "timeouts after which the bot is faulty for the match and every decision is defaulted"
        },
    )


def _delta(name: str, hypothesis: str) -> StrictNumber:
    return StrictNumber(
        load_default=SPRT_SETTINGS[name],
        validate=validate.Range(-SPRT_DELTA_LIMIT, SPRT_DELTA_LIMIT),
        metadata={"description": f"{hypothesis}: X's mean score per board (default {SPRT_SETTINGS[name]:g})"},
    )


def _error_rate(name: str, what: str) -> StrictNumber:
    return StrictNumber(
        load_default=SPRT_SETTINGS[name],
        validate=validate.Range(0, 0.5, min_inclusive=False, max_inclusive=False),
        metadata={"description": f"the chance of {what} (default {SPRT_SETTINGS[name]:g}), between 0 and 0.5"},
    )


class SprtSettingsSchema(ma.Schema):
    """A sequential probability ratio test on every match: X's mean per board is tested,
    H0 delta0 against H1 delta1, and the match stops as soon as the test decides."""

    delta0 = _delta("delta0", "H0")
    delta1 = _delta("delta1", "H1; greater than delta0")
    alpha = _error_rate("alpha", "accepting H1 when H0 holds")
    beta = _error_rate("beta", "accepting H0 when H1 holds")

    @ma.validates_schema
    def deltas_in_order(self, data, **kwargs):
        if data["delta0"] >= data["delta1"]:
            raise ma.ValidationError(f"must be greater than delta0 ({data['delta0']:g})", field_name="delta1")


class SprtResultSchema(ma.Schema):
    """Where a match's sequential test stands, from X's side."""

    decision = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["H1", "H0", "inconclusive"]),
        metadata={
            "description": (
                "H1 (X better by delta1 rather than delta0), H0, inconclusive (every board "
                "played without a decision), or null: undecided, still playing"
            )
        },
    )
    boards = fields.Integer(
        required=True,
        metadata={
            "description": (
                "boards the test used: X's scores in board order up to the deciding board (or the first not played yet)"
            )
        },
    )
    llr = fields.Float(
        required=True,
        metadata={
            "description": (
                "log K1 - log K0: the evidence for H1 over H0, the two bettors' log wealths "
                "(server.arena.sequential; about the normal log-likelihood ratio)"
            )
        },
    )
    lower = fields.Float(required=True, metadata={"description": "H0 once log K0 reaches -lower (log 1/beta)"})
    upper = fields.Float(required=True, metadata={"description": "H1 once log K1 reaches upper (log 1/alpha)"})
    mean = fields.Float(required=True, metadata={"description": "X's mean score per board over those boards"})
    ci_low = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "the mean's 95% interval (Student's t), valid only at a board count fixed in advance; "
            "null under two boards"
        },
    )
    ci_high = fields.Float(required=True, allow_none=True)
    anytime_low = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": (
                "anytime-valid 95% interval for the mean (betting confidence sequence for scores within the "
                "ruleset's bound, twice its swing: +-56 in american62): valid at every board count at once, so at "
                "the test's stop too; null without boards"
            )
        },
    )
    anytime_high = fields.Float(required=True, allow_none=True)


class Points(fields.Float):
    """A score: a whole number, or a fraction where a match of k entrants divides a net by k - 1
    (docs/rules/duplicate.md#net). Served as it is, so whole numbers stay integers."""

    def _serialize(self, value, attr, obj, **kwargs):
        return value


ROOMS_FIELD: dict[str, Any] = dict(
    validate=validate.OneOf(ROOMS),
    metadata={
        "description": (
            "the seating plan of a match of k single seats (k > 2 units, e.g. seven_up with 3 players): rotate, k rooms "
            "with entrant j at seat (j + r) mod k in room r; or permute, all k! seatings (k <= 4). Two-unit matches "
            "play their two rooms either way"
        )
    },
)


def _valid_name(name: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise ma.ValidationError(f"a tournament's name {problem}")


NAME_DESCRIPTION = (
    f"a name for people (1 to {NAME_LENGTH} printable characters with a letter or digit, no line breaks, no space "
    "at either end): shown wherever the tournament is listed or headed, and searched by its words' beginnings"
)


class TournamentCreateSchema(ma.Schema):
    name = fields.String(validate=_valid_name, metadata={"description": NAME_DESCRIPTION})
    format = fields.String(
        validate=validate.OneOf(list(FORMATS)),
        metadata={
            "description": (
                "round_robin, gauntlet (two-room matches: trusted bots only), blind (the blind movement) or progressive "
                "(Progressive Cinch, docs/rules/progressive.md: individual bots at tables of four, rounds of four boards; not rated); "
                "default: round_robin when every bot is trusted, blind otherwise. Every bot named must be a "
                "registered, active bot, and no bot may be named twice"
            )
        },
    )
    bots = fields.List(
        fields.String(),
        validate=validate.Length(max=64),
        metadata={
            "description": (
                "round_robin: at least two; blind: the entrants, at least one; progressive: the entrants, at least four "
                "(house bots rule#1, rule#2 ... fill the last table)"
            )
        },
    )
    candidates = fields.List(
        fields.String(),
        validate=validate.Length(max=64),
        metadata={"description": "gauntlet: the bots that meet every reference"},
    )
    references = fields.List(
        fields.String(),
        validate=validate.Length(max=64),
        metadata={
            "description": (
                "gauntlet: the bots each candidate meets; blind: the built-in bots the entrants are scored against "
                "(default rule), each over its own block of the boards"
            )
        },
    )
    ruleset = Ruleset(
        metadata={
            "description": (
                f"default {DEFAULTS['ruleset']}; progressive: {PROGRESSIVE_BASE} (docs/rules/progressive.md#base: a 4-seat "
                "partnership ruleset)"
            )
        }
    )
    rounds = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MAX_ROUNDS),
        metadata={
            "description": "progressive only: the rounds (default 2T for T tables); round r plays boards 4r-3..4r, "
            "so boards and first are not set"
        },
    )
    options = fields.Dict(
        load_default=dict,
        metadata={
            "description": (
                "the ruleset's named options (american62 takes none; foster51's are the Foster51Options schema)"
            )
        },
    )
    deals = fields.String(
        validate=validate.Length(max=64),
        metadata={
            "description": (
                "a deal set's name, or 'secret' for a fresh secret set; default: standard when every bot is built in, "
                "secret otherwise (a named set with remote bots needs practice)"
            )
        },
    )
    practice = StrictBool(
        load_default=False,
        metadata={
            "description": ("allow a named (public) deal set with remote bots: results of a practice run prove little")
        },
    )
    first = fields.Integer(
        strict=True,
        validate=validate.Range(min=1),
        metadata={
            "description": f"the deal set's first board played (default {DEFAULTS['first']}); first + boards - 1 must be "
            "a board of the set; not with progressive"
        },
    )
    boards = fields.Integer(
        strict=True,
        validate=validate.Range(min=1),
        metadata={
            "description": f"boards played (default {DEFAULTS['boards']}); at most what the deal set holds from first on "
            "(a secret set is made this size), and for the blind movement at least one per reference; "
            "progressive: 4 x rounds, not set"
        },
    )
    chunk = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=1000),
        metadata={"description": f"boards per worker job (default {DEFAULTS['chunk']}, {SPRT_CHUNK} with sprt)"},
    )
    seed = fields.Integer(
        strict=True,
        load_default=DEFAULTS["seed"],
        validate=validate.Range(min=0),
        metadata={"description": "the built-in bots' seed (their random choices), not the deals'"},
    )
    limits = fields.Nested(
        LimitsSchema,
        load_default=dict,
        metadata={"description": "time limits for remote seats; those left out take the arena's defaults"},
    )
    sprt = fields.Nested(
        SprtSettingsSchema,
        metadata={
            "description": (
                "round_robin and gauntlet: test every match sequentially and stop it as soon as the test decides "
                "(boards is then the most a match plays); its settings left out take their defaults; two-unit "
                "rulesets only"
            )
        },
    )
    rooms = fields.String(load_default=DEFAULTS["rooms"], **ROOMS_FIELD)


class WaitingSchema(ma.Schema):
    bot = fields.String(required=True)
    connected = fields.Boolean(required=True, metadata={"description": "talked to the API in the last 30 s"})
    seen_seconds_ago = fields.Float(required=True, allow_none=True, metadata={"description": "null: never seen"})
    open_decisions = fields.Integer(required=True)
    timeouts = fields.Integer(required=True, metadata={"description": "timeouts in this tournament so far"})


class CommitmentSchema(ma.Schema):
    name = fields.String(
        required=True, metadata={"description": "the secret set's name: 'secret-' + sha256(seed)[:16]"}
    )
    boards = fields.Integer(required=True, metadata={"description": "boards in the set"})
    seed_sha256 = fields.String(required=True, metadata={"description": "sha256 of the seed (UTF-8), hex"})
    deals_sha256 = fields.String(required=True, metadata={"description": "sha256 of the set's JSON Lines file, hex"})
    players = fields.Integer(
        metadata={"description": "the seats the set is dealt for, when not 4 (its file's header says the same)"}
    )
    deck = fields.Integer(metadata={"description": "the cards in its pack, when not 52: 53 for snoozer's joker"})


class LeaderSchema(ma.Schema):
    """The top row of a tournament's standings, as a list shows it."""

    bot = fields.String(required=True)
    mean = fields.Float(required=True, metadata={"description": "its mean per board, as its standings row says"})
    ci_low = fields.Float(
        required=True, allow_none=True, metadata={"description": "its 95% interval; null under two boards"}
    )
    ci_high = fields.Float(required=True, allow_none=True)
    boards = fields.Integer(required=True)
    final = fields.Boolean(
        required=True, metadata={"description": "true: the winner (finished); false: the leader so far"}
    )


class TournamentSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(allow_none=True, metadata={"description": "its name, or null (none was given)"})
    leader = fields.Nested(
        LeaderSchema,
        allow_none=True,
        metadata={
            "description": "in a list (GET /tournaments): the winner once finished, the leader over the boards "
            "finished everywhere while it runs; null before any board"
        },
    )
    format = fields.String(required=True, validate=validate.OneOf(list(FORMATS)))
    ruleset = Ruleset(required=True)
    options = fields.Dict(required=True)
    deals = fields.String(required=True, metadata={"description": "the deal set's name"})
    first = fields.Integer(required=True, metadata={"description": "the first board of the set played"})
    boards = fields.Integer(required=True)
    bots = fields.List(fields.String(), metadata={"description": "round_robin and blind"})
    candidates = fields.List(fields.String(), metadata={"description": "gauntlet"})
    references = fields.List(fields.String(), metadata={"description": "gauntlet and blind"})
    limits = fields.Nested(LimitsSchema, required=True, metadata={"description": "the limits asked for"})
    sprt = fields.Nested(
        SprtSettingsSchema,
        allow_none=True,
        metadata={"description": "the sequential test's settings, or null: every match plays all its boards"},
    )
    rooms = fields.String(**ROOMS_FIELD)
    rounds = fields.Integer(allow_none=True, metadata={"description": "progressive: its rounds; null otherwise"})
    practice = fields.Boolean(
        required=True, metadata={"description": "a practice run: a named deal set with remote bots"}
    )
    status = fields.String(
        required=True,
        validate=validate.OneOf(STATUSES),
        metadata={
            "description": (
                "queued (no board started), running, interrupted (its driver stopped or died; resume continues it), "
                "cancelled, finished, failed (jobs kept failing: see error)"
            )
        },
    )
    driver = fields.String(
        required=True, allow_none=True, metadata={"description": "who plays it: the service, or a CLI command"}
    )
    error = fields.String(required=True, allow_none=True, metadata={"description": "why it failed"})
    waiting = fields.List(
        fields.Nested(WaitingSchema),
        metadata={
            "description": "remote entrants of a live tournament: connected or not, open decisions, timeouts "
            "(on GET /tournaments/{id})"
        },
    )
    pairs_done = fields.Integer(required=True)
    pairs_total = fields.Integer(required=True)
    created = fields.Float(required=True)
    finished = fields.Float(allow_none=True, metadata={"description": "when it finished"})
    commitment = fields.Nested(
        CommitmentSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": (
                "for a tournament dealt from a secret deal set, published before play: the set's name and size, "
                "the sha256 of its seed and the sha256 of its file; null for a public set"
            )
        },
    )
    seed = fields.Integer(required=True, metadata={"description": "the built-in bots' seed"})
    deals_seed = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": (
                "the secret deal set's seed, revealed once the tournament is finished (null before): anyone can "
                "rebuild every deal from it and check it against the commitment (cinch deals verify --seed)"
            )
        },
    )


class CreatedSchema(ma.Schema):
    id = fields.String(required=True)


class TableCreatedSchema(CreatedSchema):
    seat_links = fields.Dict(
        keys=Seat(),
        values=fields.String(),
        required=True,
        metadata={
            "description": (
                "each human seat -> its private link, relative to the arena's address: /tables/{id}/seat#<token>; the "
                "token (after #) is the seat's capability, shown once: it plays that seat's decisions and nothing else"
            )
        },
    )


class HumanSeatViewSchema(ma.Schema):
    """What a human seat's token may read of its table besides the public view: which seat it is."""

    table = fields.String(required=True)
    seat = Seat(required=True)
    name = fields.String(required=True, metadata={"description": "the person's name"})
    decision_ms = fields.Integer(required=True, metadata={"description": "milliseconds per decision (no bank)"})


class TournamentCreatedSchema(ma.Schema):
    id = fields.String(required=True)
    commitment = fields.Nested(
        CommitmentSchema,
        required=True,
        allow_none=True,
        metadata={"description": "the secret deal set's commitment (null for a named set)"},
    )


class StatsSchema(ma.Schema):
    """Board-pair scores of one bot against another, from the first's side."""

    boards = fields.Integer(required=True)
    total = Points(required=True, metadata={"description": "sum of the scores (a fraction in a match of k > 2)"})
    mean = fields.Float(required=True, metadata={"description": "mean score per board"})
    ci_low = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "the mean's 95% interval (Student's t), valid at a board count fixed in advance "
            "(the match's end), not when looked at repeatedly; null under two boards"
        },
    )
    ci_high = fields.Float(required=True, allow_none=True)
    won = fields.Integer(required=True, metadata={"description": "boards with a positive score"})
    tied = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    los = fields.Float(required=True, metadata={"description": "likelihood of superiority, 0 to 1"})


class CorrectedSchema(ma.Schema):
    """X's mean per board with the luck of the draw taken out (README, "Luck correction")."""

    boards = fields.Integer(required=True)
    mean = fields.Float(required=True, metadata={"description": "luck-corrected mean score per board"})
    ci_low = fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "the luck-corrected mean's 95% interval (Student's t); null under two boards"},
    )
    ci_high = fields.Float(required=True, allow_none=True)


class MatchSummarySchema(ma.Schema):
    id = fields.String(required=True)
    x = fields.String(required=True, metadata={"description": "the bot whose side the scores are from"})
    y = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["queued", "running", "complete"]))
    stats = fields.Nested(StatsSchema, required=True, metadata={"description": "raw: the board-pair scores as played"})
    corrected = fields.Nested(
        CorrectedSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "luck-corrected: the same boards less the luck of the draw; null for boards stored "
            "before the luck was measured"
        },
    )
    sprt = fields.Nested(
        SprtResultSchema,
        metadata={
            "description": (
                "in a tournament with sprt: where the match's test stands (a decided match is complete with the boards "
                "it played, which the statistics and ratings use)"
            )
        },
    )
    entrants = fields.List(
        fields.String(),
        metadata={
            "description": (
                "a match of k > 2 entrants (single seats): every entrant, x and y its first two; stats are then x's "
                "board scores against the field"
            )
        },
    )
    entrant_stats = fields.List(
        fields.Nested(lambda: EntrantStatsSchema()),
        metadata={
            "description": (
                "a match of k > 2 entrants: each entrant's board scores against the field (its nets over the rooms: "
                "its score change less the others' mean change), in entrant order"
            )
        },
    )


class EntrantStatsSchema(StatsSchema):
    """One entrant's board scores in a match of k entrants (won/tied/lost: boards above, at, below zero)."""

    bot = fields.String(required=True)


class LiveStatsSchema(StatsSchema):
    """A match's statistics so far, with the interval that live progress may be judged by."""

    anytime_low = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": (
                "anytime-valid 95% confidence sequence: valid however often it is looked at (the mean may "
                "be checked after every board and the match stopped once it excludes zero); the betting sequence, "
                "exact for scores within the ruleset's bound, over the boards in play order up to the first not "
                f"yet stored; null under {anytime.MIN_BOARDS} such boards and in games with no bound worked out "
                "(not played by two sides). ci_low/ci_high hold only at a board count fixed in advance"
            )
        },
    )
    anytime_high = fields.Float(required=True, allow_none=True)


class MatchSchema(MatchSummarySchema):
    stats = fields.Nested(LiveStatsSchema, required=True)
    timeouts = fields.Dict(
        required=True,
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "remote bot -> timeouts in the match"},
    )
    faulty = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "bots past max_timeouts: every later decision of theirs was defaulted"},
    )


class StandingSchema(ma.Schema):
    bot = fields.String(required=True)
    matches = fields.Integer(required=True)
    match_wins = fields.Integer(required=True)
    match_draws = fields.Integer(required=True)
    boards = fields.Integer(required=True)
    total = Points(required=True)
    won = fields.Integer(required=True)
    tied = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    mean = fields.Float(required=True, metadata={"description": "raw mean score per board over all its matches"})
    ci_low = fields.Float(
        allow_none=True,
        metadata={
            "description": (
                "95% interval of mean (Student's t), its board scores over all its matches pooled as one sample; "
                "null under two boards (absent from results stored before 2026-12-03)"
            )
        },
    )
    ci_high = fields.Float(allow_none=True)
    last_table = fields.Integer(
        allow_none=True,
        metadata={
            "description": (
                "progressive: the entrant's table in the latest round it finished (a tie-break; there matches are the "
                "rounds finished, match_wins the rounds won, total the net points)"
            )
        },
    )


class ProgressiveTableSchema(ma.Schema):
    """One table of one progressive round (docs/rules/progressive.md)."""

    table = fields.Integer(required=True, metadata={"description": "1 is the head table"})
    match = fields.String(required=True, metadata={"description": "the table's 4-board match"})
    seats = fields.Dict(
        required=True,
        keys=Seat(),
        values=fields.String(),
        metadata={"description": "seat (N, E, S, W) -> entrant (house bots: rule#1, ...); partners at N/S and E/W"},
    )
    ns = fields.Integer(required=True, metadata={"description": "N/S's table score over the boards stored"})
    ew = fields.Integer(required=True)
    boards = fields.Integer(required=True, metadata={"description": "boards stored of the table's four"})
    winner = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["NS", "EW"]),
        metadata={"description": "the winning side (equal scores: the cut of 11.4) once its four boards are played"},
    )


class ProgressiveRoundSchema(ma.Schema):
    round = fields.Integer(required=True)
    first = fields.Integer(required=True, metadata={"description": "its boards: first..last (4r-3..4r)"})
    last = fields.Integer(required=True)
    tables = fields.List(fields.Nested(ProgressiveTableSchema), required=True, metadata={"description": "head first"})


class ResultsSchema(ma.Schema):
    tournament = fields.String(required=True)
    name = fields.String(allow_none=True, metadata={"description": "the tournament's name, or null"})
    format = fields.String(required=True, validate=validate.OneOf(list(FORMATS)))
    ruleset = Ruleset(required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True, metadata={"description": "best first"})
    standings_note = fields.String(
        metadata={"description": "what a standings row's figures are, as the format reads them (absent before v0.2)"}
    )
    crosstable = fields.Dict(
        required=True,
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Nested(StatsSchema)),
        metadata={"description": "row bot -> column bot -> the row bot's raw scores against the column bot"},
    )
    matches = fields.List(fields.Nested(MatchSummarySchema), required=True)
    rounds = fields.List(
        fields.Nested(ProgressiveRoundSchema),
        metadata={
            "description": (
                "progressive: the rounds seated so far; standings are by rounds won, then net points, then the lower "
                "table in the last round, then sha256(S/progressive/rank/id)"
            )
        },
    )


class BoardPairSchema(ma.Schema):
    board = fields.Integer(required=True)
    score = Points(
        metadata={
            "description": (
                "X's score on the board: a two-room pair's net over both rooms (a whole number), or a blind "
                "entrant's net less the par room's (a fraction with k > 2 units: a net divides by k - 1)"
            )
        }
    )
    entrant_scores = fields.List(
        Points(),
        metadata={
            "description": (
                "a match of k > 2 entrants: each entrant's board score (the sum of its nets over the rooms), in "
                "entrant order; they sum to zero"
            )
        },
    )
    luck = fields.Float(
        allow_none=True,
        metadata={
            "description": (
                "X's luck on the draw on this pair: how much better than expected the stock served X, by a fixed "
                "evaluator; score - luck is the luck-corrected score before weighting"
            )
        },
    )
    rooms = fields.List(
        fields.Nested(Room),
        required=True,
        metadata={
            "description": (
                "two rooms, each the one record of a played hand (a cinch replay input) with N/S's luck: X at N/S "
                "then at E/W; blind movement: the entrant's room, then the reference pair's par room; a match of k > 2 "
                "entrants: every room of its seating plan, each with the unit every entrant held (units)"
            )
        },
    )
    side = Side(
        metadata={
            "description": (
                "blind movement only: the side the entrant (X) held in the first room; the second is "
                "the reference pair's par room on the same cards"
            )
        }
    )


class LeaderboardEntrySchema(RatingSchema):
    bot = fields.String(required=True)
    boards = fields.Integer(required=True, metadata={"description": "boards that rate it (each at most once)"})


class LeaderboardSchema(ma.Schema):
    ruleset = Ruleset(required=True)
    bots = fields.List(
        fields.Nested(LeaderboardEntrySchema), required=True, metadata={"description": "by rating, best first"}
    )


class RatingPointSchema(RatingValueSchema):
    t = fields.Float(required=True, metadata={"description": "when the rating changed (Unix time)"})
    tournament = fields.Integer(
        required=True, metadata={"description": "the number of the finished tournament that moved it (3: 't3')"}
    )


class RatingHistorySchema(ma.Schema):
    ruleset = Ruleset(required=True)
    bot = fields.String(required=True)
    points = fields.List(fields.Nested(RatingPointSchema), required=True, metadata={"description": "oldest first"})


class HealthSchema(ma.Schema):
    status = fields.String(required=True)


class HumanSeatSchema(ma.Schema):
    """A seat for a person (``server.arena.humans``): played from the private seat link."""

    class Meta:
        unknown = ma.RAISE

    human = fields.String(
        required=True,
        validate=validate.Regexp(
            HUMAN_NAME.pattern, error="a person's name: 1-32 letters, digits, spaces and _ . ' -, not starting with one"
        ),
        metadata={"description": "the person's name, shown at the table"},
    )
    decision_ms = fields.Integer(
        strict=True,
        load_default=HUMAN_DECISION_MS["default"],
        validate=validate.Range(HUMAN_DECISION_MS["min"], HUMAN_DECISION_MS["max"]),
        metadata={"description": "milliseconds the person has for each decision (no bank); then the default action"},
    )


_HUMAN_SEAT_DOC = {
    "type": "object",
    "required": ["human"],
    "additionalProperties": False,
    "properties": {
        "human": {"type": "string", "pattern": HUMAN_NAME.pattern, "description": "the person's name"},
        "decision_ms": {
            "type": "integer",
            "minimum": HUMAN_DECISION_MS["min"],
            "maximum": HUMAN_DECISION_MS["max"],
            "default": HUMAN_DECISION_MS["default"],
            "description": "milliseconds the person has for each decision (no time bank)",
        },
    },
}


class SeatHolder(fields.Field):
    """A seat's holder in a table's request: a bot's name, or ``{"human": NAME}`` for a person."""

    default_error_messages = {"invalid": "a bot's name, or {{\"human\": NAME}} for a person's seat"}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str | dict[str, Any]:
        if isinstance(value, str):
            return value
        if isinstance(value, dict):
            try:
                loaded: dict[str, Any] = HumanSeatSchema().load(value)
            except ma.ValidationError as error:
                raise ma.ValidationError(error.messages) from error
            return loaded
        raise self.make_error("invalid")


class TableCreateSchema(ma.Schema):
    ruleset = Ruleset(load_default=DEFAULTS["ruleset"])
    options = fields.Dict(load_default=dict, metadata={"description": "the ruleset's named options"})
    seats = fields.Dict(
        keys=fields.String(),
        values=SeatHolder(metadata={"oneOf": [{"type": "string", "description": "a bot's name"}, _HUMAN_SEAT_DOC]}),
        load_default=dict,
        metadata={
            "description": (
                'seat -> bot name, for seats filled now, or {"human": NAME} for a person\'s seat (its private link is '
                "in the answer's seat_links); the seats are the ruleset's at its table size: N E S W at four "
                "players, P1..Pk at any other (options.players)"
            )
        },
    )
    seed = fields.Integer(strict=True, load_default=1, validate=validate.Range(min=0))
    limits = fields.Nested(LimitsSchema, load_default=dict)
    practice = StrictBool(
        load_default=False,
        metadata={
            "description": (
                "a practice table may seat one remote bot on two opposing sides (it then sees both their hands); "
                "otherwise a remote bot holds seats of one side only, unless it holds every seat (self-play)"
            )
        },
    )


class JoinSchema(ma.Schema):
    seat = Seat(metadata={"description": "the seat to take; default: the first open one"})


class HandSummarySchema(ma.Schema):
    """A finished hand of a table as a spectator may see it: no card that was not played."""

    number = fields.Integer(required=True)
    scores = fields.Nested(
        BySides, required=True, metadata={"description": ("the game score before the hand (after it: scores + delta)")}
    )
    delta = fields.Nested(BySides, required=True, metadata={"description": "the hand's change to the score"})
    contract = fields.Nested(Contract, required=True, allow_none=True)
    trump = Suit(required=True, allow_none=True)
    points = fields.Nested(BySides, required=True, allow_none=True)
    tricks = fields.List(fields.Nested(Trick), required=True)


class LiveHandSchema(ma.Schema):
    hand = fields.Integer(required=True, metadata={"description": "the hand's number in the game"})
    view = fields.Nested(ObservationSchema, required=True, metadata={"description": "the spectator's view"})


class TableSchema(ma.Schema):
    id = fields.String(required=True)
    ruleset = Ruleset(required=True)
    options = fields.Dict(required=True)
    seats = fields.Dict(
        keys=Seat(),
        values=fields.String(allow_none=True),
        required=True,
        metadata={
            "description": (
                "every seat of the table, clockwise (N E S W at four players, P1..Pk else) -> its bot, or null: open"
            )
        },
    )
    humans = fields.Dict(
        keys=Seat(),
        values=fields.Nested(HumanSeatSchema),
        required=True,
        metadata={
            "description": "the human seats (a person plays them; seats names their principal): seat -> name and time"
        },
    )
    status = fields.String(
        required=True,
        validate=validate.OneOf(["open", "running", "finished", "failed"]),
        metadata={"description": "failed: stopped by an error the game could not play through (see error)"},
    )
    error = fields.String(
        allow_none=True,
        metadata={"description": "a failed table's kind of error (never its message); null otherwise"},
    )
    winner = Side(required=True, allow_none=True)
    limits = fields.Nested(LimitsSchema, required=True)
    practice = fields.Boolean(
        required=True, metadata={"description": "whether one remote bot may hold opposing seats (see create_table)"}
    )
    hands_played = fields.Integer(required=True)
    scores = fields.Nested(
        BySides,
        required=True,
        metadata={
            "description": (
                "the game score by the ruleset's sides (NS and EW, or one per seat where each plays for himself)"
            )
        },
    )
    hands = fields.List(
        fields.Nested(HandSummarySchema), required=True, metadata={"description": "finished hands, public summary"}
    )
    live = fields.Nested(
        LiveHandSchema,
        required=True,
        allow_none=True,
        metadata={"description": "the hand in progress, public view (null unless running)"},
    )
    commitment = fields.String(
        required=True, metadata={"description": ("sha256 (hex) of the table's deal seed, published from the start")}
    )
    deal_seed = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": (
                "the table's deal seed, revealed once the game is over (null before): board n of the game is "
                "the canonical generator's board n for this seed, and its sha256 is the commitment"
            )
        },
    )


class HandLuckSchema(ma.Schema):
    """How much better than average chance served N/S on a table hand, by a fixed evaluator
    (README, "Luck correction"); E/W's is the negative."""

    deal = fields.Float(
        required=True,
        metadata={
            "description": "the luck of the deal: what the cards dealt were worth to N/S, less a deal's average worth"
        },
    )
    draw = fields.Float(required=True, metadata={"description": "the luck of the draw from the stock"})


class TableHandSchema(HandRecord):
    """One hand of a finished table, every card: its record (``scores`` before the hand,
    a ``cinch replay`` input as it is), its number, its public view and its luck."""

    number = fields.Integer(required=True)
    public = fields.Nested(
        ObservationSchema, required=True, metadata={"description": "the finished hand as a spectator saw it"}
    )
    luck = fields.Nested(
        HandLuckSchema,
        allow_none=True,
        metadata={
            "description": (
                "N/S's luck on the hand (absent for hands played before it was measured, null if it could not be "
                "measured); N/S's net less both parts is what the players made of their cards"
            )
        },
    )


class TableRecordSchema(ma.Schema):
    id = fields.String(required=True)
    winner = Side(required=True, allow_none=True)
    hands = fields.List(fields.Nested(TableHandSchema), required=True)
