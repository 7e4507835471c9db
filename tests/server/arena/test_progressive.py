"""The Progressive Cinch movement (docs/rules/progressive.md), rule by rule, on the pure
module: seats, cuts, moves and standings computed by hand from the section's text."""

import hashlib

import pytest

from server.arena.progressive import (
    TableResult,
    boards_of,
    bot_of,
    cut,
    default_rounds,
    field,
    first_seating,
    house_id,
    move,
    pair,
    seating_after,
    standings,
    winner,
)

S = "standard"


def h(text):
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


def test_11_1_field_fills_the_last_table_with_unranked_house_bots():
    assert field(["a", "b", "c", "d"]) == ["a", "b", "c", "d"]
    assert field(["a", "b", "c", "d", "e"]) == ["a", "b", "c", "d", "e", "rule#h1", "rule#h2", "rule#h3"]
    assert bot_of("rule#h1") == bot_of("rule#2") == bot_of("rule") == "rule" and house_id(3) == "rule#h3"
    rows = standings(S, ["a", "b", "c", "d", "e"], [TableResult(1, 2, ("e", "rule#h1", "rule#h2", "rule#h3"), 5, 1)])
    assert {r["bot"] for r in rows} == {"a", "b", "c", "d", "e"}, "house bots have no standing"


def test_11_3_rounds_default_to_2T_and_round_r_plays_boards_4r_minus_3_to_4r():
    assert [default_rounds(n) for n in (4, 5, 8, 9, 12)] == [2, 4, 4, 6, 6]
    assert [boards_of(r) for r in (1, 2, 4)] == [(1, 4), (5, 8), (13, 16)]


def test_11_4_the_higher_table_score_wins_and_equal_scores_go_to_the_cut():
    assert winner(S, 1, 1, 9, -3) == "NS" and winner(S, 1, 1, -3, 9) == "EW" and winner(S, 1, 1, -1, -2) == "NS"
    for r, t in [(1, 1), (1, 2), (2, 1), (3, 4), (7, 2)]:
        expected = "NS" if h(f"{S}/progressive/{r}/{t}") % 2 == 0 else "EW"
        assert cut(S, r, t) == expected == winner(S, r, t, 4, 4)
    assert {cut(S, r, 1) for r in range(1, 20)} == {"NS", "EW"}, "the cut goes both ways"


def test_11_5_first_seating_sorts_the_field_by_the_entrant_hash():
    entrants = [f"bot{i}" for i in range(6)]
    order = sorted(field(entrants), key=lambda e: h(f"{S}/progressive/entrant/{e}"))
    seating = first_seating(S, entrants)
    assert len(seating) == 2
    for i, e in enumerate(order):
        assert seating[i // 4]["NESW".index("NESW"[i % 4])] == e
    assert first_seating("other", entrants) != seating, "the seed decides"


T3 = [("n1", "e1", "s1", "w1"), ("n2", "e2", "s2", "w2"), ("n3", "e3", "s3", "w3")]


def test_11_6_head_table_keeps_its_winners_and_takes_the_winners_of_table_2():
    nxt = move(T3, ["NS", "EW", "NS"])
    assert set(nxt[0]) == {"n1", "s1", "e2", "w2"}


def test_11_6_a_middle_table_keeps_its_losers_and_takes_the_winners_of_the_table_below():
    nxt = move(T3, ["NS", "EW", "NS"])
    assert set(nxt[1]) == {"n2", "s2", "n3", "s3"}


def test_11_6_the_foot_table_keeps_its_losers_and_takes_the_head_tables_losers():
    nxt = move(T3, ["NS", "EW", "NS"])
    assert set(nxt[2]) == {"e3", "w3", "e1", "w1"}


def test_11_6_with_one_table_the_losers_stay_and_the_winners_arrive():
    assert move([("n", "e", "s", "w")], ["EW"]) == [("n", "s", "e", "w")]
    assert move([("n", "e", "s", "w")], ["NS"]) == [("e", "w", "n", "s")]


def test_11_6_with_two_tables_winners_go_up_and_losers_go_down():
    nxt = move(T3[:2], ["EW", "NS"])
    assert set(nxt[0]) == {"e1", "w1", "n2", "s2"} and set(nxt[1]) == {"e2", "w2", "n1", "s1"}


def test_11_7_stayers_take_N_and_E_arrivers_S_and_W_in_previous_seat_order_so_partners_divide():
    nxt = move(T3, ["NS", "EW", "NS"])
    assert nxt[0] == ("n1", "s1", "e2", "w2")  # stayers N1, S1; arrivers E2, W2 (E before W)
    assert nxt[1] == ("n2", "s2", "n3", "s3")  # stayers: table 2's losers N/S; arrivers: table 3's winners
    assert nxt[2] == ("e3", "w3", "e1", "w1")
    for table in nxt:
        assert pair(table, "NS") == (table[0], table[2]) and pair(table, "EW") == (table[1], table[3])
    for old in T3:
        for new in nxt:
            assert not {pair(new, "NS"), pair(new, "EW")} & {pair(old, "NS"), pair(old, "EW")}, "no pair stays"


def test_11_6_every_entrant_sits_once_a_round():
    seating = first_seating(S, [f"x{i}" for i in range(16)])
    for winners in (["NS"] * 4, ["EW", "NS", "EW", "NS"]):
        nxt = move(seating, winners)
        assert sorted(e for t in nxt for e in t) == sorted(e for t in seating for e in t)


def test_11_6_move_refuses_a_winner_count_that_is_not_the_table_count():
    with pytest.raises(ValueError):
        move(T3, ["NS", "EW"])


def test_seating_after_replays_the_movement_and_refuses_tables_seated_otherwise():
    entrants = [f"x{i}" for i in range(8)]
    one = first_seating(S, entrants)
    round1 = [TableResult(1, t, seats, 10 * t, 5) for t, seats in enumerate(one, 1)]
    two = seating_after(S, entrants, [round1])
    assert two == move(one, ["NS", "NS"])
    round2 = [TableResult(2, t, seats, 0, 3) for t, seats in enumerate(two, 1)]
    assert seating_after(S, entrants, [round1, round2]) == move(two, ["EW", "EW"])
    with pytest.raises(ValueError, match="not seated as the movement says"):
        seating_after(S, entrants, [round1, list(reversed(round2))])


def test_11_8_standing_by_rounds_won_then_net_then_lower_last_table_then_rank_hash():
    entrants = ["a", "b", "c", "d", "e", "f", "g", "i"]
    results = [
        TableResult(1, 1, ("a", "b", "c", "d"), 10, 2),  # a, c win by 8
        TableResult(1, 2, ("e", "f", "g", "i"), 3, 3),
    ]  # tied: the cut decides
    rows = {r["bot"]: r for r in standings(S, entrants, results)}
    assert rows["a"] == {"bot": "a", "rounds": 1, "rounds_won": 1, "net": 8, "last_table": 1}
    assert rows["b"]["net"] == -8 and rows["b"]["rounds_won"] == 0
    tied_winner = cut(S, 1, 2)
    ew_won = tied_winner == "EW"
    assert rows["f"]["rounds_won"] == rows["i"]["rounds_won"] == int(ew_won)
    order = [r["bot"] for r in standings(S, entrants, results)]
    # a and c: 1 win, net 8, table 1: the rank hash orders them
    assert order[:2] == sorted(["a", "c"], key=lambda e: h(f"{S}/progressive/rank/{e}"))
    # the cut's winners at table 2: 1 win, net 0: after a and c (lower net)
    assert set(order[2:4]) == ({"f", "i"} if ew_won else {"e", "g"})
    # then the table-2 losers (0 wins, net 0) before b and d (0 wins, net -8)
    assert set(order[4:6]) == ({"e", "g"} if ew_won else {"f", "i"}) and set(order[6:]) == {"b", "d"}


def test_11_8_the_lower_table_in_the_last_round_breaks_a_tie_of_wins_and_net():
    entrants = ["a", "b", "c", "d", "e", "f", "g", "i"]
    results = [TableResult(1, 1, ("a", "b", "c", "d"), 5, 3), TableResult(1, 2, ("e", "f", "g", "i"), 5, 3)]
    order = [r["bot"] for r in standings(S, entrants, results)]
    assert set(order[:2]) == {"a", "c"} and set(order[2:4]) == {"e", "g"}, "table 1 before table 2"
    assert set(order[4:6]) == {"b", "d"} and set(order[6:]) == {"f", "i"}
    later = results + [TableResult(2, 1, ("e", "b", "g", "d"), 0, 0), TableResult(2, 2, ("a", "f", "c", "i"), 0, 0)]
    rows = {r["bot"]: r for r in standings(S, entrants, later)}
    assert rows["a"]["last_table"] == 2 and rows["e"]["last_table"] == 1, "the last round's table counts"
