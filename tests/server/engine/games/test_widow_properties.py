"""Random-hand properties of widow_cinch (docs/rules/widow_cinch.md): at every decision the 52
cards are where the rules put them (hands, tricks, face-up discards, the widow until taken),
a refused action changes nothing and no observation shows a card hidden from its seat, the
widow included; at the end the points add up to 14 less a left widow's counting cards,
points and delta are those re-derived from the card strings, and the replay of the recorded
actions is the live hand."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.allfours_checks import boards, play_checked, played, props
from support.widow_checks import check_views, expected, names

from server.engine import CARD_NAMES, IllegalAction, make_ruleset, new_hand, replay

RULES = make_ruleset("widow_cinch")


def check_cards(state) -> None:
    """Hands, played cards, discards and an untaken widow are the 52 cards, each once."""
    parts = [names(h) for h in state.hands] + [played(state), names(state.discard_mask())]
    if not state.widow_taken:
        parts.append(names(state.widow))
    assert sum(map(len, parts)) == 52 and set().union(*parts) == set(CARD_NAMES)


def refused(state, rng: Random) -> list:
    """Wrong types, fields and values for the decision asked, and the next seat's legal action."""
    legal = state.legal_actions()
    bad = [
        {"type": "stand"},
        {"type": "rob", "keep": []},
        {"type": "widow", "take": "no"},
        {"type": "bid", "amount": 15},
        {"type": "trump", "suit": "X"},
        {"type": "play"},
        {**legal[0], "seat": state.seats[(state.to_act + 1) % 6]},
        {**legal[0], "bogus": 1},
    ]
    if state.phase == "discard":
        held = legal[0]["from"]
        n = legal[0]["min"]
        others = sorted(set(CARD_NAMES) - set(held))
        bad += [
            {"type": "discard", "cards": held[: n - 1]},
            {"type": "discard", "cards": held[: n + 1]},
            {"type": "discard", "cards": held[: n - 1] + others[:1]},
        ]
    if state.phase == "play":
        legal_cards = {a["card"] for a in legal}
        bad += [{"type": "play", "card": c} for c in rng.sample(sorted(set(CARD_NAMES) - legal_cards), 3)]
        bad.append({"type": "play", "card": legal[0]["card"], "extras": [legal[0]["card"]]})
    if state.phase == "bidding" and state.high_bid:
        bad.append({"type": "bid", "amount": state.high_bid})
    return bad


def check_refusals(state, rng: Random) -> None:
    before = state.describe()
    for action in refused(state, rng):
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert state.describe() == before


@props(40)
@given(data=st.data(), seed=st.integers(0, 2**32), wire=st.booleans())
def test_random_hands_keep_the_rules(data, seed, wire):
    board = data.draw(boards(6))
    state = new_hand(RULES, board)
    play_checked(state, Random(seed), wire, check_cards, check_views, check_refusals)
    check_cards(state)
    check_views(state)
    out = state.describe()
    assert (out["points"], out["delta"]) == expected(out)
    trump = out["trump"]
    left = [
        c
        for c in out["record"]["widow"]
        if c[0] in "AJT25" and (c[1] == trump or c == "5" + {"C": "S", "S": "C", "D": "H", "H": "D"}[trump])
    ]
    assert sum(out["points"].values()) == 14 - sum(5 if c[0] == "5" else 1 for c in left)
    assert sum(i["value"] for i in out["items"]) == sum(out["points"].values())
    assert [len(t["plays"]) for t in out["tricks"]] == [6] * 6 and out["tricks"][0]["leader"] == out["declarer"]
    if wire:
        doc = {"ruleset": "widow_cinch", "board": board.to_dict(), "actions": state.actions}
        assert replay(doc) == out


@props(30)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_a_hand_of_a_game_settles_to_its_delta_unless_a_side_goes_out(data, seed):
    rules = make_ruleset("widow_cinch", {"target": data.draw(st.integers(1, 30))})
    scores = tuple(data.draw(st.integers(-20, rules.target - 1)) for _ in range(3))
    state = new_hand(rules, data.draw(boards(6)), scores)
    rng = Random(seed)
    while state.phase != "done":
        state.random_step(rng)
    after, winner = state.settle(scores)
    full = tuple(s + d for s, d in zip(scores, state.delta()))
    if winner is None:
        assert after == full and max(after) < rules.target
    else:
        assert after[winner] >= rules.target
        assert sum(a >= rules.target for a in after) == 1  # nothing is counted after the winner
