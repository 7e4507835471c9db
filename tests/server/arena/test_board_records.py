"""One board record shape (``server.arena.formats.boards.board_view``) for every kind of match
and table size: who sat where in each room, each unit's net and each scored entrant's score,
checked against what the stored record itself says."""

from collections import Counter

import pytest
from support.tournament_checks import play_tournament

from server.arena import dealsets
from server.arena.duplicate import as_number, net
from server.arena.formats import kind_of
from server.arena.formats.boards import board_view
from server.arena.registry import builtin_roster
from server.arena.tournaments import plan_matches, planned_totals, validate
from server.engine import make_ruleset, seats_for
from workers.bots import BUILTIN
from workers.jobs import play_chunk_with

ROSTER = builtin_roster(BUILTIN)
CASES = [
    ("pair", {"bots": ["random", "rule"]}, 4),
    ("field", {"ruleset": "seven_up", "options": {"players": 3}, "bots": ["random", "rule", "search"]}, 3),
    ("field", {"ruleset": "widow_cinch", "bots": ["random", "rule", "search"]}, 6),
    ("blind", {"format": "blind", "bots": ["random", "search"]}, 4),
    ("blind", {"format": "blind", "ruleset": "seven_up", "options": {"players": 3}, "bots": ["random"]}, 3),
    ("progressive", {"format": "progressive", "bots": ["random", "rule", "search", "rule#2"], "rounds": 1}, 4),
]


@pytest.mark.parametrize("kind, request_, players", CASES)
def test_every_kind_reads_as_one_board_shape(store, kind, request_, players):
    deals = dealsets.generate(f"records-{players}", 8, players=players)
    spec = validate(
        {**request_, "deals": deals.name, "boards": 2} if kind != "progressive" else {**request_, "deals": deals.name},
        ROSTER,
    )
    boards = 2 if kind != "progressive" else 4
    tid = play_tournament(store, spec, deals, boards) if kind != "progressive" else play_progressive(store, spec, deals)
    rules = make_ruleset(spec["ruleset"], spec["options"])
    seats = set(seats_for(rules.players))
    for mid in store.match_ids(tid):
        match = store.match(mid)
        assert kind_of(match).name == kind
        for number in range(match["first"], match["first"] + boards):
            record = store.pair(mid, number)
            view = board_view(match, record)
            assert view["board"] == number and len(view["rooms"]) == len(record["rooms"])
            for room in view["rooms"]:
                assert set(room["seats"]) == seats, "every seat is held"
                delta = room["hand"]["result"]["delta"]
                assert room["nets"] == {u: as_number(net(delta, u)) for u in delta}
            entrants = set(match.get("entrants") or [match["x"], match["y"]])
            held = Counter(e for room in view["rooms"] for e in room["seats"].values())
            assert set(held) <= entrants
            if kind in ("pair", "field"):  # every entrant holds every seat equally often over the rooms
                assert len(set(held.values())) == 1 and set(held) == entrants
            if kind == "pair":
                (first, second) = view["rooms"]
                assert first["seats"]["N"] == match["x"] == second["seats"]["E"]
                assert view["scores"] == {match["x"]: record["score"], match["y"]: -record["score"]}
            if kind == "blind":
                mine, par = view["rooms"]
                assert set(par["seats"].values()) == {match["y"]} and match["x"] in mine["seats"].values()
                side = record["side"]
                assert view["scores"][match["x"]] == pytest.approx(mine["nets"][side] - par["nets"][side])
            if kind in ("field", "progressive"):
                assert view["scores"] == dict(zip(match["entrants"], record["entrant_scores"]))


def play_progressive(store, spec, deals):
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec, deals.seed), "test", 60_000, planned_totals(spec))
    for mid in store.match_ids(tid):
        play_chunk_with(store, mid, 1, 4)
    return tid
