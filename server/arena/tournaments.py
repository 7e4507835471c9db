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
* ``progressive``: Progressive Cinch (docs/rules/progressive.md, ``server.arena.progressive``):
  individual ``bots`` at tables of four, four boards a round, the winning pair of a
  table moving up and the partners dividing; each table of a round is one 4-board match
  (``kind: "progressive"``, one room a board) and the next round's tables are added once
  a round is complete (``advance``). Its results are not rated (``MatchKind.rated``);
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
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Any

from server.arena.formats import FORMATS, format_named, format_of, kind_of
from server.arena.formats.base import Comparison, Format, Match, Roster, Spec, SpecError, whole
from server.arena.formats.blind import BLIND
from server.arena.formats.pair import ROUND_ROBIN
from server.arena.match_sprt import decide, score_bound
from server.arena.ratings import record
from server.arena.registry import entrant_kind
from server.arena.sequential import Sprt
from server.arena.store import Store
from server.engine import RulesetError, game_spec, make_ruleset
from server.metrics import RATINGS_SECONDS, timed

SECRET = "secret"  # ``deals``: a fresh secret set, committed at creation, revealed at the end
STATUSES = ("queued", "running", "interrupted", "cancelled", "finished", "failed")
DEFAULTS: dict[str, Any] = {
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
    "name": None,
}
NAME_LENGTH = 80
"""A tournament's name is at most this many characters (it heads its page and a list's row)."""
PUBLIC_DEALS = "standard"  # the default deal set when every entrant is built in
LIMITS = {"decision_ms": (50, 600_000), "bank_ms": (0, 3_600_000), "max_timeouts": (0, 10_000)}
SPRT_SETTINGS = {"delta0": Sprt.delta0, "delta1": Sprt.delta1, "alpha": Sprt.alpha, "beta": Sprt.beta}
SPRT_DELTA_LIMIT = 1000  # |delta0|, |delta1| at most: far beyond any real per-board edge
SPRT_CHUNK = 10
"""Boards per job in an SPRT tournament unless the request says: small, so that a match's
boards are stored nearly in board order (the test reads them so) and little of a match
is in play when its test decides."""


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a tournament, or None: a text of 1 to ``NAME_LENGTH``
    printable characters (no line breaks or control characters), not starting or ending
    with a space, with a letter or digit in it (what a search finds it by)."""
    if not isinstance(name, str):
        return f"must be a text, not {name!r}"
    if not 1 <= len(name) <= NAME_LENGTH:
        return f"must be 1 to {NAME_LENGTH} characters long, not {len(name)}"
    if not name.isprintable():
        return "must be printable characters on one line (no line breaks, tabs or control characters)"
    if name != name.strip():
        return "must not start or end with a space"
    if not any(c.isalnum() for c in name):
        return "must hold a letter or a digit"
    return None


def validate(request: dict[str, Any], roster: Roster) -> Spec:
    """A complete, checked tournament spec from a request with defaults filled in.

    ``roster`` is every active bot by name with its ``kind`` and ``trusted`` flag
    (``server.arena.registry.roster``). The format defaults to a round robin when every entrant
    is trusted and to the blind movement otherwise; ``deals`` defaults to the public
    ``standard`` set for built-in bots and to a fresh secret set when any entrant is
    remote. The format checks its own fields (``Format.complete``); whether the boards fit
    the deal set is checked by ``fit_boards``.
    """
    allowed = {*DEFAULTS, "bots", "candidates", "references"}
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise SpecError(f"unknown field {unknown[0]!r}")
    spec = {**DEFAULTS, **request}
    if spec["name"] is not None and (problem := name_problem(spec["name"])) is not None:
        raise SpecError(f"name {problem}")
    if spec["format"] is None:
        spec["format"] = _default_format(spec, roster).name
    fmt = format_named(spec["format"])
    if fmt.default_ruleset is not None and "ruleset" not in request:
        spec["ruleset"] = fmt.default_ruleset
    if not fmt.plays_rounds and spec["rounds"] is not None:
        raise SpecError("rounds: only a progressive tournament plays rounds; other formats set boards")
    try:
        make_ruleset(spec["ruleset"], spec["options"])
    except RulesetError as exc:
        raise SpecError(str(exc)) from None
    refusal = fmt.allows(spec)
    if refusal is not None:
        raise SpecError(refusal)
    fmt.complete(spec, request, roster)
    if not isinstance(spec["practice"], bool):
        raise SpecError(f"practice must be true or false, not {spec['practice']!r}")
    _deals(spec, roster)
    local = {n: roster[n]["source"] for n in entrants(spec) if "source" in roster[n]}
    if local:  # where the workers load each local entrant from (server.arena.registry.LOCAL)
        spec["local"] = local
    whole(spec, "first", 1)
    whole(spec, "boards", 1)
    _sprt(spec, fmt, "chunk" in request)
    if spec["secret_order"] and "chunk" not in request:
        spec["chunk"] = spec["boards"]  # one job a match: the whole of it in one secret order (server.arena.order)
    whole(spec, "chunk", 1)
    whole(spec, "seed", 0)
    limits = spec["limits"]
    if not isinstance(limits, dict):
        raise SpecError("limits must be an object with decision_ms, bank_ms and max_timeouts")
    for name in limits:
        if name not in LIMITS:
            raise SpecError(f"limits: unknown limit {name!r} (known: {', '.join(LIMITS)})")
        whole(limits, name, *LIMITS[name])
    return spec


def _default_format(spec: Spec, roster: Roster) -> Format:
    """The format a request means when it names none: the one whose own entrant fields it
    uses (``candidates``: a gauntlet), else a round robin of trusted bots or the blind
    movement, the one format open to untrusted bots at every table shape."""
    for fmt in FORMATS.values():
        if any(f in spec for f in fmt.entrant_fields if f != "bots" and f not in BLIND.entrant_fields):
            return fmt
    bots = spec.get("bots")
    named = bots if isinstance(bots, list) else []
    return ROUND_ROBIN if all(roster.get(n, {}).get("trusted", True) for n in named) else BLIND


def _sprt(spec: Spec, fmt: Format, chunk_asked: bool) -> None:
    """Check and complete ``sprt``: each match of a format that allows it tested on its own
    (``server.arena.match_sprt``), ``boards`` its most; jobs of ``SPRT_CHUNK`` boards unless
    the request sets ``chunk``."""
    settings = spec["sprt"]
    if settings is None:
        return
    if not isinstance(settings, dict):
        raise SpecError("sprt must be an object with delta0, delta1, alpha and beta (each optional)")
    if not fmt.sprt:
        allowed = ", ".join(f.name for f in FORMATS.values() if f.sprt)
        raise SpecError(
            f"sprt: the sequential test stops a two-room match ({allowed}); a {fmt.name} plays all its boards"
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
        Sprt(**settings, max_boards=spec["boards"], bound=score_bound(spec["ruleset"], spec["options"]))
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


def _deals(spec: Spec, roster: Roster) -> None:
    """The deal set, and whether the matches hide the order of their boards
    (``server.arena.order``): both because of the remote entrants."""
    remote = [n for n in entrants(spec) if entrant_kind(roster[n]).outside]
    spec["secret_order"] = bool(remote)
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
    and that the set is dealt for the ruleset's table size and deck (docs/rules/common.md#cards: a
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
    format_of(spec).fit(spec, deal_count)
    whole(spec, "first", 1, deal_count)
    whole(spec, "boards", 1, deal_count - spec["first"] + 1)


def chunks(match: dict[str, Any], size: int, skip: AbstractSet[int] = frozenset()) -> list[tuple[int, int]]:
    """Board ranges of at most ``size`` boards still to play in ``match``."""
    todo = [n for n in range(match["first"], match["last"] + 1) if n not in skip]
    out: list[tuple[int, int]] = []
    for n in todo:
        if out and n == out[-1][1] + 1 and n - out[-1][0] < size:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


CONNECTED_SECONDS = 30
"""A remote bot that talked to the API this recently counts as connected (a long-poll
lasts at most 25 s, and a running bot opens the next one at once)."""


def waiting_for(store: Store, tournament: dict[str, Any]) -> list[dict[str, Any]]:
    """The remote entrants of a live tournament and what the tournament may be waiting
    for: whether each is connected, its open decisions, its timeouts so far."""
    if tournament["status"] not in ("queued", "running"):
        return []
    local = tournament.get("local") or {}
    remote = [b for b in entrants(tournament) if b not in local and entrant_kind(store.bot(b)).outside]
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


def evidence_of(match: dict[str, Any]) -> str:
    """What a comparison proves on each of its boards, named so that replaying it anywhere
    names it the same: how it was played (its kind's ``evidence_family``), the deal set, ruleset
    options and the two bots (in a fixed order). With a board number it names one piece
    of evidence, which counts once in the ratings. The ruleset is the ratings' own key."""
    low, high = sorted((match["x"], match["y"]))
    family = kind_of(match).evidence_family(match)
    return f"{family}{cards_of(match)}|{low}|{high}"


def cards_of(match: dict[str, Any]) -> str:
    """The cards a comparison was played on, but for the board number: its deal set and
    options. Every difference made on one board of them, by whichever bots, is one cluster
    of the ratings' robust standard errors (``server.arena.ratings.robust_variances``)."""
    options = json.dumps(match["options"], sort_keys=True, separators=(",", ":"))
    return f"{match['deals']}|{options}"


def canonical_order(comparison: dict[str, Any]) -> list[int]:
    """A comparison's place in canonical order, which completion time does not change: the
    tournament's number (tournaments are numbered as they are created; a rating history
    step each), then its matches by schedule index (ids ``t{n}.m{i}``, from
    ``Store.create_tournament``; a match of k entrants gives its entrant pairs theirs, after
    the match's place: ``MatchKind.comparisons``). It decides which of two comparisons
    holding the same evidence counts it, and nothing else."""
    if "order" in comparison:
        return comparison["order"]
    tid, index = comparison["id"].split(".m")
    return [int(tid[1:]), 0, int(index)]


def rate(store: Store, comparisons: Iterable[Comparison]) -> int:
    """Count comparisons of X with Y (matches, every two entrants of a field, a blind entrant
    against its reference bots) in the ratings; how many this call stored that rate bots.

    Their records are stored once each and the ratings are refitted to every record stored
    (``server.arena.ratings``), so they do not depend on which comparison completed first, nor
    on how boards were split into matches. A board already held by a comparison earlier in
    canonical order (the same bots, deals, options and board) counts there only, so a
    repeated tournament cannot rate the same evidence twice. One refresh per ruleset for the
    lot: a tournament is one step of the rating history.
    """
    now = time.time()
    by_ruleset: dict[str, list[dict[str, Any]]] = {}
    for c, scores in comparisons:
        if c["x"] != c["y"]:  # a built-in entrant against itself as the reference proves nothing
            by_ruleset.setdefault(c["ruleset"], []).append(_record(c, scores, now))
    moved = 0
    for ruleset, records in sorted(by_ruleset.items()):
        if store.legacy_ratings(ruleset):
            rebuild_ratings(store, [ruleset])
        with timed(RATINGS_SECONDS):
            added = store.add_comparisons(ruleset, records)
            store.refresh_ratings(ruleset)
        moved += len(store.counted(ruleset, added))
    return moved


def _record(c: dict[str, Any], scores: dict[int, int | float], t: float) -> dict[str, Any]:
    return record(c["id"], canonical_order(c), c["x"], c["y"], evidence_of(c), scores, t, cards_of(c))


def rate_tournament_end(store: Store, tid: str) -> int:
    """Follow-ups once every match of a tournament is complete, just before it is marked
    finished: every match's comparisons enter the ratings, in one step. Idempotent, like
    every rating. A blind movement's entrant pairs (``cross_comparisons``) are not rated:
    each is the difference of the two entrants' comparisons against the par room, which are.

    Not sooner: the matches of a tournament play the same boards, so a rating that moved
    when one match completed would tell the bots still playing those boards elsewhere how
    they went (docs/fair-play.md#one-visibility-rule). A tournament that never finishes
    (cancelled, failed) adds nothing to the ratings."""
    complete = store.complete_matches(tid)
    return rate(store, rated_comparisons(store, [mid for mid in store.match_ids(tid) if mid in complete]))


def rated_comparisons(store: Store, mids: Iterable[str]) -> list[Comparison]:
    """What these complete matches prove for the ratings: each one's comparisons (X against
    Y, or every two entrants of a field); nothing for a kind that is not rated."""
    out: list[Comparison] = []
    for mid in mids:
        match = store.match(mid)
        kind = kind_of(match)
        if kind.rated:
            out += kind.comparisons(store, match)
    return out


def after_match_progress(store: Store, match: dict[str, Any]) -> bool:
    """Follow-ups once a match is complete (every board stored, or its sequential test
    decided: ``match_sprt.decide``): its successors (Progressive's next round), then, when
    it was the last, the tournament's ratings and results (``finish_if_complete``).

    Idempotent, and called after every chunk and by the supervisor, so a job that
    crashed between storing the last board pair and these follow-ups has them done by
    whoever comes next. Returns True when the tournament is finished.
    """
    mid, tid = match["id"], match["tournament"]
    if mid not in store.complete_matches(tid) and not decide(store, match):
        return False
    kind_of(match).successors(store, match)  # seated once, whoever comes first (the job also enqueues them)
    return finish_if_complete(store, tid)


def rate_match(store: Store, match: Match) -> bool:
    """Count a complete match in the ratings (see ``rate``); True if this moved them."""
    return bool(rate(store, rated_comparisons(store, [match["id"]])))


def rebuild_ratings(store: Store, rulesets: Iterable[str] | None = None) -> dict[str, int]:
    """Recompute ratings from the stored board pairs alone: the records of every complete
    match of every finished tournament are made again and fitted, the history a step per
    tournament; a record that was stored keeps its time. For an upgrade that changes how
    evidence is named or ratings computed (ratings of an earlier model are rebuilt so before
    the next is rated: ``Store.legacy_ratings``), or to check them. Returns the comparisons
    that rate bots, per ruleset."""
    chosen = set(rulesets) if rulesets is not None else None
    steps: list[Comparison] = []
    for tid in store.tournament_ids():
        if store.tournament(tid)["status"] != "finished":
            continue  # rated when it finishes (rate_tournament_end), never before
        complete = store.complete_matches(tid)
        steps += rated_comparisons(store, [mid for mid in store.match_ids(tid) if mid in complete])
    names = {c["ruleset"] for c, _ in steps} | set(store.rating_rulesets())
    counted = {}
    now = time.time()
    for ruleset in sorted(names if chosen is None else names & chosen):
        rated = store.comparisons(ruleset)
        records = [
            _record(c, scores, rated[c["id"]]["t"] if c["id"] in rated else now)
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


def results(store: Store, tid: str) -> dict[str, Any]:
    """A tournament's results from its stored board records, as its format reads them,
    headed by the tournament's name (None when it has none)."""
    spec = store.tournament(tid)
    return {**format_of(spec).results(store, spec), "name": spec.get("name")}


def entrants(spec: Spec) -> list[str]:
    """Every bot in a tournament, in the order the request named them (a blind
    movement's reference bots included; a progressive entrant's bot once however often
    it is entered)."""
    return format_of(spec).entrants(spec)


def plan_matches(spec: Spec, deal_seed: str | None = None) -> list[Match]:
    """The matches stored when the tournament is created, all on boards of the same deal
    set (``Format.plan``; a Progressive tournament is seated from ``deal_seed``)."""
    return format_of(spec).plan(spec, deal_seed)


def planned_totals(spec: Spec) -> tuple[int, int] | None:
    """(matches, board pairs) a tournament whose later matches are added as it runs will
    have in all (``Store.create_tournament``); None for a format planned at once."""
    return format_of(spec).planned_totals(spec)
