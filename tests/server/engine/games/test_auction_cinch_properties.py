"""Random-hand properties of auction_cinch (docs/rules/auction_cinch.md) at five and six
players, through the wire and the fast layer (the loop and the shared checks are
allfours_checks.py's). At every decision: the 52 cards are in hands, tricks, the discards
still out or the stock; refused actions change nothing; no observation shows a card another
seat holds or the stock hides (a face-up discard put back into the stock is public as a card,
not where it went), nor another seat's drawn cards, and the partner only from the call on.
At the end: the replay is the live hand, trick winners are re-derived from card strings,
the points add up to 14 less the counting cards left in the stock, and the delta is
foster51's hand rule applied to makers and opponents, each member adding his side's score.
"""

from __future__ import annotations

from random import Random

import pytest
import support.allfours_checks as shared
from hypothesis import given
from hypothesis import strategies as st
from support.allfours_checks import Family, names, props
from support.allfours_decks import cards_in

from server.engine import CARD_NAMES, Game, generate_board, make_ruleset, observation, replay, seats_for
from server.engine.playout import playout
from server.engine.rulesets import FOSTER51
from server.engine.scoring import hand_delta

RANKS = "23456789TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
POINTS = {"A": 1, "J": 1, "T": 1, "5": 5, "2": 1}


def options_for(name: str, k: int, data) -> dict:
    return {"players": k}


def stock(state) -> set[str]:
    return {CARD_NAMES[c] for c in state.stock[state.stock_at :]}


def check_cards(state) -> None:
    shared.check_cards(state, stock(state), names(state.pile))
    assert not state.pile & state.restocked  # a card put back is never also still out


def check_views(state) -> None:
    shown = names(state.pile | state.restocked)  # every discard, seen face up by all
    if state.called >= 0:
        shown.add(CARD_NAMES[state.called])  # called aloud; its holder, if another, says so (10.5)
    for me, seat in enumerate(state.seats):
        hidden = stock(state)
        for other in range(state.k):
            if other != me:
                hidden |= names(state.hands[other])
        view = observation(state, seat)
        if view["phase"] == "call" and view["legal"]:
            assert len(view.pop("legal")) == 52  # every card may be called: that tells nothing
        assert not cards_in(view) & (hidden - shown)
        assert all(d["drawn"] is None for d in view["draws"] if d["seat"] != seat)
        assert (view["partner"] is None) if view["phase"] in ("bidding", "trump", "discard", "call") else True
    spectator = observation(state, None)
    assert not cards_in(spectator) & ((names(sum(state.hands)) | stock(state)) - shown)


def refused(state, legal: list[dict], kinds: set[str]) -> list:
    bad = [
        {"type": "bid", "amount": 15},
        {"type": "bid", "amount": "1"},
        {"type": "call", "card": "JK"},
        {"type": "call"},
        {"type": "trump", "suit": "X"} if state.phase == "trump" else {"type": "trump"},
        {"type": "discard", "cards": ["JK"]},
        {"type": "sell"},
    ]
    if state.phase == "discard":
        other = next(c for c in CARD_NAMES if not state.hands[state.to_act] >> CARD_NAMES.index(c) & 1)
        bad += [{"type": "discard", "cards": [other]}, {"type": "discard"}, {"type": "discard", "cards": "2C"}]
    if state.phase == "bidding" and state.high_bid:
        bad.append({"type": "bid", "amount": state.high_bid})
    return bad


def check_refusals(state, rng: Random) -> None:
    shared.check_refusals(state, rng, refused, ("stand", "pitch", "rob", "call", "discard", "pass"))


def strength(card: str, trump: str) -> int:
    r = RANKS.index(card[0])
    if card[1] == trump:
        return 100 + 2 * r + (1 if r >= 3 else 0)
    if card == "5" + SAME_COLOUR[trump]:
        return 106
    return r


def check_result(state, doc: dict | None) -> None:
    out = state.describe()
    if doc is not None:
        assert replay(doc) == out
    trump = out["trump"]
    makers = set(out["makers"])
    won = {"makers": 0, "opponents": 0}
    assert out["tricks"][0]["leader"] == out["declarer"]
    for trick in out["tricks"]:
        cards = [p["card"] for p in trick["plays"]]
        led = trump if strength(cards[0], trump) >= 100 else cards[0][1]
        best = max(cards, key=lambda c: strength(c, trump) if strength(c, trump) >= 100 or c[1] == led else -1)
        assert trick["winner"] == trick["plays"][cards.index(best)]["seat"]
        side = "makers" if trick["winner"] in makers else "opponents"
        won[side] += sum(POINTS.get(c[0], 0) for c in cards if strength(c, trump) >= 100)
    out_discards = {c for cards in out["record"]["discards"].values() for c in cards}
    won["makers"] += sum(POINTS.get(c[0], 0) for c in out_discards if strength(c, trump) >= 100)
    in_stock = sum(POINTS.get(c[0], 0) for c in out["record"]["stock"] if strength(c, trump) >= 100)
    assert out["points"] == won and won["makers"] + won["opponents"] + in_stock == 14
    gain = hand_delta(
        FOSTER51, 0, out["contract"]["amount"] if out["contract"] else None, (won["makers"], won["opponents"])
    )
    assert out["delta"] == {seat: gain[0] if seat in makers else gain[1] for seat in state.seats}
    assert sum(i["value"] for i in out["items"]) == won["makers"] + won["opponents"]
    called = out["partner"]
    holders = {c: seat for seat, cards in out["hands_after_draw"].items() for c in cards}
    call = state.actions[-len(out["tricks"]) * state.k - 1] if doc is not None else None
    if call is not None:
        holder = holders.get(call["card"])
        assert called == (holder if holder != out["declarer"] else None)


FAMILY = Family(options_for, check_cards, check_views, check_refusals, check_result)


@pytest.mark.parametrize("k", (5, 6))
@props(30)
@given(data=st.data(), seed=st.integers(0, 2**32), wire=st.booleans())
def test_random_hands_keep_the_rules(k, data, seed, wire):
    shared.play_random_hand(FAMILY, "auction_cinch", k, data, seed, wire)


@pytest.mark.parametrize("k", (5, 6))
def test_a_game_of_random_hands_ends_with_the_highest_player_over_the_target(k):
    rules = make_ruleset("auction_cinch", {"players": k})
    for seed in range(3):
        game = Game(rules, lambda n, seed=seed: generate_board(f"auction-cinch-game-{seed}", n, seats_for(k)))
        rng = Random(seed)
        while game.winner is None:
            hand = playout(game.new_hand(), rng)
            before = game.scores
            game.finish_hand(hand)
            assert game.scores == tuple(b + d for b, d in zip(before, hand.delta()))  # the whole hand at once
        top = game.scores[game.sides.index(game.winner)]
        assert top >= rules.target and top == max(game.scores)
