"""all_fives, one test per rule docs/rules/all_fives.md settles: pegs at once trick by trick,
the trump Jack pegging and scoring the Jack point, the Five counting 5 for Game, target 61."""

from __future__ import annotations

from support.allfours_decks import act, hand, turnup_deck

from server.engine import make_ruleset

PEG_DEAL = turnup_deck([["AD", "KD", "QD", "2C", "3C", "4C"], ["TD", "JD", "5D", "2H", "3H", "4H"]], "9D")
PEG_PLAYS = "AD TD KD JD QD 5D 2C 2H 3C 3H 4C 4H".split()


def test_pegs_are_scored_when_each_trick_is_won_and_the_jack_also_scores_its_point():
    state = act(hand("all_fives", PEG_DEAL, 2), "stand", *PEG_PLAYS[:2])
    assert state.describe()["items"] == [{"item": "peg", "side": "P1", "trick": 0, "value": 14}]
    act(state, *PEG_PLAYS[2:])
    items = [(i["item"], i["side"], i["value"], i.get("trick", i.get("card"))) for i in state.describe()["items"]]
    assert items == [
        ("peg", "P1", 14, 0),
        ("peg", "P1", 4, 1),
        ("peg", "P1", 7, 2),
        ("high", "P1", 1, "AD"),
        ("low", "P2", 1, "5D"),
        ("jack", "P1", 1, "JD"),
        ("game", "P1", 1, None),
    ]
    assert state.points() == state.delta() == (28, 1)


def test_the_five_of_trumps_counts_five_for_game():
    deal = turnup_deck([["KC", "AH", "QH", "2C", "3C", "4C"], ["5D", "2H", "3H", "4H", "5H", "6H"]], "9D")
    state = act(hand("all_fives", deal, 2), "stand", *"KC 5D 2H AH QH 3H 2C 4H 3C 5H 4C 6H".split())
    # pips: P1 AH 4 + QH 2 = 6; P2 KC 3, and the Five 5 more: 8
    assert [(i["item"], i["side"], i["value"]) for i in state.describe()["items"]] == [
        ("peg", "P2", 5),
        ("high", "P2", 1),
        ("low", "P2", 1),
        ("game", "P2", 1),
    ]


def test_in_a_game_play_stops_after_the_trick_whose_pegs_reach_61():
    assert make_ruleset("all_fives").target == 61
    state = act(hand("all_fives", PEG_DEAL, 2, scores=(55, 0), in_game=True), "stand", *PEG_PLAYS[:2])
    assert state.phase == "done" and len(state.tricks) == 1 and state.delta() == (14, 0)
    state = act(hand("all_fives", PEG_DEAL, 2, scores=(46, 0), in_game=True), "stand", *PEG_PLAYS[:2])
    assert state.phase == "play"
