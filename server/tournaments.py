"""Tournaments: validating a request, scheduling its matches, and the final results.

A tournament is a list of duplicate matches on the same boards. Formats:

* ``round_robin``: every pair of ``bots`` plays one match;
* ``gauntlet``: every one of ``candidates`` plays every one of ``references``, so the
  candidates are compared on identical deals, seats and opponents.

Everything here is a function of what the store holds, so the results are the same
whoever computes them and however often.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any, Iterable

from .engine import RulesetError, make_ruleset
from .ratings import initial, update
from .stats import MatchStats, mirrored, summarize
from .store import Store

FORMATS = ("round_robin", "gauntlet")
STATUSES = ("queued", "running", "interrupted", "cancelled", "finished", "failed")
DEFAULTS = {"format": "round_robin", "ruleset": "american62", "options": {}, "deals": "standard",
            "first": 1, "boards": 100, "chunk": 20, "seed": 1, "limits": {}}
LIMITS = {"decision_ms": (50, 600_000), "bank_ms": (0, 3_600_000), "max_timeouts": (0, 10_000)}


class SpecError(ValueError):
    """A tournament request that cannot be run; the message names the field."""


def _names(spec: dict[str, Any], field: str, known: Iterable[str]) -> list[str]:
    names = spec.get(field)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SpecError(f"{field} must be a list of bot names")
    unknown = [n for n in names if n not in set(known)]
    if unknown:
        raise SpecError(f"{field}: unknown bot {unknown[0]!r} (known: {', '.join(sorted(known))})")
    if len(set(names)) != len(names):
        raise SpecError(f"{field} names a bot twice")
    return names


def _whole(spec: dict[str, Any], field: str, low: int, high: int | None = None) -> int:
    value = spec.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise SpecError(f"{field} must be a whole number {bound}, not {value!r}")
    return value


def validate(request: dict[str, Any], known_bots: Iterable[str], deal_count: int) -> dict[str, Any]:
    """A complete, checked tournament spec from a request with defaults filled in."""
    known_bots = list(known_bots)
    allowed = {*DEFAULTS, "bots", "candidates", "references"}
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise SpecError(f"unknown field {unknown[0]!r}")
    spec = {**DEFAULTS, **request}
    if spec["format"] not in FORMATS:
        raise SpecError(f"format must be one of {', '.join(FORMATS)}, not {spec['format']!r}")
    try:
        make_ruleset(spec["ruleset"], spec["options"])
    except RulesetError as exc:
        raise SpecError(str(exc)) from None
    if spec["format"] == "round_robin":
        if len(_names(spec, "bots", known_bots)) < 2:
            raise SpecError("bots: a round robin needs at least two bots")
    else:
        candidates = _names(spec, "candidates", known_bots)
        references = _names(spec, "references", known_bots)
        if not candidates or not references:
            raise SpecError("a gauntlet needs at least one candidate and one reference")
        if set(candidates) & set(references):
            raise SpecError("a bot cannot be both a candidate and a reference")
    first = _whole(spec, "first", 1, deal_count)
    _whole(spec, "boards", 1, deal_count - first + 1)
    _whole(spec, "chunk", 1)
    _whole(spec, "seed", 0)
    limits = spec["limits"]
    if not isinstance(limits, dict):
        raise SpecError("limits must be an object with decision_ms, bank_ms and max_timeouts")
    for name, value in limits.items():
        if name not in LIMITS:
            raise SpecError(f"limits: unknown limit {name!r} (known: {', '.join(LIMITS)})")
        _whole(limits, name, *LIMITS[name])
    return spec


def pairings(spec: dict[str, Any]) -> list[tuple[str, str]]:
    if spec["format"] == "round_robin":
        return list(combinations(spec["bots"], 2))
    return [(c, r) for c in spec["candidates"] for r in spec["references"]]


def plan_matches(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """One match per pairing, all on boards first..first+boards-1 of the same deal set."""
    last = spec["first"] + spec["boards"] - 1
    return [{"x": x, "y": y, "ruleset": spec["ruleset"], "options": spec["options"], "deals": spec["deals"],
             "first": spec["first"], "last": last, "seed": spec["seed"], "limits": spec["limits"]}
            for x, y in pairings(spec)]


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
    """Every bot in a tournament, in the order the request named them."""
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
        out.append({"bot": bot, "connected": seen is not None and now - seen < CONNECTED_SECONDS,
                    "seen_seconds_ago": None if seen is None else round(max(now - seen, 0.0), 1),
                    "open_decisions": store.open_count(bot), "timeouts": timeouts.get(bot, 0)})
    return out


def match_stats(store: Store, mid: str) -> MatchStats:
    scores = store.scores(mid)
    return summarize([scores[b] for b in sorted(scores)])


def evidence_of(match: dict[str, Any], board: int) -> str:
    """What a board pair proves, named so that replaying it anywhere names it the same:
    the deal set, ruleset options, board number and the two bots (in a fixed order).
    The ruleset itself is the ratings' own key."""
    options = json.dumps(match["options"], sort_keys=True, separators=(",", ":"))
    low, high = sorted((match["x"], match["y"]))
    return f"{match['deals']}|{options}|{board}|{low}|{high}"


def rate_match(store: Store, match: dict[str, Any]) -> bool:
    """Count a complete match in the ratings, on the board pairs never counted before.

    The match enters as one result: a win when the mean over those boards has a 95%
    interval that excludes zero, a draw otherwise. A match whose every board was
    already counted (the same bots, deals, options and boards in an earlier tournament)
    moves nothing, so a repeated tournament cannot rate the same evidence twice.
    """
    if store.rated(match["ruleset"], match["id"]):
        return False
    scores = store.scores(match["id"])

    def update_with(x: dict | None, y: dict | None, fresh: list[int]) -> tuple[dict, dict]:
        outcome = summarize([scores[b] for b in fresh]).outcome()
        return update(x or initial(), y or initial(), outcome, len(fresh))

    evidence = {b: evidence_of(match, b) for b in scores}
    return store.apply_rating(match["ruleset"], match["id"], (match["x"], match["y"]), evidence, update_with)


def after_match_progress(store: Store, match: dict[str, Any]) -> bool:
    """Follow-ups once a match is complete: its rating, then the tournament's results.

    Idempotent, and called after every chunk and by the supervisor, so a job that
    crashed between storing the last board pair and these follow-ups has them done by
    whoever comes next. Returns True when the tournament is finished.
    """
    mid, tid = match["id"], match["tournament"]
    if mid not in store.complete_matches(tid):
        return False
    rate_match(store, match)
    return finish_if_complete(store, tid)


def rebuild_ratings(store: Store, rulesets: Iterable[str] | None = None) -> dict[str, int]:
    """Recompute ratings from the stored board pairs alone: every complete match of every
    tournament, in the order the tournaments were created. Returns matches counted per ruleset."""
    chosen = set(rulesets) if rulesets is not None else None
    matches = [store.match(mid) for tid in store.tournament_ids() for mid in store.match_ids(tid)
               if mid in store.complete_matches(tid)]
    names = {m["ruleset"] for m in matches} | set(store.rating_rulesets())
    counted = {}
    for ruleset in sorted(names if chosen is None else names & chosen):
        store.clear_ratings(ruleset)
        counted[ruleset] = sum(rate_match(store, m) for m in matches if m["ruleset"] == ruleset)
    return counted


def finish_if_complete(store: Store, tid: str) -> bool:
    tournament = store.tournament(tid)
    if tournament["status"] == "finished":
        return True
    if len(store.complete_matches(tid)) < tournament["matches_total"]:
        return False
    store.finish_tournament(tid, results(store, tid))
    return True


def results(store: Store, tid: str) -> dict[str, Any]:
    """Standings, cross-table and per-match statistics from the stored board pairs."""
    spec = store.tournament(tid)
    matches = []
    cross: dict[str, dict[str, Any]] = {}
    table: dict[str, dict[str, Any]] = {}
    for mid in store.match_ids(tid):
        match = store.match(mid)
        stats = match_stats(store, mid)
        matches.append({"id": mid, "x": match["x"], "y": match["y"], "status": match["status"],
                        "stats": stats.to_dict()})
        for me, other, st in ((match["x"], match["y"], stats), (match["y"], match["x"], mirrored(stats))):
            cross.setdefault(me, {})[other] = st.to_dict()
            row = table.setdefault(me, {"bot": me, "matches": 0, "match_wins": 0, "match_draws": 0,
                                        "boards": 0, "total": 0, "won": 0, "tied": 0, "lost": 0})
            row["matches"] += 1
            row["match_wins"] += st.outcome() == 1
            row["match_draws"] += st.outcome() == 0
            for field in ("boards", "total", "won", "tied", "lost"):
                row[field] += getattr(st, field)
    for row in table.values():
        row["mean"] = round(row["total"] / row["boards"], 4) if row["boards"] else 0.0
    standings = sorted(table.values(), key=lambda r: (-r["mean"], r["bot"]))
    return {"tournament": tid, "format": spec["format"], "ruleset": spec["ruleset"],
            "standings": standings, "crosstable": cross, "matches": matches}
