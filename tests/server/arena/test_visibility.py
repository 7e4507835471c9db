"""The one visibility rule (``server.arena.visibility``): results and match statistics of a
running tournament count only the boards finished in every match that plays them, in every
format; Progressive's table results appear once the round is complete at every table."""

from support.tournament_checks import client  # noqa: F401 (a fixture)

from server.arena import dealsets
from server.arena.registry import builtin_roster
from server.arena.tournaments import plan_matches, planned_totals, validate
from server.arena.visibility import finished_boards, gated
from server.web.readmodel import results_of
from workers.bots import BUILTIN
from workers.jobs import play_chunk_with

ROSTER = builtin_roster(BUILTIN)
DEALS = dealsets.generate("visibility-test", 12)


def create(store, request, seed=None):
    store.put_dealset(DEALS)
    spec = validate({**request, "deals": DEALS.name}, ROSTER)
    return store.create_tournament(spec, plan_matches(spec, seed), "test", 60_000, planned_totals(spec))


def test_a_board_counts_only_once_every_match_has_played_it(store, client):
    tid = create(store, {"bots": ["random", "rule", "search"], "boards": 4, "chunk": 4})
    first, second, third = store.match_ids(tid)
    play_chunk_with(store, first, 1, 4)
    play_chunk_with(store, second, 1, 2)
    assert finished_boards(store, tid) == set(), "the third match has played nothing"
    hidden = client.get(f"/api/v1/tournaments/{tid}/results").get_json()
    assert all(row["boards"] == 0 and row["total"] == 0 for row in hidden["standings"])
    assert all(m["stats"]["boards"] == 0 for m in hidden["matches"])
    served = client.get(f"/api/v1/tournaments/{tid}/matches").get_json()
    assert all(m["stats"]["boards"] == 0 for m in served), "the match that finished shows no score either"
    play_chunk_with(store, third, 1, 2)
    assert finished_boards(store, tid) == {1, 2}
    shown = client.get(f"/api/v1/tournaments/{tid}/results").get_json()
    assert all(m["stats"]["boards"] == 2 for m in shown["matches"])
    assert sum(gated(store, tid).scores(first).values()) == sum(store.scores(first)[b] for b in (1, 2))


def test_a_blind_movement_hides_an_entrants_score_until_every_entrant_has_played_the_board(store, client):
    tid = create(store, {"format": "blind", "bots": ["random", "search"], "boards": 3})
    a, b = store.match_ids(tid)
    play_chunk_with(store, a, 1, 3)
    assert client.get(f"/api/v1/tournaments/{tid}/results").get_json()["standings"][0]["boards"] == 0
    play_chunk_with(store, b, 1, 1)
    rows = client.get(f"/api/v1/tournaments/{tid}/results").get_json()["standings"]
    assert sorted(r["boards"] for r in rows) == [1, 1]


def test_a_progressive_round_shows_its_tables_results_only_when_every_table_is_done(store, client):
    tid = create(
        store,
        {
            "format": "progressive",
            "bots": ["random", "rule", "search", "rule#2", "random#2", "search#2", "rule#3", "random#3"],
            "rounds": 2,
        },
        DEALS.seed,
    )
    table1, table2 = store.match_ids(tid)
    play_chunk_with(store, table1, 1, 4)
    res = client.get(f"/api/v1/tournaments/{tid}/results").get_json()
    tables = res["rounds"][0]["tables"]
    assert all(t["winner"] is None and t["boards"] == 0 and t["ns"] == t["ew"] == 0 for t in tables)
    assert all(row["boards"] == 0 for row in res["standings"])
    play_chunk_with(store, table2, 1, 4)
    res = client.get(f"/api/v1/tournaments/{tid}/results").get_json()
    assert all(t["winner"] is not None and t["boards"] == 4 for t in res["rounds"][0]["tables"])


def test_results_are_read_whole_once_finished(store):
    tid = create(store, {"bots": ["random", "rule"], "boards": 2})
    [mid] = store.match_ids(tid)
    play_chunk_with(store, mid, 1, 2)
    assert store.tournament(tid)["status"] == "finished"
    assert gated(store, tid) is store and results_of(store, tid)["matches"][0]["stats"]["boards"] == 2
