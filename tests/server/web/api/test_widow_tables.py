"""A widow_cinch table over the API: six built-in bots play a game to 51 on real workers,
three sides of two scoring, and every stored hand replays to its result and the game's
scores (the order of docs/rules/widow_cinch.md#game decides who reaches the target)."""

import pytest
from support.apiclient import ADMIN
from support.schema_checks import check_record_replays
from test_tables import wait_table

from server.engine import make_ruleset

pytestmark = pytest.mark.e2e

SEATS = ("P1", "P2", "P3", "P4", "P5", "P6")


def test_a_widow_cinch_table_of_built_in_bots_plays_to_the_end(api, rq_workers):
    created = api.call(
        "POST",
        "/api/v1/tables",
        ADMIN,
        json={"ruleset": "widow_cinch", "seats": {s: ("rule", "random", "rule")[i % 3] for i, s in enumerate(SEATS)}},
    )
    assert created.status_code == 201, created.text
    final, _ = wait_table(api, created.json()["id"])
    rules = make_ruleset("widow_cinch")
    assert set(final["scores"]) == {"P1P4", "P2P5", "P3P6"}
    assert final["winner"] in final["scores"] and final["scores"][final["winner"]] >= rules.target
    check_record_replays(api, final, rules, SEATS)
    page = api.call("GET", f"/tables/{final['id']}/hands/1")
    assert page.status_code == 200 and "P1P4" in page.text
