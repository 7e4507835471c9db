"""The sequential test (``server.arena.sequential``) on a stored match: which scores it reads,
and deciding a match of an SPRT tournament.

A tournament with ``sprt`` tests each two-room match on its own: X's mean per board
against ``delta0`` (H0) and ``delta1`` (H1), at most the tournament's ``boards``. The test
walks X's scores in the order the match plays its boards (``server.arena.order``: board
order, or a secret one with a remote entrant), so its answer depends only on the stored
scores and the arena's secret: every
process that looks (the job that stored a pair, the supervisor, the API) finds the same
decision at the same board, and a match cannot be decided two ways. Once it decides,
the match is complete with the boards it has (``Store.complete_match``): no board of it
is claimed or stored afterwards, so the ratings and results use exactly those boards.
"""

from __future__ import annotations

from dataclasses import asdict
from itertools import takewhile
from typing import Any

from server.arena.order import play_order
from server.arena.sequential import Sprt, SprtResult, run
from server.arena.stats import corrected
from server.arena.store import Store
from server.engine import game_spec, make_ruleset

DECIDED = ("H1", "H0")


def score_bound(ruleset: str, options: dict[str, Any] | None = None) -> float:
    """The largest |score| of a board pair of the ruleset: two rooms, each at most its
    game's ``swing`` (``server.engine.rulesets.GameSpec``). ValueError, meant for users,
    where the game declares none or is not played by two sides: the test's error rates
    hold only for scores within a known bound."""
    rules = make_ruleset(ruleset, options or {})
    spec = game_spec(rules)
    if spec.swing is None or len(spec.sides(rules.players)[0]) != 2:
        raise ValueError(
            f"the sequential test needs a bound on the board scores, and {ruleset} with {rules.players} players "
            "has none worked out (it is for games of two sides)"
        )
    return 2.0 * spec.swing


def match_test(match: dict[str, Any]) -> Sprt | None:
    """The match's test settings (its boards are the most it plays), or None without one."""
    settings = match.get("sprt")
    if not settings:
        return None
    bound = score_bound(match["ruleset"], match["options"])
    return Sprt(**settings, max_boards=match["last"] - match["first"] + 1, bound=bound)


def sprt_scores(store: Store, mid: str) -> list[float]:
    """The scores the test reads: X's luck-corrected scores (``server.arena.stats.corrected``)
    on the match's boards in play order, up to the first one not stored yet. The one place
    that says which scores the test uses: corrected, for the same expectation with less
    noise (a board stored before the luck was measured counts as luck 0, i.e. raw)."""
    scores, lucks = store.scores(mid), store.lucks(mid)
    boards = list(takewhile(scores.__contains__, play_order(store.secret(), store.match(mid))))
    return corrected([scores[b] for b in boards], [lucks.get(b, 0.0) for b in boards])


def sprt_result(store: Store, match: dict[str, Any]) -> SprtResult | None:
    """Where the match's test stands on the boards stored so far (None without a test)."""
    test = match_test(match)
    return None if test is None else run(sprt_scores(store, match["id"]), test)


def sprt_summary(store: Store, match: dict[str, Any]) -> dict[str, Any] | None:
    """The test's standing as served (API, reports, pages): decision, boards used, LLR
    and its bounds, X's mean per board with its 95% interval."""
    result = sprt_result(store, match)
    return None if result is None else asdict(result)


def decide(store: Store, match: dict[str, Any]) -> bool:
    """Complete the match if its test has accepted H1 or H0; True when it is complete by
    a decision (now or before). Idempotent: called after every stored pair and by the
    supervisor, so a job that died between storing the deciding pair and deciding
    leaves it to whoever comes next."""
    result = sprt_result(store, match)
    if result is None or result.decision not in DECIDED:
        return False
    store.complete_match(match)
    return True
