"""auction_cinch in duplicate play (docs/rules/duplicate.md#single-seats, #net): a board is played in five
(six) rooms, each entrant holding every seat once, its score the sum of its nets against
the field; a tournament needs as many entrants as the table has seats, and says so."""

from __future__ import annotations

import pytest

from server.arena.duplicate import play_boards
from server.arena.formats.base import SpecError
from server.arena.registry import builtin_roster
from server.arena.tournaments import validate
from server.engine import generate_board, make_ruleset, seats_for
from workers.bots import BUILTIN, RandomBot, RuleBot, SearchBot


@pytest.mark.parametrize("k", [5, 6])
def test_every_entrant_holds_every_seat_once_and_the_nets_sum_to_zero(k):
    rules = make_ruleset("auction_cinch", {"players": k})
    boards = [(n, generate_board("auction-cinch-matches", n, seats_for(k))) for n in (1, 2)]
    entrants = [SearchBot(1, samples=3), RuleBot(2), *(RandomBot(i) for i in range(k - 2))]
    records = list(play_boards(rules, boards, entrants))
    assert [r["board"] for r in records] == [1, 2]
    for record in records:
        assert len(record["rooms"]) == k
        seats = seats_for(k)
        assert [room["units"] for room in record["rooms"]] == [[seats[(j + r) % k] for j in range(k)] for r in range(k)]
        assert abs(sum(record["entrant_scores"])) < 1e-9
        for room in record["rooms"]:
            assert any(a["type"] == "call" for a in room["actions"])


def test_a_tournament_of_auction_cinch_needs_as_many_bots_as_seats():
    with pytest.raises(SpecError, match="needs at least 5 bots"):
        validate(
            {"ruleset": "auction_cinch", "bots": sorted(BUILTIN), "format": "round_robin"}, builtin_roster(BUILTIN)
        )
    with pytest.raises(SpecError, match="needs at least 5 references"):
        validate(
            {
                "ruleset": "auction_cinch",
                "options": {"players": 6},
                "format": "gauntlet",
                "candidates": ["search"],
                "references": ["random", "rule"],
            },
            builtin_roster(BUILTIN),
        )
