"""Progressive Cinch through the SDK against a real API server and RQ workers: created
with ``create_tournament(format="progressive", rounds=...)``, its rounds and standings
parsed into ``ProgressiveRound`` / ``ProgressiveTable`` / ``Standing``, a bad request
raised as a 422 ``ApiError``."""

import pytest
from support.sdkharness import ADMIN, run_cli

import sdk

pytestmark = pytest.mark.e2e

ENTRANTS = ["random", "rule", "random#2", "rule#2", "search"]


def test_a_progressive_tournament_through_the_sdk(server, rq_workers, admin):
    tid = admin.create_tournament(ENTRANTS, format="progressive", rounds=2)
    t = admin.wait_for_tournament(tid, poll=0.2, timeout=180)
    assert t.is_finished and t.format == "progressive" and t.rounds == 2 and t.pairs_done == t.pairs_total == 16
    res = admin.results(tid)
    assert [r.round for r in res.rounds] == [1, 2] and all(len(r.tables) == 2 for r in res.rounds)
    for rd in res.rounds:
        assert (rd.first, rd.last) == (4 * rd.round - 3, 4 * rd.round)
        for table in rd.tables:
            assert isinstance(table, sdk.ProgressiveTable) and table.boards == 4
            assert table.winner in ("NS", "EW") and table.winners == table.pair(table.winner)
            assert (table.ns > table.ew) == (table.winner == "NS") or table.ns == table.ew
            pair = admin.board_pair(table.match, rd.first)
            assert len(pair.rooms) == 1
    seated = sorted(e for table in res.rounds[0].tables for e in table.seats.values())
    assert seated == sorted(ENTRANTS + ["rule#h1", "rule#h2", "rule#h3"])
    assert [s.bot for s in res.standings] and {s.bot for s in res.standings} == set(ENTRANTS)
    assert sum(s.rounds_won for s in res.standings) <= 2 * 2 * 2
    best = res.standings[0]
    assert best.rounds_won == max(s.rounds_won for s in res.standings) and best.last_table in (1, 2)
    assert admin.ratings("foster51").bots == [], "progressive results are not rated"


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"bots": ["random", "rule"]}, "at least 4 entrants"),
        ({"bots": ENTRANTS, "rounds": 0}, "rounds"),
        ({"bots": ENTRANTS, "boards": 8}, "boards"),
    ],
)
def test_bad_progressive_requests_raise_422(server, admin, kwargs, words):
    with pytest.raises(sdk.ApiError) as caught:
        admin.create_tournament(format="progressive", **kwargs)
    assert caught.value.status == 422 and words in str(caught.value)


def test_the_remote_cli_creates_watches_and_prints_a_progressive_tournament(server, rq_workers):
    url = ["--server", server.url]
    created = run_cli(
        "remote",
        "tournament",
        "create",
        "--admin-token",
        ADMIN,
        "--format",
        "progressive",
        "--rounds",
        "1",
        "--bots",
        "random",
        "rule",
        "rule#2",
        "random#2",
        "--watch",
        *url,
        timeout=120,
    )
    assert created.returncode == 0, created.stderr
    tid = created.stdout.split()[0]
    assert "Round 1 (boards 1-4)" in created.stdout and "rounds won" in created.stdout
    standings = run_cli("remote", "standings", tid, *url)
    assert standings.returncode == 0 and "table 1:" in standings.stdout and "Round 2" not in standings.stdout
    refused = run_cli(
        "remote",
        "tournament",
        "create",
        "--admin-token",
        ADMIN,
        "--format",
        "progressive",
        "--bots",
        "random",
        "rule",
        *url,
    )
    assert refused.returncode == 2 and "at least 4 entrants" in refused.stderr and "Traceback" not in refused.stderr
