"""Matches of k entrants (a ruleset with k > 2 units: single seats, docs/rules/duplicate.md).

Such a match plays each board in every room of its seating plan (``workers.match.seatings``:
``rotate``, k rooms, or ``permute``, all k! seatings), every entrant holding every unit
once per rotation, and scores each entrant by its nets against the field: in a room a
unit's net is its score change less the mean change of the other units, and an entrant's
board score is the sum of its nets over the rooms. The board scores of a board sum to zero.

What a tournament reads from such a match, all from the stored per-board entrant scores
(``Store.entrant_scores``):

* each entrant's statistics (``entrant_stats``): its board scores summarized as a match's
  are (mean, 95% interval, boards with a positive, zero, negative score: won, tied, lost
  against the field);
* each two entrants compared on the match's boards (``pairwise``): per board, the first's
  board score minus the second's, the same cards, seats and field for both. These are the
  comparisons the ratings take (one openskill result each, a win when its 95% interval
  excludes zero) and the tournament's cross-table sums. Pairwise comparisons keep the
  ratings' one-result-of-two shape, its evidence ownership and its replay order; a
  finishing order of k would rank entrants that the interval cannot tell apart.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .stats import MatchStats, summarize
from .store import Store

KIND = "field"


def is_field(match: dict[str, Any]) -> bool:
    """Whether a stored match (or comparison) is one of k entrants."""
    return match.get("kind") == KIND


def entrant_stats(store: Store, match: dict[str, Any]) -> list[tuple[str, MatchStats]]:
    """Each entrant with the statistics of its board scores so far, in board order."""
    scores = store.entrant_scores(match["id"])
    boards = sorted(scores)
    return [(bot, summarize([scores[b][j] for b in boards])) for j, bot in enumerate(match["entrants"])]


def difference(a: float, b: float) -> int | float:
    """``a - b`` of two board scores (multiples of 1/(k-1)), whole numbers kept whole."""
    d = round(a - b, 6)
    return int(d) if d == int(d) else d


def pairwise(store: Store, match: dict[str, Any]) -> list[tuple[dict[str, Any], dict[int, int | float]]]:
    """Every two entrants of the match compared on the boards stored: a comparison shaped
    like a match (an id of its own, ``order`` after the match's place in the schedule) and,
    per board, the first entrant's board score minus the second's."""
    scores = store.entrant_scores(match["id"])
    tid, index = match["id"].split(".m")
    out = []
    for j, (a, b) in enumerate(combinations(range(len(match["entrants"])), 2), 1):
        x, y = match["entrants"][a], match["entrants"][b]
        comparison = {
            "id": f"{match['id']}:{x}~{y}",
            "kind": KIND,
            "x": x,
            "y": y,
            "entrants": match["entrants"],
            "rooms": match["rooms"],
            "ruleset": match["ruleset"],
            "options": match["options"],
            "deals": match["deals"],
            "order": [int(tid[1:]), 0, int(index), j],
        }
        out.append((comparison, {n: difference(s[a], s[b]) for n, s in scores.items()}))
    return out


def field_evidence(match: dict[str, Any]) -> str:
    """The part of a comparison's evidence name that says it was played in a field: the
    seating plan and every entrant (the same two bots in another field prove another thing)."""
    return f"{KIND}:{match['rooms']}:{','.join(sorted(match['entrants']))}|" if is_field(match) else ""
