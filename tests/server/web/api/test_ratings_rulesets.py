"""GET /api/v1/ratings/{ruleset} knows every registered ruleset (the family's leaderboards,
snoozer's included), not only the two Cinch rulesets; an unknown name is still a 404
naming the known ones. The board with entries is checked end to end in
tests/sdk/test_sdk_snoozer_match.py."""

import pytest

from server.engine import GAMES

pytestmark = pytest.mark.e2e


def test_every_registered_ruleset_has_a_leaderboard_and_a_history(api):
    api.register("historian")
    for ruleset in GAMES:
        board = api.call("GET", f"/api/v1/ratings/{ruleset}")
        assert board.status_code == 200, (ruleset, board.text)
        assert board.json() == {"ruleset": ruleset, "bots": []}
        history = api.call("GET", f"/api/v1/ratings/{ruleset}/historian/history")
        assert history.status_code == 200 and history.json()["points"] == []
    unknown = api.call("GET", "/api/v1/ratings/snoozer9")
    assert unknown.status_code == 404 and "snoozer9" in unknown.text and all(name in unknown.text for name in GAMES)
