"""seven_up, one test per rule docs/rules/seven_up.md, docs/rules/rulings.md#clarifications settle (turned Jacks, the beg,
runs and the refused suit, bunches, the discard, Game ties, a game's target)."""

from __future__ import annotations

import pytest
from support.allfours_decks import act, board, cards_in, deck_at, hand, item_list, play_out, run_start, turnup_deck

from server.engine import CARD_NAMES, IllegalAction, observation, replay
from server.engine.boards import bunch_order

LOW_CARDS = [r + s for s in "CDHS" for r in "23456789"]  # no pips for Game
PIP_VALUES = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}
MAX_RUNS = {2: 5, 3: 3, 4: 2}


def pips_won(state) -> dict[str, int]:
    """Pips per seat from the finished tricks' card strings (an oracle for Game)."""
    out = {seat: 0 for seat in state.seats}
    for trick in state.describe()["tricks"]:
        out[trick["winner"]] += sum(PIP_VALUES.get(p["card"][0], 0) for p in trick["plays"])
    return out


def test_a_turned_jack_scores_for_the_dealers_side_at_once_and_is_never_the_jack_point():
    state = hand("seven_up", deck_at({24: "JC"}), 4)  # dealer W
    assert state.phase == "beg" and state.seat_to_act() == "N"
    assert state.describe()["items"] == [{"item": "turned-jack", "side": "EW", "value": 1, "card": "JC"}]
    play_out(act(state, "stand"))
    assert state.trump_name() == "C"
    assert "jack" not in [i[0] for i in item_list(state)]
    assert state.delta()[1] >= 1


@pytest.mark.parametrize("k, receivers", [(2, ["P1"]), (3, ["P2", "P3"]), (4, ["NS"])])
def test_give_scores_the_eldests_side_and_with_three_players_both_non_dealers(k, receivers):
    state = hand("seven_up", deck_at({6 * k: "9H"}), k, dealer=k - 1 if k != 3 else 0)
    act(state, "beg")
    assert state.phase == "give" and state.to_act == state.dealer
    act(state, "give")
    assert item_list(state) == [("gift", side, 1) for side in receivers]
    assert state.trump_name() == "H" and state.phase == "play" and state.to_act == state.eldest


def test_give_is_illegal_in_a_game_when_it_would_put_a_receiver_out():
    state = act(hand("seven_up", deck_at({12: "9H"}), 2, scores=(6, 0), in_game=True), "beg")
    assert state.legal_actions() == [{"type": "run"}]
    before = state.describe()
    with pytest.raises(IllegalAction, match="put"):
        state.apply({"type": "give"})
    assert state.describe() == before
    assert act(hand("seven_up", deck_at({12: "9H"}), 2, scores=(5, 0), in_game=True), "beg").legal_actions() == [
        {"type": "give"},
        {"type": "run"},
    ]


def test_give_is_illegal_in_a_three_player_game_if_the_other_non_dealer_would_go_out():
    state = act(hand("seven_up", deck_at({18: "9H"}), 3, dealer=0, scores=(0, 0, 6), in_game=True), "beg")
    assert state.legal_actions() == [{"type": "run"}]


def test_give_is_always_legal_on_a_board_whatever_the_target_and_scores():
    state = act(hand("seven_up", deck_at({12: "9H"}), 2, scores=(6, 0)), "beg")
    assert {"type": "give"} in state.legal_actions()
    doc = {
        "ruleset": "seven_up",
        "options": {"players": 2, "target": 1},
        "board": board(deck_at({12: "9H"}), 2).to_dict(),
        "actions": [{"type": "beg"}],
    }
    assert {"type": "give"} in replay(doc)["legal"]


def test_a_run_deals_three_more_each_and_a_turn_up_of_the_refused_suit_is_laid_aside():
    k = 2
    deck = deck_at({12: "4H", run_start(k, 1) + 3 * k: "JH", run_start(k, 2) + 3 * k: "JD"})
    state = act(hand("seven_up", deck, k), "beg", "run")
    out = state.describe()
    assert out["turnups"] == ["4H", "JH", "JD"] and out["trump"] == "D"
    # the Jack of the refused suit scores nothing; the Jack that fixes trump scores at once
    assert out["items"] == [{"item": "turned-jack", "side": "P2", "value": 1, "card": "JD"}]
    assert [h.bit_count() for h in state.hands] == [12, 12]
    (choice,) = out["legal"]
    assert (choice["type"], choice["min"], choice["max"], len(choice["from"])) == ("discard", 6, 6, 12)


def test_items_are_recorded_in_the_order_they_happen():
    k = 2
    state = act(hand("seven_up", deck_at({12: "JH", run_start(k, 1) + 3 * k: "JS"}), k), "beg", "run")
    assert [(i["item"], i["card"]) for i in state.describe()["items"]] == [("turned-jack", "JH"), ("turned-jack", "JS")]


@pytest.mark.parametrize("k", [2, 3, 4])
def test_the_cards_are_bunched_when_the_pack_is_exhausted_and_points_scored_stand(k):
    hearts = ["JH", "2H", "3H", "4H", "5H", "6H"]
    spots = [6 * k] + [run_start(k, j) + 3 * k for j in range(1, MAX_RUNS[k] + 1)]
    state = act(hand("seven_up", deck_at(dict(zip(spots, hearts))), k), "beg", "run")
    order = bunch_order("ab", 0)
    assert state.bunches == 1 and state.phase == "beg" and state.to_act == state.eldest
    for i in range(k):
        dealt = order[3 * i : 3 * i + 3] + order[3 * (k + i) : 3 * (k + i) + 3]
        assert state.hands[(state.eldest + i) % k] == sum(1 << c for c in dealt)
    assert state.turnups == [order[6 * k]]
    assert state.describe()["items"][0] == {
        "item": "turned-jack",
        "side": state.sides[state.side_of[state.dealer]],
        "value": 1,
        "card": "JH",
    }
    # one run fewer refused: no bunch, the last turn-up names trump
    spots_ok = dict(zip(spots, hearts))
    spots_ok[spots[-1]] = "2C"
    state = act(hand("seven_up", deck_at(spots_ok), k), "beg", "run")
    assert state.bunches == 0 and state.trump_name() == "C" and len(state.turnups) == MAX_RUNS[k] + 1


def two_player(**options):
    return hand("seven_up", deck_at({12: "5H", run_start(2, 1) + 6: "7D"}), 2, two_player_bunch=True, **options)


def test_two_player_bunch_asks_the_eldest_then_the_dealer():
    state = act(two_player(), "beg", "run")
    assert state.phase == "bunch" and state.seat_to_act() == "P1"
    assert state.legal_actions() == [{"type": "bunch"}, {"type": "pass"}]
    act(state, "pass")
    assert state.phase == "bunch" and state.seat_to_act() == "P2"
    act(state, "pass")
    assert state.phase == "discard" and state.seat_to_act() == "P1"


def test_a_refused_proposal_goes_on_to_the_discard_without_asking_the_dealer():
    state = act(two_player(), "beg", "run", "bunch")
    assert state.phase == "accept" and state.seat_to_act() == "P2"
    assert state.legal_actions() == [{"type": "accept"}, {"type": "refuse"}]
    act(state, "refuse")
    assert state.phase == "discard" and state.bunches == 0


def test_an_agreed_bunch_deals_again_and_is_not_offered_twice():
    state = act(two_player(), "beg", "run", "pass", "bunch")
    assert state.phase == "accept" and state.seat_to_act() == "P1"
    act(state, "accept")
    assert state.bunches == 1 and state.phase == "beg" and state.turnups == [bunch_order("ab", 0)[12]]
    while state.phase == "beg":
        act(state, "beg", "run")
    assert state.phase == "discard"
    with pytest.raises(IllegalAction, match="not allowed"):
        state.apply({"type": "bunch"})


def test_the_bunch_question_comes_before_keep_nine():
    state = act(two_player(keep_nine=True), "beg", "run")
    assert state.phase == "bunch"
    act(state, "pass", "pass")
    assert state.phase == "play" and state.ntricks == 9


def test_two_player_bunch_is_ignored_with_three_players_and_refused_when_off():
    state = act(
        hand("seven_up", deck_at({18: "5H", run_start(3, 1) + 9: "7D"}), 3, two_player_bunch=True), "beg", "run"
    )
    assert state.phase == "discard"
    state = act(hand("seven_up", deck_at({12: "5H", run_start(2, 1) + 6: "7D"}), 2), "beg", "run")
    before = state.describe()
    with pytest.raises(IllegalAction, match="not allowed"):
        state.apply({"type": "bunch"})
    assert state.describe() == before


def test_keep_nine_applies_after_exactly_one_run():
    state = act(hand("seven_up", deck_at({12: "5H", 19: "7D"}), 2, keep_nine=True), "beg", "run")
    assert state.phase == "play" and [h.bit_count() for h in state.hands_after_draw] == [9, 9]
    play_out(state)
    assert len(state.tricks) == 9 and state.phase == "done"
    state = act(hand("seven_up", deck_at({12: "5H", 19: "7H", 26: "8D"}), 2, keep_nine=True), "beg", "run")
    assert state.phase == "discard" and state.legal_actions()[0]["min"] == 6


def test_the_discard_is_exactly_down_to_six_from_the_eldest_and_its_count_is_public():
    state = act(hand("seven_up", deck_at({18: "5H", 28: "7D"}), 3), "beg", "run")  # dealer P3
    assert [state.phase, state.seat_to_act()] == ["discard", "P1"]
    held = state.legal_actions()[0]["from"]
    before = state.describe()
    with pytest.raises(IllegalAction, match="must be 3 cards, not 4"):
        state.apply({"type": "discard", "cards": held[:4]})
    not_held = next(c for c in CARD_NAMES if c not in held)
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply({"type": "discard", "cards": held[:2] + [not_held]})
    assert state.describe() == before
    act(state, {"type": "discard", "cards": held[:3]})
    assert state.seat_to_act() == "P2"
    mine, other = observation(state, "P1"), observation(state, "P2")
    assert mine["my_discards"] == sorted(held[:3], key=CARD_NAMES.index)
    assert other["discard_counts"] == {"P1": 3, "P2": 0, "P3": 0} and other["my_discards"] == []
    assert not set(held[:3]) & cards_in(other)


@pytest.mark.parametrize("k, game", [(2, "P1"), (4, "NS"), (3, None)])
def test_a_tied_game_goes_to_the_side_without_the_dealer_or_with_three_players_all_tied_to_nobody(k, game):
    state = play_out(
        act(
            hand(
                "seven_up",
                LOW_CARDS[: 6 * k + 1] + [c for c in CARD_NAMES if c not in LOW_CARDS] + LOW_CARDS[6 * k + 1 :],
                k,
            ),
            "stand",
        )
    )
    assert set(pips_won(state).values()) == {0}
    games = [i for i in item_list(state) if i[0] == "game"]
    assert games == ([("game", game, 1)] if game else [])


THREE_TIE = {  # dealer P3; trump spades, none in play; P1 wins TD, P3 or P2 wins TH
    "dealer_and_one": (
        [
            ["TD", "2C", "3C", "4C", "5C", "6C"],
            ["2H", "3H", "4H", "5H", "6H", "7H"],
            ["TH", "7C", "8C", "9C", "2D", "3D"],
        ],
        "TD 2H 2D 2C 3H 7C 8C 3C 4H 9C 4C 5H 3D 5C 6H TH 6C 7H",
        "P1",
    ),
    "both_non_dealers": (
        [
            ["TD", "2C", "3C", "4C", "5C", "6C"],
            ["TH", "2H", "3H", "4H", "5H", "6H"],
            ["7C", "8C", "9C", "2D", "3D", "7H"],
        ],
        "TD 2H 2D 2C 3H 7C 8C 3C 4H 9C 4C 5H 3D 5C 6H 7H 6C TH",
        None,
    ),
}


@pytest.mark.parametrize("case", THREE_TIE)
def test_three_player_game_ties(case):
    hands, plays, game = THREE_TIE[case]
    state = act(hand("seven_up", turnup_deck(hands, "9S"), 3), "stand", *plays.split())
    assert state.phase == "done"
    pips = pips_won(state)
    top = max(pips.values())
    tied = {seat for seat, n in pips.items() if n == top}
    assert tied == ({"P1", "P3"} if game else {"P1", "P2"})
    # no trump in play: High and Low score for nobody (16.4)
    assert item_list(state) == ([("game", game, 1)] if game else [])


def test_one_trump_in_play_is_both_high_and_low():
    state = play_out(
        act(
            hand(
                "seven_up",
                turnup_deck([["6D", "2C", "3C", "4C", "5C", "7C"], ["2H", "3H", "4H", "5H", "6H", "7H"]], "9D"),
                2,
            ),
            "stand",
        )
    )
    assert [(i["item"], i.get("card"), i["side"]) for i in state.describe()["items"][:2]] == [
        ("high", "6D", "P1"),
        ("low", "6D", "P1"),
    ]


def test_a_turned_jack_that_reaches_the_target_ends_the_hand_at_once():
    state = hand("seven_up", deck_at({12: "JC"}), 2, scores=(0, 6), in_game=True)
    assert state.phase == "done" and state.legal_actions() is None
    assert state.delta() == (0, 1) and state.points() == (0, 0)


def test_in_a_game_no_item_is_applied_after_the_target_is_reached():
    state = play_out(act(hand("seven_up", deck_at({12: "9C"}), 2, scores=(6, 6), in_game=True), "stand"))
    assert state.phase == "done" and [i[0] for i in item_list(state)] == ["high"]
    state = play_out(act(hand("seven_up", deck_at({12: "9C"}), 2, scores=(6, 6)), "stand"))
    assert [i[0] for i in item_list(state)] == ["high", "low", "jack", "game"]
