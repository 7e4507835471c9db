"""Tournaments: validating a request, scheduling its matches, and the final results.

A tournament is a list of duplicate matches on the same boards. Formats:

* ``round_robin``: every pair of ``bots`` plays one two-room match;
* ``gauntlet``: every one of ``candidates`` plays every one of ``references``, so the
  candidates are compared on identical deals, seats and opponents;
* with a ruleset of ``m > 2`` units (single seats, three of them in ``seven_up``,
  ``pitch``, ``all_fives``), a match has ``m`` entrants (``server.arena.field_matches``): a
  round robin plays every ``m``-subset of ``bots``, a gauntlet every candidate with every
  ``m - 1`` references; ``rooms`` (``rotate``, or ``permute`` for ``m <= 4``) is its
  seating plan. The blind movement and ``sprt`` are for two units only;
* ``progressive``: Progressive Cinch (RULES-family section 11, ``server.arena.progressive``):
  individual ``bots`` at tables of four, four boards a round, the winning pair of a
  table moving up and the partners dividing; each table of a round is one 4-board match
  (``kind: "progressive"``, one room a board) and the next round's tables are added once
  a round is complete (``advance``). Its results are not rated (``after_match_progress``);
* ``blind``: the blind movement. Every one of ``bots`` plays every board once, against a
  built-in reference bot, and is scored against the reference pair's own result on the
  same cards (``server.arena.duplicate.play_blind_board``); entrants are compared with each other
  on the boards they share. No entrant ever holds a board twice, so it is the only
  format open to untrusted bots, and their default. With several ``references``, each
  one plays a block of the boards, the same block for every entrant.

With ``sprt`` (round robin and gauntlet), each match is a sequential test of X against
Y (``server.arena.match_sprt``): it stops as soon as its test decides and counts as complete
with the boards it played; ``boards`` is then the most a match plays.

Two-room formats are for trusted bots only (built-in, or marked trusted by the admin):
a bot meets every board twice there. A tournament with a remote entrant is dealt from a
fresh secret deal set unless the admin asks for a named (public) set as ``practice``.

Everything here is a function of what the store holds, so the results are the same
whoever computes them and however often.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any

from server.arena.anytime import confidence_sequence
from server.arena.duplicate import seatings, units_of
from server.arena.field_matches import KIND, entrant_stats, field_evidence, is_field, pairwise
from server.arena.match_sprt import decide, sprt_summary
from server.arena.progressive import (
    BOARDS_PER_ROUND,
    COPY,
    MIN_ENTRANTS,
    TableResult,
    boards_of,
    bot_of,
    default_rounds,
    first_seating,
    seating_after,
    standings,
    tables_for,
)
from server.arena.ratings import record
from server.arena.sequential import Sprt
from server.arena.stats import MatchStats, corrected_summary, mirrored, summarize
from server.arena.store import Store
from server.engine import SEATS, RulesetError, game_spec, make_ruleset
from server.errors import InvalidRequest

FORMATS = ("round_robin", "gauntlet", "blind", "progressive")
PROGRESSIVE = "progressive"  # the format, and the kind of its table matches
PROGRESSIVE_BASE = "foster51"  # RULES-family 11.2: "The ordinary game of Cinch is played"
MAX_ROUNDS = 250  # the published 4-seat set's 1,000 boards
TWO_ROOM = ("round_robin", "gauntlet")
SECRET = "secret"  # ``deals``: a fresh secret set, committed at creation, revealed at the end
STATUSES = ("queued", "running", "interrupted", "cancelled", "finished", "failed")
DEFAULTS = {
    "format": None,
    "ruleset": "american62",
    "options": {},
    "deals": None,
    "practice": False,
    "first": 1,
    "boards": 100,
    "chunk": 20,
    "seed": 1,
    "limits": {},
    "sprt": None,
    "rooms": "rotate",
    "rounds": None,
}
PUBLIC_DEALS = "standard"  # the default deal set when every entrant is built in
BLIND_REFERENCE = "rule"  # the blind movement's default reference bot
LIMITS = {"decision_ms": (50, 600_000), "bank_ms": (0, 3_600_000), "max_timeouts": (0, 10_000)}
SPRT_SETTINGS = {"delta0": Sprt.delta0, "delta1": Sprt.delta1, "alpha": Sprt.alpha, "beta": Sprt.beta}
SPRT_DELTA_LIMIT = 1000  # |delta0|, |delta1| at most: far beyond any real per-board edge
SPRT_CHUNK = 10
"""Boards per job in an SPRT tournament unless the request says: small, so that a match's
boards are stored nearly in board order (the test reads them so) and little of a match
is in play when its test decides."""


class SpecError(InvalidRequest):
    """A tournament request that cannot be run; the message names the field."""


def _names(spec: dict[str, Any], field: str, roster: dict[str, dict[str, Any]]) -> list[str]:
    names = spec.get(field)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SpecError(f"{field} must be a list of bot names")
    active = sorted(n for n, bot in roster.items() if bot.get("active", True))
    unknown = [n for n in names if n not in roster]
    if unknown:
        raise SpecError(f"{field}: unknown bot {unknown[0]!r} (known: {', '.join(active)})")
    disabled = [n for n in names if n not in active]
    if disabled:
        raise SpecError(
            f"{field}: bot {disabled[0]!r} is disabled; the admin enables it again with "
            f"POST /api/v1/bots/{disabled[0]}/enable"
        )
    if len(set(names)) != len(names):
        raise SpecError(f"{field} names a bot twice")
    return names


def _whole(spec: dict[str, Any], field: str, low: int, high: int | None = None) -> int:
    value = spec.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SpecError(f"{field} must be a whole number {bound}, not {value!r}")
    return value


def validate(request: dict[str, Any], roster: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A complete, checked tournament spec from a request with defaults filled in.

    ``roster`` is every active bot by name with its ``kind`` and ``trusted`` flag
    (``server.arena.registry.roster``). The format defaults to a round robin when every entrant
    is trusted and to the blind movement otherwise; ``deals`` defaults to the public
    ``standard`` set for built-in bots and to a fresh secret set when any entrant is
    remote. Whether the boards fit the deal set is checked by ``fit_boards``.
    """
    allowed = {*DEFAULTS, "bots", "candidates", "references"}
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise SpecError(f"unknown field {unknown[0]!r}")
    spec = {**DEFAULTS, **request}
    if spec["format"] is None:
        named = spec.get("bots") if isinstance(spec.get("bots"), list) else []
        everyone_trusted = all(roster.get(n, {}).get("trusted", True) for n in named)
        spec["format"] = "round_robin" if everyone_trusted else "blind"
    if spec["format"] not in FORMATS:
        raise SpecError(f"format must be one of {', '.join(FORMATS)}, not {spec['format']!r}")
    if spec["format"] == PROGRESSIVE and "ruleset" not in request:
        spec["ruleset"] = PROGRESSIVE_BASE
    if spec["format"] != PROGRESSIVE and spec["rounds"] is not None:
        raise SpecError("rounds: only a progressive tournament plays rounds; other formats set boards")
    try:
        make_ruleset(spec["ruleset"], spec["options"])
    except RulesetError as exc:
        raise SpecError(str(exc)) from None
    _shape(spec)
    if spec["format"] == PROGRESSIVE:
        _progressive(spec, request, roster)
    else:
        _entrants(spec, roster)
    if not isinstance(spec["practice"], bool):
        raise SpecError(f"practice must be true or false, not {spec['practice']!r}")
    _deals(spec, roster)
    _whole(spec, "first", 1)
    _whole(spec, "boards", len(spec.get("references") or []) if spec["format"] == "blind" else 1)
    _sprt(spec, "chunk" in request)
    _whole(spec, "chunk", 1)
    _whole(spec, "seed", 0)
    limits = spec["limits"]
    if not isinstance(limits, dict):
        raise SpecError("limits must be an object with decision_ms, bank_ms and max_timeouts")
    for name, _value in limits.items():
        if name not in LIMITS:
            raise SpecError(f"limits: unknown limit {name!r} (known: {', '.join(LIMITS)})")
        _whole(limits, name, *LIMITS[name])
    return spec


def entrants_per_match(spec: dict[str, Any]) -> int:
    """How many entrants a match of the tournament has: the ruleset's units (sides)."""
    return len(units_of(make_ruleset(spec["ruleset"], spec["options"]))[0])


def _shape(spec: dict[str, Any]) -> None:
    """Check ``rooms`` and refuse what matches of more than two entrants cannot do."""
    m = entrants_per_match(spec)
    try:
        rules = make_ruleset(spec["ruleset"], spec["options"])
        seatings(m, spec["rooms"], game_spec(rules).single_seats(rules.players))
    except (ValueError, TypeError) as exc:
        raise SpecError(f"rooms: {exc}") from None
    if m == 2:
        return
    shape = f"{spec['ruleset']} with {make_ruleset(spec['ruleset'], spec['options']).players} players"
    if spec["format"] == "blind":
        raise SpecError(
            f"format: the blind movement scores an entrant against a reference pair on two units; "
            f"{shape} has {m} units, so its matches have {m} entrants: play a round_robin or gauntlet"
        )
    if spec["sprt"] is not None:
        raise SpecError(
            f"sprt: the sequential test compares two entrants; {shape} plays matches of {m} "
            "entrants, which play all their boards"
        )


def _entrants(spec: dict[str, Any], roster: dict[str, dict[str, Any]]) -> None:
    m = entrants_per_match(spec)
    if spec["format"] == "round_robin":
        if len(_names(spec, "bots", roster)) < m:
            raise SpecError(
                "bots: a round robin needs at least two bots"
                if m == 2
                else f"bots: a round robin of {spec['ruleset']} needs at least {m} bots (its matches have {m} entrants)"
            )
    elif spec["format"] == "gauntlet":
        candidates = _names(spec, "candidates", roster)
        references = _names(spec, "references", roster)
        if not candidates or not references:
            raise SpecError("a gauntlet needs at least one candidate and one reference")
        if len(references) < m - 1:
            raise SpecError(
                f"references: a gauntlet of {spec['ruleset']} needs at least {m - 1} references "
                f"(each candidate meets {m - 1} of them in a match of {m} entrants)"
            )
        if set(candidates) & set(references):
            raise SpecError("a bot cannot be both a candidate and a reference")
    else:
        spec.setdefault("references", [BLIND_REFERENCE])
        if not _names(spec, "bots", roster):
            raise SpecError("bots: the blind movement needs at least one entrant")
        references = _names(spec, "references", roster)
        if not references:
            raise SpecError("references: the blind movement needs a reference bot")
        remote = [n for n in references if roster[n]["kind"] != "builtin"]
        if remote:
            raise SpecError(
                f"references: {remote[0]} is not a built-in bot; the reference bots sit at "
                "every board of the movement, so they must be built in"
            )
    if spec["format"] in TWO_ROOM:
        untrusted = [n for n in entrants(spec) if not roster[n]["trusted"]]
        if untrusted:
            raise SpecError(
                f"{untrusted[0]} is not trusted, and a {spec['format']} plays every board twice "
                'for each bot; untrusted bots play the blind movement (format "blind"), or the '
                f"admin marks the bot trusted (POST /api/v1/bots/{untrusted[0]}/trust)"
            )


def _progressive(spec: dict[str, Any], request: dict[str, Any], roster: dict[str, dict[str, Any]]) -> None:
    """Check and complete a progressive tournament (RULES-family 11): a 4-seat partnership
    ruleset, at least ``MIN_ENTRANTS`` bots, ``rounds`` (default ``2T``); its boards are
    fixed by the rounds (round r plays boards 4r-3..4r), one job a table unless ``chunk``
    says. Every entrant plays each board once, so untrusted bots may enter."""
    rules = make_ruleset(spec["ruleset"], spec["options"])
    if rules.players != 4 or entrants_per_match(spec) != 2:
        raise SpecError(
            f"ruleset: Progressive Cinch is played by two partnerships at tables of four "
            f"(RULES-family 11.2); {spec['ruleset']} with {rules.players} players is not"
        )
    fixed = [f for f in ("boards", "first", "candidates", "references", "sprt") if f in request]
    if fixed:
        raise SpecError(
            f"{fixed[0]}: a progressive tournament plays boards 4r-3..4r in round r at every table "
            f"and has only bots as entrants; set rounds (and bots) instead"
        )
    bots = spec.get("bots")
    if not isinstance(bots, list) or not all(isinstance(n, str) for n in bots):
        raise SpecError("bots must be a list of bot names")
    odd = [n for n in bots if not COPY.match(n)]
    if odd:
        raise SpecError(f"bots: {odd[0]!r} is neither a bot's name nor a name with #1..#99 (to enter a bot again)")
    if len(set(bots)) != len(bots):
        raise SpecError("bots names an entrant twice (enter a bot again as name#2, name#3 ...)")
    _names({"bots": entrants(spec)}, "bots", roster)
    twice = [n for n in bots if n != bot_of(n) and roster[bot_of(n)]["kind"] != "builtin"]
    if twice:
        raise SpecError(
            f"bots: {twice[0]} enters the remote bot {bot_of(twice[0])} again; only built-in bots may be "
            "entered more than once (one remote bot at two seats would see two hands)"
        )
    if len(bots) < MIN_ENTRANTS:
        raise SpecError(
            f"bots: Progressive Cinch needs at least {MIN_ENTRANTS} entrants (a table of four), "
            f"not {len(bots)}; house bots fill only the last table"
        )
    if spec["rounds"] is None:
        spec["rounds"] = min(default_rounds(len(bots)), MAX_ROUNDS)
    _whole(spec, "rounds", 1, MAX_ROUNDS)
    spec.update(first=1, boards=BOARDS_PER_ROUND * spec["rounds"])
    if "chunk" not in request:
        spec["chunk"] = BOARDS_PER_ROUND


def _sprt(spec: dict[str, Any], chunk_asked: bool) -> None:
    """Check and complete ``sprt``: each match of a two-room format tested on its own
    (``server.arena.match_sprt``), ``boards`` its most; jobs of ``SPRT_CHUNK`` boards unless
    the request sets ``chunk``."""
    settings = spec["sprt"]
    if settings is None:
        return
    if not isinstance(settings, dict):
        raise SpecError("sprt must be an object with delta0, delta1, alpha and beta (each optional)")
    if spec["format"] not in TWO_ROOM:
        raise SpecError(
            "sprt: the sequential test stops a two-room match (round_robin or gauntlet); the blind "
            "movement compares its entrants on the boards they all play, so none of its matches "
            "may stop early"
        )
    for name, value in settings.items():
        if name not in SPRT_SETTINGS:
            raise SpecError(f"sprt: unknown setting {name!r} (known: {', '.join(SPRT_SETTINGS)})")
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise SpecError(f"sprt: {name} must be a number, not {value!r}")
        if name.startswith("delta") and abs(value) > SPRT_DELTA_LIMIT:
            raise SpecError(f"sprt: {name} must be from {-SPRT_DELTA_LIMIT} to {SPRT_DELTA_LIMIT}, not {value!r}")
    settings = {**SPRT_SETTINGS, **settings}
    try:
        Sprt(**settings, max_boards=spec["boards"])
    except ValueError as exc:
        raise SpecError(f"sprt: {exc}") from None
    spec["sprt"] = settings
    if not chunk_asked:
        spec["chunk"] = SPRT_CHUNK


def public_deals(players: int, deck: int = 52) -> str:
    """The published deal set of a table size and deck: ``standard``, ``standard-2p``, ...;
    ``standard-53-4p`` ... ``standard-53-7p`` for snoozer's 53 cards."""
    if deck != 52:
        return f"{PUBLIC_DEALS}-{deck}-{players}p"
    return PUBLIC_DEALS if players == 4 else f"{PUBLIC_DEALS}-{players}p"


def table_shape(ruleset: str, options: Any) -> tuple[int, int]:
    """(players, cards in the deck) of a valid ruleset and options: what a deal set must fit."""
    rules = make_ruleset(ruleset, options)
    return rules.players, game_spec(rules).deck


def _deals(spec: dict[str, Any], roster: dict[str, dict[str, Any]]) -> None:
    remote = [n for n in entrants(spec) if roster[n]["kind"] != "builtin"]
    if spec["deals"] is None:
        spec["deals"] = SECRET if remote else public_deals(*table_shape(spec["ruleset"], spec["options"]))
    if not isinstance(spec["deals"], str) or not spec["deals"]:
        raise SpecError('deals must be the name of a deal set, or "secret"')
    if spec["deals"] != SECRET and remote and not spec["practice"]:
        raise SpecError(
            f"deals: {spec['deals']} is a named deal set that {remote[0]} could have read; a "
            "tournament with remote bots is dealt from a fresh secret set (leave deals out), "
            'unless it is marked "practice": true'
        )


def fit_boards(spec: dict[str, Any], deal_count: int, players: int = 4, deck: int = 52) -> None:
    """Check that boards first..first+boards-1 exist in a deal set of ``deal_count`` boards
    and that the set is dealt for the ruleset's table size and deck (RULES-family F2: a
    52-card set never deals snoozer, nor a 53-card set another game)."""
    wanted, cards = table_shape(spec["ruleset"], spec["options"])
    if players != wanted:
        raise SpecError(
            f"deals: {spec['deals']} is dealt for {players} players, the ruleset seats {wanted} "
            f"(the published set for {wanted} is {public_deals(wanted, cards)})"
        )
    if deck != cards:
        raise SpecError(
            f"deals: {spec['deals']} is a {deck}-card set, {spec['ruleset']} is played with {cards} "
            f"cards (the published set is {public_deals(wanted, cards)})"
        )
    if spec["format"] == PROGRESSIVE:
        _whole(spec, "rounds", 1, deal_count // BOARDS_PER_ROUND)
    _whole(spec, "first", 1, deal_count)
    _whole(spec, "boards", 1, deal_count - spec["first"] + 1)


def pairings(spec: dict[str, Any], m: int = 2) -> list[tuple[str, ...]]:
    """The entrants of each match: every ``m``-subset of a round robin's bots, or each
    candidate with every ``m - 1`` references of a gauntlet."""
    if spec["format"] == "round_robin":
        return list(combinations(spec["bots"], m))
    return [(c, *refs) for c in spec["candidates"] for refs in combinations(spec["references"], m - 1)]


def plan_matches(spec: dict[str, Any], deal_seed: str | None = None) -> list[dict[str, Any]]:
    """The tournament's matches, all on boards first..first+boards-1 of the same deal set.

    Two-room formats: one match per pairing over all the boards (with the tournament's
    ``sprt`` settings, when it has them: each match is tested on its own). Blind movement: one
    match per entrant and reference bot, the boards split into one block per reference,
    so that every entrant meets each reference on the same boards and plays each board
    once; ``index`` (the entrant's place) fixes its side on each board. A ruleset of
    ``m > 2`` units: one match of ``m`` entrants (``entrants``; ``x`` and ``y`` its first
    two) per ``pairings``, played in the ``rooms`` seating plan. Progressive: the first
    round's tables (``round_matches``), seated from the deal set's seed ``deal_seed``;
    the later rounds are added as the earlier ones end (``advance``).
    """
    if spec["format"] == PROGRESSIVE:
        if deal_seed is None:
            raise ValueError("a progressive tournament is seated from its deal set's seed (RULES-family 11.5)")
        return round_matches(spec, 1, first_seating(deal_seed, spec["bots"]))
    common = _common(spec)
    last = spec["first"] + spec["boards"] - 1
    if spec["format"] in TWO_ROOM:
        m = entrants_per_match(spec)
        if m > 2:
            return [
                {
                    "kind": KIND,
                    "entrants": list(group),
                    "x": group[0],
                    "y": group[1],
                    "rooms": spec["rooms"],
                    "first": spec["first"],
                    "last": last,
                    **common,
                }
                for group in pairings(spec, m)
            ]
        test = {"sprt": spec["sprt"]} if spec.get("sprt") else {}
        return [{"x": x, "y": y, "first": spec["first"], "last": last, **common, **test} for x, y in pairings(spec)]
    refs = spec["references"]
    bounds = [spec["first"] + spec["boards"] * j // len(refs) for j in range(len(refs) + 1)]
    return [
        {"kind": "blind", "x": entrant, "y": ref, "index": i, "first": bounds[j], "last": bounds[j + 1] - 1, **common}
        for i, entrant in enumerate(spec["bots"])
        for j, ref in enumerate(refs)
    ]


def _common(spec: dict[str, Any]) -> dict[str, Any]:
    """What every match of a tournament shares."""
    return {
        "ruleset": spec["ruleset"],
        "options": spec["options"],
        "deals": spec["deals"],
        "seed": spec["seed"],
        "limits": spec["limits"],
    }


def planned_totals(spec: dict[str, Any]) -> tuple[int, int] | None:
    """(matches, board pairs) a progressive tournament will have in all, its later rounds
    not stored yet (``Store.create_tournament``); None for a format planned at once."""
    if spec["format"] != PROGRESSIVE:
        return None
    tables = tables_for(len(spec["bots"]))
    return tables * spec["rounds"], tables * spec["boards"]


def round_matches(spec: dict[str, Any], round_: int, seating: list[tuple[str, ...]]) -> list[dict[str, Any]]:
    """A progressive round's tables as matches of one room a board: ``entrants`` at N, E,
    S, W (``x``, ``y`` the first two), boards ``4r-3..4r``. Match ``(r-1)T + t`` of the
    tournament is table ``t`` of round ``r``, so a round added twice keeps its ids."""
    first, last = boards_of(round_)
    out = []
    for table, seats in enumerate(seating, 1):
        match = {
            "kind": PROGRESSIVE,
            "round": round_,
            "table": table,
            "entrants": list(seats),
            "x": seats[0],
            "y": seats[1],
            "first": first,
            "last": last,
            **_common(spec),
        }
        if "id" in spec:
            match["id"] = f"{spec['id']}.m{(round_ - 1) * len(seating) + table}"
        out.append(match)
    return out


def deal_seed(store: Store, spec: dict[str, Any]) -> str:
    """``S`` of RULES-family 11: the tournament's deal-set seed (kept in the store, and
    served only once a secret set's tournament is finished)."""
    return (store.dealset_meta(spec["deals"]) or {})["seed"]


def table_scores(store: Store, match: dict[str, Any]) -> tuple[int, int, int]:
    """A progressive table's (N/S table score, E/W table score, boards stored): the sums
    of the pairs' hand score changes over its boards stored so far (RULES-family 11.3)."""
    ns = ew = 0
    boards = 0
    for number in range(match["first"], match["last"] + 1):
        record = store.pair(match["id"], number)
        if record is not None:
            delta = record["rooms"][0]["result"]["delta"]
            ns, ew, boards = ns + delta["NS"], ew + delta["EW"], boards + 1
    return ns, ew, boards


def progressive_rounds(store: Store, spec: dict[str, Any]) -> list[list[tuple[dict[str, Any], TableResult | None]]]:
    """A progressive tournament's stored rounds, each its tables head first, with each
    table's result once its four boards are stored (None while it is played)."""
    rounds: dict[int, list[tuple[dict[str, Any], TableResult | None]]] = {}
    for mid in store.match_ids(spec["id"]):
        match = store.match(mid)
        ns, ew, boards = table_scores(store, match)
        done = boards == match["last"] - match["first"] + 1
        result = TableResult(match["round"], match["table"], tuple(match["entrants"]), ns, ew) if done else None
        rounds.setdefault(match["round"], []).append((match, result))
    return [sorted(rounds[r], key=lambda item: item[0]["table"]) for r in sorted(rounds)]


def advance(store: Store, tid: str) -> int:
    """Add a progressive tournament's next round once every table of its last round has
    its four boards: seated by the movement (``server.arena.progressive.seating_after``) from
    the stored table results. Idempotent (the round's match ids are fixed), so the job
    that stored a round's last board and the supervisor may both call it. Returns the
    matches added (0 for another format, mid-round, or after the last round)."""
    spec = store.tournament(tid)
    if spec["format"] != PROGRESSIVE or not _next_round_due(store, spec):
        return 0
    rounds = progressive_rounds(store, spec)
    if len(rounds) >= spec["rounds"] or any(result is None for _, result in rounds[-1]):
        return 0
    seating = seating_after(deal_seed(store, spec), spec["bots"], [[r for _, r in tables] for tables in rounds])
    return store.add_matches(tid, round_matches(spec, len(rounds) + 1, seating))


def _next_round_due(store: Store, spec: dict[str, Any]) -> bool:
    """Whether the latest round seated is not the last and every one of its tables has
    all its boards stored, read from that round's tables alone. ``advance`` runs after
    every job and, in each supervisor pass, for every complete table: reading every
    round's results each time made a pass quadratic in the rounds (21 s at 80 rounds,
    longer than the driver's lease, so the tournament kept reading as interrupted)."""
    last = store.match_ids(spec["id"])[-tables_for(len(spec["bots"])) :]
    matches = [store.match(mid) for mid in last]
    if len({m["round"] for m in matches}) != 1:  # not one whole round: let the full reading decide
        return True
    return matches[0]["round"] < spec["rounds"] and all(
        len(store.stored_boards(m["id"])) == m["last"] - m["first"] + 1 for m in matches
    )


def chunks(match: dict[str, Any], size: int, skip: set[int] = frozenset()) -> list[tuple[int, int]]:
    """Board ranges of at most ``size`` boards still to play in ``match``."""
    todo = [n for n in range(match["first"], match["last"] + 1) if n not in skip]
    out: list[tuple[int, int]] = []
    for n in todo:
        if out and n == out[-1][1] + 1 and n - out[-1][0] < size:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def entrants(spec: dict[str, Any]) -> list[str]:
    """Every bot in a tournament, in the order the request named them (a blind
    movement's reference bots included; a progressive entrant's bot once however often
    it is entered)."""
    if spec.get("format") == PROGRESSIVE:
        return list(dict.fromkeys(bot_of(n) for n in spec["bots"]))
    return list(spec.get("bots") or []) + list(spec.get("candidates") or []) + list(spec.get("references") or [])


CONNECTED_SECONDS = 30
"""A remote bot that talked to the API this recently counts as connected (a long-poll
lasts at most 25 s, and a running bot opens the next one at once)."""


def waiting_for(store: Store, tournament: dict[str, Any]) -> list[dict[str, Any]]:
    """The remote entrants of a live tournament and what the tournament may be waiting
    for: whether each is connected, its open decisions, its timeouts so far."""
    if tournament["status"] not in ("queued", "running"):
        return []
    remote = [b for b in entrants(tournament) if store.bot(b)["kind"] == "remote"]
    if not remote:
        return []
    now = store.now()
    timeouts: dict[str, int] = {}
    for mid in store.match_ids(tournament["id"]):
        for bot, count in store.timeouts(mid).items():
            timeouts[bot] = timeouts.get(bot, 0) + count
    out = []
    for bot in remote:
        seen = store.last_seen(bot)
        out.append(
            {
                "bot": bot,
                "connected": seen is not None and now - seen < CONNECTED_SECONDS,
                "seen_seconds_ago": None if seen is None else round(max(now - seen, 0.0), 1),
                "open_decisions": store.open_count(bot),
                "timeouts": timeouts.get(bot, 0),
            }
        )
    return out


def live_scores(store: Store, mid: str) -> list[int]:
    """X's per-board scores of a match stored so far, in board order: the numbers a
    match's statistics and its live anytime interval are computed from, read in this
    one place so that a different score (e.g. corrected for luck) changes them all."""
    scores = store.scores(mid)
    return [scores[b] for b in sorted(scores)]


def match_stats(store: Store, mid: str) -> MatchStats:
    return summarize(live_scores(store, mid))


def live_stats(store: Store, mid: str) -> dict[str, Any]:
    """A match's statistics so far (``summarize``) with its anytime-valid 95% interval
    beside the mean (``anytime_low``, ``anytime_high``: ``server.arena.anytime``; null under
    ``anytime.MIN_BOARDS`` boards): what live progress shows, in the API, CLI and pages."""
    scores = live_scores(store, mid)
    low, high = confidence_sequence(scores) or (None, None)
    return {**summarize(scores).to_dict(), "anytime_low": low, "anytime_high": high}


def mirrored_live(stats: dict[str, Any]) -> dict[str, Any]:
    """``live_stats`` seen from Y's side (``mirrored``, the anytime interval negated too)."""
    low, high = stats["anytime_low"], stats["anytime_high"]
    fixed = MatchStats(**{k: v for k, v in stats.items() if k not in ("anytime_low", "anytime_high")})
    return {
        **mirrored(fixed).to_dict(),
        "anytime_low": None if high is None else -high,
        "anytime_high": None if low is None else -low,
    }


def match_corrected(store: Store, mid: str) -> dict[str, Any] | None:
    """A match's luck-corrected mean and interval (``server.arena.stats.corrected_summary``), in
    board order; None when no stored board has its luck measured (stored before it was)."""
    scores, lucks = store.scores(mid), store.lucks(mid)
    if not lucks:
        return None
    boards = sorted(scores)
    return corrected_summary([scores[b] for b in boards], [lucks.get(b, 0.0) for b in boards])


def evidence_of(match: dict[str, Any]) -> str:
    """What a comparison proves on each of its boards, named so that replaying it anywhere
    names it the same: the format's family (two-room or blind), the deal set, ruleset
    options and the two bots (in a fixed order). With a board number it names one piece
    of evidence, which counts once in the ratings. The ruleset is the ratings' own key."""
    options = json.dumps(match["options"], sort_keys=True, separators=(",", ":"))
    low, high = sorted((match["x"], match["y"]))
    family = "blind|" if match.get("kind") == "blind" else field_evidence(match)
    return f"{family}{match['deals']}|{options}|{low}|{high}"


def canonical_order(comparison: dict[str, Any]) -> list[int]:
    """A comparison's place in the order ratings are replayed in, which completion time
    does not change: the tournament's number (tournaments are numbered as they are
    created), then its matches by schedule index (ids ``t{n}.m{i}``, from
    ``Store.create_tournament``), then a blind movement's entrant pairs after every match
    (``blind_comparisons`` gives each its ``order``; a match of k entrants gives its entrant
    pairs theirs, after the match's place: ``field_matches.pairwise``)."""
    if "order" in comparison:
        return comparison["order"]
    tid, index = comparison["id"].split(".m")
    return [int(tid[1:]), 0, int(index)]


def rate(store: Store, comparison: dict[str, Any], scores: dict[int, int]) -> bool:
    """Count a comparison of X with Y (a match, or two blind entrants) in the ratings.

    Its record is stored once and the ratings are replayed in canonical order
    (``server.arena.ratings``), so they do not depend on which comparison completed first. It
    enters as one result on the boards it owns (no comparison earlier in canonical order
    holds the same bots, deals, options and board): a win when the mean over those boards
    has a 95% interval that excludes zero, a draw otherwise. A comparison owning no board
    moves nothing, so a repeated tournament cannot rate the same evidence twice. True if
    this call stored it and it moves the ratings.
    """
    ruleset = comparison["ruleset"]
    if comparison["x"] == comparison["y"]:
        return False  # a built-in entrant against itself as the reference proves nothing
    if store.legacy_ratings(ruleset):
        rebuild_ratings(store, [ruleset])
    added = store.add_comparisons(
        ruleset,
        [
            record(
                comparison["id"],
                canonical_order(comparison),
                comparison["x"],
                comparison["y"],
                evidence_of(comparison),
                scores,
                time.time(),
            )
        ],
    )
    store.refresh_ratings(ruleset)
    return bool(added) and bool(store.counted(ruleset, [comparison["id"]]))


def rate_match(store: Store, match: dict[str, Any]) -> bool:
    """Count a complete match in the ratings (see ``rate``); a match of k entrants as each
    two of its entrants compared on its boards (``field_matches.pairwise``)."""
    if is_field(match):
        return any([rate(store, c, d) for c, d in pairwise(store, match)])
    return rate(store, match, store.scores(match["id"]))


def blind_comparisons(store: Store, tid: str) -> list[tuple[dict[str, Any], dict[int, int]]]:
    """Every pair of a blind movement's entrants, compared on the boards both played:
    per board, X's score against the par minus Y's. Each comes as a comparison (shaped
    like a match, with an id of its own) and its per-board differences."""
    spec = store.tournament(tid)
    if spec["format"] != "blind":
        return []
    by_bot: dict[str, dict[int, int]] = {}
    for mid in store.match_ids(tid):
        by_bot.setdefault(store.match(mid)["x"], {}).update(store.scores(mid))
    out = []
    for index, (x, y) in enumerate(combinations(spec["bots"], 2), 1):
        shared = sorted(set(by_bot.get(x, {})) & set(by_bot.get(y, {})))
        comparison = {
            "id": f"{tid}:{x}~{y}",
            "kind": "blind",
            "x": x,
            "y": y,
            "ruleset": spec["ruleset"],
            "options": spec["options"],
            "deals": spec["deals"],
            "order": [int(tid[1:]), 1, index],
        }
        out.append((comparison, {b: by_bot[x][b] - by_bot[y][b] for b in shared}))
    return out


def rate_tournament_end(store: Store, tid: str) -> int:
    """Follow-ups once every match of a tournament is complete, just before it is marked
    finished: a blind movement's entrant pairs enter the ratings (their matches against
    the reference entered one by one). Idempotent, like every rating."""
    return sum(rate(store, c, d) for c, d in blind_comparisons(store, tid))


def after_match_progress(store: Store, match: dict[str, Any]) -> bool:
    """Follow-ups once a match is complete (every board stored, or its sequential test
    decided: ``match_sprt.decide``): its rating, then the tournament's results.

    Idempotent, and called after every chunk and by the supervisor, so a job that
    crashed between storing the last board pair and these follow-ups has them done by
    whoever comes next. Returns True when the tournament is finished.
    """
    mid, tid = match["id"], match["tournament"]
    if mid not in store.complete_matches(tid) and not decide(store, match):
        return False
    if match.get("kind") == PROGRESSIVE:
        advance(store, tid)  # not rated: see README, "Progressive Cinch"
    else:
        rate_match(store, match)
    return finish_if_complete(store, tid)


def rebuild_ratings(store: Store, rulesets: Iterable[str] | None = None) -> dict[str, int]:
    """Recompute ratings from the stored board pairs alone: the records of every complete
    match of every tournament (and a finished blind movement's entrant pairs) are made
    again and replayed in canonical order, as if each had just completed; a record that
    was stored keeps its time. For an upgrade that changes how evidence is named or
    stored, and for ratings written by the incremental updates of older versions.
    Returns the comparisons that move the ratings, per ruleset."""
    chosen = set(rulesets) if rulesets is not None else None
    steps: list[tuple[dict[str, Any], Callable[[], dict[int, int]]]] = []
    for tid in store.tournament_ids():
        complete = store.complete_matches(tid)
        for mid in store.match_ids(tid):
            if mid in complete:
                match = store.match(mid)
                if match.get("kind") == PROGRESSIVE:
                    continue  # progressive tables are never rated
                if is_field(match):
                    steps += [(c, lambda d=d: d) for c, d in pairwise(store, match)]
                else:
                    steps.append((match, lambda mid=mid: store.scores(mid)))
        if store.tournament(tid)["status"] == "finished":
            steps += [(c, lambda d=d: d) for c, d in blind_comparisons(store, tid)]
    names = {c["ruleset"] for c, _ in steps} | set(store.rating_rulesets())
    counted = {}
    now = time.time()
    for ruleset in sorted(names if chosen is None else names & chosen):
        rated = store.comparisons(ruleset)
        records = [
            record(
                c["id"],
                canonical_order(c),
                c["x"],
                c["y"],
                evidence_of(c),
                scores(),
                rated[c["id"]]["t"] if c["id"] in rated else now,
            )
            for c, scores in steps
            if c["ruleset"] == ruleset and c["x"] != c["y"]
        ]
        store.clear_ratings(ruleset)
        store.add_comparisons(ruleset, records)
        store.refresh_ratings(ruleset)
        counted[ruleset] = len(store.counted(ruleset, [r["id"] for r in records]))
    return counted


def finish_if_complete(store: Store, tid: str) -> bool:
    tournament = store.tournament(tid)
    if tournament["status"] == "finished":
        return True
    if len(store.complete_matches(tid)) < tournament["matches_total"]:
        return False
    rate_tournament_end(store, tid)  # before "finished": a crash in between is redone by the next caller
    store.finish_tournament(tid, results(store, tid))
    return True


def sprt_of(store: Store, match: dict[str, Any]) -> dict[str, Any]:
    """``{"sprt": standing}`` for a match of an SPRT tournament (``match_sprt.sprt_summary``),
    nothing for another: what a served match carries besides its statistics."""
    summary = sprt_summary(store, match)
    return {} if summary is None else {"sprt": summary}


def results(store: Store, tid: str) -> dict[str, Any]:
    """Standings, cross-table and per-match statistics from the stored board pairs.

    A standings row sums a bot's board scores over its matches (a match decided by its
    sequential test: the boards it played). In the blind movement
    those are scores against the par (the reference pair's result on the same cards),
    the reference bots have no row of their own, and the cross-table also compares every
    two entrants on the boards they share. A match of k entrants gives each entrant its
    board scores against the field (won, tied, lost: boards above, at, below zero; a match
    won when its 95% interval is above zero) and lists each entrant's statistics
    (``entrant_stats``); its cross-table cells sum the entrants' per-board differences
    over every match that holds both (``field_matches.pairwise``).
    """
    spec = store.tournament(tid)
    if spec["format"] == PROGRESSIVE:
        return progressive_results(store, spec)
    blind = spec["format"] == "blind"
    matches = []
    cross: dict[str, dict[str, Any]] = {}
    table: dict[str, dict[str, Any]] = {}

    def row(bot: str) -> dict[str, Any]:
        return table.setdefault(
            bot,
            {
                "bot": bot,
                "matches": 0,
                "match_wins": 0,
                "match_draws": 0,
                "boards": 0,
                "total": 0,
                "won": 0,
                "tied": 0,
                "lost": 0,
            },
        )

    def compared(me: str, other: str, st: MatchStats, boards_count: bool = True) -> None:
        if me == other:  # a built-in entrant met itself as the reference
            return
        cross.setdefault(me, {})[other] = st.to_dict()
        if blind and me not in spec["bots"]:
            return
        r = row(me)
        r["matches"] += 1
        r["match_wins"] += st.outcome() == 1
        r["match_draws"] += st.outcome() == 0
        if boards_count:
            add_boards(r, st)

    def add_boards(r: dict[str, Any], st: MatchStats) -> None:
        for field in ("boards", "total", "won", "tied", "lost"):
            r[field] += getattr(st, field)

    field_diffs: dict[tuple[str, str], list[float]] = {}
    for mid in store.match_ids(tid):
        match = store.match(mid)
        if is_field(match):
            entries = entrant_stats(store, match)
            for bot, st in entries:
                r = row(bot)
                r["matches"] += 1
                r["match_wins"] += st.outcome() == 1
                r["match_draws"] += st.outcome() == 0
                add_boards(r, st)
            matches.append(seated_summary(match, entries))
            for comparison, diffs in pairwise(store, match):
                field_diffs.setdefault((comparison["x"], comparison["y"]), []).extend(diffs[b] for b in sorted(diffs))
            continue
        stats = match_stats(store, mid)
        matches.append(
            {
                "id": mid,
                "x": match["x"],
                "y": match["y"],
                "status": match["status"],
                "stats": stats.to_dict(),
                "corrected": match_corrected(store, mid),
                **sprt_of(store, match),
            }
        )
        if blind and match["y"] in spec["bots"]:  # a built-in entrant is also the reference:
            add_boards(row(match["x"]), stats)  # the entrants' comparison stands for this one
            continue
        compared(match["x"], match["y"], stats)
        compared(match["y"], match["x"], mirrored(stats), boards_count=not blind)
    for comparison, diffs in blind_comparisons(store, tid):
        stats = summarize([diffs[b] for b in sorted(diffs)])
        compared(comparison["x"], comparison["y"], stats, boards_count=False)
        compared(comparison["y"], comparison["x"], mirrored(stats), boards_count=False)
    for (x, y), diffs in field_diffs.items():
        stats = summarize(diffs)
        cross.setdefault(x, {})[y] = stats.to_dict()
        cross.setdefault(y, {})[x] = mirrored(stats).to_dict()
    for r in table.values():
        r["total"] = r["total"] if isinstance(r["total"], int) else round(r["total"], 4)
        r["mean"] = round(r["total"] / r["boards"], 4) if r["boards"] else 0.0
    standings = sorted(table.values(), key=lambda r: (-r["mean"], r["bot"]))
    return {
        "tournament": tid,
        "format": spec["format"],
        "ruleset": spec["ruleset"],
        "standings": standings,
        "crosstable": cross,
        "matches": matches,
    }


def seated_summary(match: dict[str, Any], entries: list[tuple[str, MatchStats]]) -> dict[str, Any]:
    """A match of several entrants in the results: X's statistics and every entrant's."""
    return {
        "id": match["id"],
        "x": match["x"],
        "y": match["y"],
        "entrants": match["entrants"],
        "status": match["status"],
        "stats": entries[0][1].to_dict(),
        "corrected": None,
        "entrant_stats": [{"bot": bot, **st.to_dict()} for bot, st in entries],
    }


def progressive_results(store: Store, spec: dict[str, Any]) -> dict[str, Any]:
    """A progressive tournament's results over the tables finished so far: the standings
    of RULES-family 11.8 (``server.arena.progressive.standings``; the house entrants have no
    row), each round's tables (seats, table scores, winner) and each table as a match.

    A standings row has the common shape, read the progressive way: ``matches`` the
    rounds (tables) finished, ``match_wins`` the rounds won, ``total`` the net points (its
    pair's table score less the other pair's), ``boards``, ``won``/``tied``/``lost`` and
    ``mean`` over its boards' nets, and ``last_table`` the tie-break's table."""
    seed = deal_seed(store, spec)
    rounds = progressive_rounds(store, spec)
    nets: dict[str, list[int]] = {}
    for tables in rounds:
        for match, result in tables:
            if result is not None:
                for scores in store.entrant_scores(match["id"]).values():
                    for entrant, score in zip(match["entrants"], scores):
                        nets.setdefault(entrant, []).append(score)
    finished = [result for tables in rounds for _, result in tables if result is not None]
    standing = []
    for row in standings(seed, spec["bots"], finished):
        board_nets = nets.get(row["bot"], [])
        st = summarize(board_nets)
        standing.append(
            {
                "bot": row["bot"],
                "matches": row["rounds"],
                "match_wins": row["rounds_won"],
                "match_draws": 0,
                "boards": st.boards,
                "total": row["net"],
                "won": st.won,
                "tied": st.tied,
                "lost": st.lost,
                "mean": round(row["net"] / st.boards, 4) if st.boards else 0.0,
                "last_table": row["last_table"],
            }
        )
    shown = []
    for tables in rounds:
        shown.append(
            {
                "round": tables[0][0]["round"],
                "first": tables[0][0]["first"],
                "last": tables[0][0]["last"],
                "tables": [table_view(store, seed, match, result) for match, result in tables],
            }
        )
    matches = [seated_summary(match, entrant_stats(store, match)) for tables in rounds for match, _ in tables]
    return {
        "tournament": spec["id"],
        "format": spec["format"],
        "ruleset": spec["ruleset"],
        "standings": standing,
        "crosstable": {},
        "matches": matches,
        "rounds": shown,
    }


def table_view(store: Store, seed: str, match: dict[str, Any], result: TableResult | None) -> dict[str, Any]:
    """One progressive table as served: its match, entrants by seat, table scores so far,
    and its winning side once its four boards are stored."""
    ns, ew, boards = table_scores(store, match)
    return {
        "table": match["table"],
        "match": match["id"],
        "seats": dict(zip(SEATS, match["entrants"])),
        "ns": ns,
        "ew": ew,
        "boards": boards,
        "winner": None if result is None else result.winner(seed),
    }
