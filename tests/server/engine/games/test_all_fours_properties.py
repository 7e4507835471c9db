"""Properties of seven_up, pitch and all_fives over random hands, for every k.

For each ruleset and k in (2, 3, 4), hypothesis draws boards (a random deck, dealer and
seed), the options and a seed for random legal play, through the fast layer
(``random_step``) or the wire layer (``legal_actions`` + ``apply``). At every decision:
the 52 cards are where the deal says (hands, tricks, discards, turn-ups, the rest out of
play), refused actions change nothing, and no observation shows a card hidden from its
seat. At the end: the replay of the recorded actions is the live hand (wire layer), the deltas and
points are the sums of the items, and the trick winners and the items are those the
rules give, re-derived here from card strings (docs/rules/seven_up.md#points, docs/rules/pitch.md#points, docs/rules/all_fives.md#pegging, #points).
"""

from __future__ import annotations

from random import Random

import pytest
import support.allfours_checks as shared
from hypothesis import given
from hypothesis import strategies as st
from support.allfours_checks import PIPS, RANKS, Family, boards, names, props

from server.engine import CARD_NAMES, make_ruleset, new_hand, replay
from server.engine.boards import bunch_order

RULESETS = ("seven_up", "pitch", "all_fives")
PEGS = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10, "5": 5}
END_ITEMS = ("high", "low", "jack", "game")


def options_for(name: str, k: int, data) -> dict:
    options = {"players": k}
    if name != "pitch":
        options["keep_nine"] = data.draw(st.booleans())
        options["two_player_bunch"] = data.draw(st.booleans())
    return options


def out_of_play(state) -> set[str]:
    """The undealt cards by the deal's positions (1.2, 1.5, 1.6; 2.1)."""
    k = state.k
    if state.rules.name == "pitch":
        return {CARD_NAMES[c] for c in state.board.deck[6 * k :]}
    deck = bunch_order(state.board.seed, state.bunches - 1) if state.bunches else state.board.deck
    runs = len(state.turnups) - 1
    return {CARD_NAMES[c] for c in deck[6 * k + 1 + runs * (3 * k + 1) :]}


def check_cards(state) -> None:
    shared.check_cards(state, out_of_play(state), *[names(d) for d in state.discards()], names(state.turnup_mask()))


def check_views(state) -> None:
    """No seat sees another's hand or discards, or an undealt card (items apart: they name
    turn-ups, perhaps of a bunched deal, and cards once played)."""
    shared.check_views(state, out_of_play(state), discards=state.discards(), turned_jacks=True)


def refused(state, legal: list[dict], kinds: set[str]) -> list:
    """A bid (no auction here), actions wanting a field, and in the discard phase too few,
    too many, cards not held, one card repeated."""
    bad = [{"type": "bid", "amount": 1}, "stand", {"type": "play"}]
    hand = names(state.hands[state.to_act])
    if state.phase == "discard":
        n = legal[0]["min"]
        cards = legal[0]["from"]
        bad += [
            {"type": "discard", "cards": cards[: n - 1]},
            {"type": "discard", "cards": cards[: n + 1]},
            {"type": "discard", "cards": [c for c in CARD_NAMES if c not in hand][:n]},
            {"type": "discard", "cards": [cards[0]] * n},
        ]
    return bad


def check_refusals(state, rng: Random) -> None:
    """Actions the rules refuse raise IllegalAction and leave the hand exactly as it was."""
    shared.check_refusals(state, rng, refused, ("stand", "beg", "give", "run", "bunch", "pass", "accept", "refuse"))


def side_name(state, seat: str) -> str:
    return state.sides[state.side_of[state.seats.index(seat)]]


def expected_play_items(state, out: dict) -> list[tuple]:
    """Pegs, then High, Low, Jack and Game, re-derived from the hand's card strings."""
    trump = out["trump"]
    hands = out["hands_after_draw"]
    won: dict[str, list[str]] = {side: [] for side in state.sides}
    items = []
    for i, trick in enumerate(out["tricks"]):
        cards = [p["card"] for p in trick["plays"]]
        trumps = [c for c in cards if c[1] == trump]
        led = cards[0][1]
        best = max(trumps or [c for c in cards if c[1] == led], key=lambda c: RANKS.index(c[0]))
        winner = trick["plays"][cards.index(best)]["seat"]
        assert trick["winner"] == winner
        side = side_name(state, winner)
        won[side] += cards
        peg = sum(PEGS.get(c[0], 0) for c in trumps)
        if state.rules.name == "all_fives" and peg:
            items.append(("peg", side, peg, i))
    in_play = [c for cards in hands.values() for c in cards if c[1] == trump]
    holder = {c: side_name(state, seat) for seat, cards in hands.items() for c in cards}
    if in_play:
        high = max(in_play, key=lambda c: RANKS.index(c[0]))
        low = min(in_play, key=lambda c: RANKS.index(c[0]))
        items += [("high", holder[high], 1, high), ("low", holder[low], 1, low)]
    jack = "J" + trump
    if jack in holder:
        items.append(("jack", next(s for s, cards in won.items() if jack in cards), 1, jack))
    five = "5" + trump
    pips = {
        s: sum(PIPS.get(c[0], 0) for c in cards) + (5 if state.rules.name == "all_fives" and five in cards else 0)
        for s, cards in won.items()
    }
    top = max(pips.values())
    tied = [s for s in state.sides if pips[s] == top]
    dealer_side = side_name(state, out["dealer"])
    if len(tied) == 1:
        items.append(("game", tied[0], 1, None))
    elif state.rules.name != "pitch":
        if len(state.sides) == 2:
            items.append(("game", next(s for s in state.sides if s != dealer_side), 1, None))
        elif len(tied) == 2 and dealer_side in tied:
            items.append(("game", next(s for s in tied if s != dealer_side), 1, None))
    return items


def check_result(state, doc: dict | None) -> None:
    out = state.describe()
    if doc is not None:  # the fast layer keeps no action record
        assert replay(doc) == out
    items = out["items"]
    sums = {side: 0 for side in state.sides}
    play = {side: 0 for side in state.sides}
    for item in items:
        sums[item["side"]] += item["value"]
        if item["item"] not in ("turned-jack", "gift"):
            play[item["side"]] += item["value"]
    assert out["delta"] == sums and out["points"] == play
    got = [
        (i["item"], i["side"], i["value"], i.get("trick", i.get("card")))
        for i in items
        if i["item"] not in ("turned-jack", "gift")
    ]
    assert got == expected_play_items(state, out)
    assert len(out["tricks"]) == len(next(iter(out["hands_after_draw"].values())))
    record = out["record"]
    assert set(record["out_of_play"]) == out_of_play(state)


FAMILY = Family(options_for, check_cards, check_views, check_refusals, check_result)


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("name", RULESETS)
@props(25)
@given(data=st.data(), seed=st.integers(0, 2**32), wire=st.booleans())
def test_random_hands_keep_the_rules(name, k, data, seed, wire):
    shared.play_random_hand(FAMILY, name, k, data, seed, wire)


@pytest.mark.parametrize("name", RULESETS)
@props(40)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_in_a_game_nothing_is_scored_after_the_target_and_give_never_puts_out(name, data, seed):
    k = data.draw(st.sampled_from([2, 3, 4]))
    rules = make_ruleset(name, {"players": k, "target": data.draw(st.integers(1, 12))})
    board = data.draw(boards(k))
    sides = len(set(new_hand(rules, board).side_of))
    scores = tuple(data.draw(st.integers(-5, rules.target - 1)) for _ in range(sides))
    state = new_hand(rules, board, scores)  # scores given: a game's hand
    rng = Random(seed)
    while state.phase != "done":
        if state.phase == "give" and {"type": "give"} in state.legal_actions():
            receivers = [state.side_of[state.eldest]] + ([state.side_of[(state.eldest + 1) % 3]] if k == 3 else [])
            assert all(scores[s] + state.delta()[s] + 1 < rules.target for s in receivers)
        state.random_step(rng)
    totals = list(scores)
    for _n, item in enumerate(state.describe()["items"]):
        assert max(totals) < rules.target, "an item was applied after the target was reached"
        totals[state.sides.index(item["side"])] += item["value"]
    reached = [s for s in range(sides) if totals[s] >= rules.target]
    assert len(reached) <= 1
