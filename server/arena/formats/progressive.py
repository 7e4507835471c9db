"""Progressive Cinch (docs/rules/progressive.md): individual entrants at tables of four,
four boards a round, the winning pair of a table moving up and the partners dividing.

Each table of a round is one 4-board match of one room a board (a **table** match);
the next round's tables are added once a round is complete (``advance``), by the job that
stored its last board or by the supervisor. The pure movement is ``server.arena.progressive``;
this module stores and reads it. Its results are not rated (docs/formats.md: a table's
partners and opponents change every round, so its margins do not compare two bots).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from server.arena.duplicate import play_table
from server.arena.formats.base import (
    Format,
    Match,
    MatchKind,
    PlayContext,
    Record,
    Roster,
    Spec,
    SpecError,
    common,
    entrants_per_match,
    names,
    whole,
)
from server.arena.formats.pair import FIELD
from server.arena.formats.standings import seated_summary
from server.arena.progressive import (
    BOARDS_PER_ROUND,
    COPY,
    MIN_ENTRANTS,
    Seating,
    TableResult,
    boards_of,
    bot_of,
    default_rounds,
    first_seating,
    seating_after,
    standings,
    tables_for,
)
from server.arena.registry import entrant_kind
from server.arena.stats import summarize
from server.arena.store import Store
from server.engine import SEATS, Board, make_ruleset

BASE_RULESET = "foster51"  # docs/rules/progressive.md: "the ordinary game of Cinch is played"
MAX_ROUNDS = 250  # the published 4-seat set's 1,000 boards


class TableKind(MatchKind):
    """A Progressive table: four individual entrants at N, E, S, W, one room a board;
    every entrant's board score is its side's net."""

    name = "progressive"
    rated = False
    several = True
    against = "the other pair: the entrant's side's net at its table"

    def play(self, ctx: PlayContext, boards: list[tuple[int, Board]]) -> Iterator[Record]:
        return play_table(ctx.rules, boards, ctx.seated(), ctx.match["id"], ctx.halted)

    def entrant_scores(self, store: Store, match: Match) -> list[tuple[str, list[float]]]:
        return FIELD.entrant_scores(store, match)

    def seatings(self, match: Match, record: Record) -> list[dict[str, str]]:
        return [dict(zip(SEATS, match["entrants"]))]

    def room_label(self, record: Record, index: int) -> str:
        return "the table"

    def note(self, match: Match) -> str:
        n, e, s, w = match["entrants"]
        return (
            f"Progressive Cinch, round {match['round']}, table {match['table']}: one room a board, {n} and {s} (N/S) "
            f"against {e} and {w} (E/W); an entrant's board score is its pair's hand score less the other pair's. "
            f"The statistics below are {match['x']}'s."
        )

    def successors(self, store: Store, match: Match) -> list[Match]:
        if not advance(store, match["tournament"]):
            return []
        return [m for m in map(store.match, store.match_ids(match["tournament"])) if m["round"] == match["round"] + 1]


TABLE = TableKind()


class Progressive(Format):
    name = "progressive"
    summary = "Progressive Cinch: individuals at tables of four, winners move up, partners divide"
    untrusted = True
    plays_rounds = True
    default_ruleset = BASE_RULESET

    def complete(self, spec: Spec, request: dict[str, Any], roster: Roster) -> None:
        _complete(spec, request, roster)

    def entrants(self, spec: Spec) -> list[str]:
        """Each bot once however often it is entered (``name#2`` is the bot ``name`` again)."""
        return list(dict.fromkeys(bot_of(n) for n in spec.get("bots") or []))

    def competitors(self, spec: Spec) -> list[str]:
        return list(spec["bots"])

    def plan(self, spec: Spec, deal_seed: str | None) -> list[Match]:
        if deal_seed is None:
            raise ValueError("a progressive tournament is seated from its deal set's seed (docs/rules/progressive.md)")
        return round_matches(spec, 1, first_seating(deal_seed, spec["bots"]))

    def planned_totals(self, spec: Spec) -> tuple[int, int] | None:
        tables = tables_for(len(spec["bots"]))
        return tables * spec["rounds"], tables * spec["boards"]

    def fit(self, spec: Spec, deal_count: int) -> None:
        whole(spec, "rounds", 1, deal_count // BOARDS_PER_ROUND)

    def standings_note(self, spec: Spec) -> str:
        return "rounds won, then net points, then the lower table in the last round; not rated"

    def results(self, store: Store, spec: Spec) -> dict[str, Any]:
        return progressive_results(store, spec)


PROGRESSIVE = Progressive()


def _complete(spec: Spec, request: dict[str, Any], roster: Roster) -> None:
    """Check and complete a progressive tournament (docs/rules/progressive.md): a 4-seat partnership
    ruleset, at least ``MIN_ENTRANTS`` bots, ``rounds`` (default ``2T``); its boards are
    fixed by the rounds (round r plays boards 4r-3..4r), one job a table unless ``chunk``
    says. Every entrant plays each board once, so untrusted bots may enter."""
    rules = make_ruleset(spec["ruleset"], spec["options"])
    if rules.players != 4 or entrants_per_match(spec) != 2:
        raise SpecError(
            f"ruleset: Progressive Cinch is played by two partnerships at tables of four "
            f"(docs/rules/progressive.md); {spec['ruleset']} with {rules.players} players is not: play "
            f"{BASE_RULESET} (the default: leave ruleset out) or another four-seat partnership game such as american62"
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
    names({"bots": PROGRESSIVE.entrants(spec)}, "bots", roster)
    twice = [n for n in bots if n != bot_of(n) and entrant_kind(roster[bot_of(n)]).outside]
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
    whole(spec, "rounds", 1, MAX_ROUNDS)
    spec.update(first=1, boards=BOARDS_PER_ROUND * spec["rounds"])
    if "chunk" not in request:
        spec["chunk"] = BOARDS_PER_ROUND


def round_matches(spec: dict[str, Any], round_: int, seating: Seating) -> list[dict[str, Any]]:
    """A progressive round's tables as matches of one room a board: ``entrants`` at N, E,
    S, W (``x``, ``y`` the first two), boards ``4r-3..4r``. Match ``(r-1)T + t`` of the
    tournament is table ``t`` of round ``r``, so a round added twice keeps its ids."""
    first, last = boards_of(round_)
    out = []
    for table, seats in enumerate(seating, 1):
        match = {
            "kind": TABLE.name,
            "round": round_,
            "table": table,
            "entrants": list(seats),
            "x": seats[0],
            "y": seats[1],
            "first": first,
            "last": last,
            **common(spec),
        }
        if "id" in spec:
            match["id"] = f"{spec['id']}.m{(round_ - 1) * len(seating) + table}"
        out.append(match)
    return out


def deal_seed(store: Store, spec: dict[str, Any]) -> str:
    """``S`` of docs/rules/progressive.md: the tournament's deal-set seed (kept in the store, and
    served only once a secret set's tournament is finished)."""
    return (store.dealset_meta(spec["deals"]) or {})["seed"]


def table_scores(store: Store, match: dict[str, Any]) -> tuple[int, int, int]:
    """A progressive table's (N/S table score, E/W table score, boards stored): the sums
    of the pairs' hand score changes over its boards stored so far (docs/rules/progressive.md#rounds)."""
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
    matches added (0 mid-round, or after the last round)."""
    spec = store.tournament(tid)
    if not _next_round_due(store, spec):
        return 0
    rounds = progressive_rounds(store, spec)
    if len(rounds) >= spec["rounds"] or any(result is None for _, result in rounds[-1]):
        return 0
    seating = seating_after(deal_seed(store, spec), spec["bots"], [_finished(tables) for tables in rounds])
    return store.add_matches(tid, round_matches(spec, len(rounds) + 1, seating))


def _finished(tables: list[tuple[dict[str, Any], TableResult | None]]) -> list[TableResult]:
    """A round's table results, every one stored: a round is seated only once the one
    before it is finished, so a missing one is a broken tournament, said so."""
    results = [r for _, r in tables if r is not None]
    if len(results) != len(tables):
        raise ValueError(f"round {tables[0][0]['round']} of a progressive tournament has a table without its result")
    return results


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


def progressive_results(store: Store, spec: Spec) -> dict[str, Any]:
    """A progressive tournament's results over the tables finished so far: the standings
    of docs/rules/progressive.md#standing (``server.arena.progressive.standings``; the house entrants have no
    row), each round's tables (seats, table scores, winner) and each table as a match.

    A standings row has the common shape, read the progressive way: ``matches`` the
    rounds (tables) finished, ``match_wins`` the rounds won, ``total`` the net points (its
    pair's table score less the other pair's), ``boards``, ``won``/``tied``/``lost`` and
    ``mean`` over its boards' nets, and ``last_table`` the tie-break's table."""
    seed = deal_seed(store, spec)
    rounds = progressive_rounds(store, spec)
    nets: dict[str, list[float]] = {}
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
                "ci_low": st.ci_low,
                "ci_high": st.ci_high,
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
    matches = [seated_summary(match, TABLE.entrant_stats(store, match)) for tables in rounds for match, _ in tables]
    return {
        "tournament": spec["id"],
        "format": spec["format"],
        "ruleset": spec["ruleset"],
        "standings": standing,
        "standings_note": PROGRESSIVE.standings_note(spec),
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
