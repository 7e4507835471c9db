"""Hypothesis properties of blind_cinch (both bases) and sixty_three (both scorings).

Random hands on random boards, through the wire layer (every step checked) and the fast
layer (many hands): cards are conserved, the counted points sum to the deal's total,
illegal actions are refused with the state unchanged, no observation shows a card its
seat may not see, and a replay of the recorded actions equals the live hand.
"""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.examples import examples

from server.engine import Board, IllegalAction, make_ruleset, new_hand, observation, replay
from server.engine.cards import CARD_NAMES
from server.engine.playout import playout, random_action

SEATS = ("N", "E", "S", "W")
RULESETS = [
    ("blind_cinch", {}),
    ("blind_cinch", {"base": "american62"}),
    ("sixty_three", {}),
    ("sixty_three", {"scoring": "setback"}),
]
TOTAL = {"blind_cinch": 14, "sixty_three": 63}


def names(mask: int) -> set[str]:
    return {CARD_NAMES[c] for c in range(52) if mask >> c & 1}


def cards_in(obj) -> set[str]:
    """Every card string anywhere in a JSON-like value."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and item in CARD_NAMES:
            out.add(item)
    return out


@st.composite
def deals(draw):
    deck = draw(st.permutations(CARD_NAMES))
    board = Board.from_dict(
        {
            "dealer": draw(st.sampled_from(SEATS)),
            "deck": list(deck),
            "seed": draw(st.binary(min_size=1, max_size=8)).hex(),
        }
    )
    name, options = draw(st.sampled_from(RULESETS))
    return make_ruleset(name, options), board, draw(st.integers(0, 2**32))


SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- what each check reads
def untaken_packets(state) -> int:
    """Blind packets still face down: every seat's until he declares or his discard turn comes."""
    if not state.rules.blind_packet:
        return 0
    taken = {d.seat for d in state.draws} | ({state.declarer} if state.declarer >= 0 else set())
    if state.phase == "discard":
        taken.add(state.to_act)
    mask = 0
    for seat in set(range(4)) - taken:
        mask |= state.packet(seat)
    return mask


def places(state) -> list[set[str]]:
    played = {c for t in state.trick_dicts() for p in t["plays"] for c in [p["card"], *p["extras"]]}
    stock = {CARD_NAMES[c] for c in state.stock}
    assert len(stock) == len(state.stock)
    return [*(names(h) for h in state.hands), names(untaken_packets(state)), stock, names(state.pile), played]


def assert_conserved(state) -> None:
    parts = places(state)
    assert sum(map(len, parts)) == 52 and set().union(*parts) == set(CARD_NAMES), parts


def known_to(state, seat: int | None) -> set[str]:
    """What ``seat`` may see: his hand, his own draws, face-up discards, played cards, and the
    dealer's look at the stock while robbing."""
    out = {c for t in state.trick_dicts() for p in t["plays"] for c in [p["card"], *p["extras"]]}
    for rec in state.draws:
        out |= names(rec.shown)
        if rec.seat == seat:
            out |= names(rec.discarded | rec.received | rec.left_in_stock)
    if seat is not None:
        out |= names(state.hands[seat])
        if state.phase == "rob" and seat == state.to_act:
            out |= names(state.rob_pool)
    return out


def assert_nothing_hidden_shown(state) -> None:
    for seat in (*range(4), None):
        seen = cards_in(observation(state, None if seat is None else SEATS[seat]))
        assert seen <= known_to(state, seat), (seat, seen - known_to(state, seat))


def snapshot(state):
    return (
        state.describe(),
        [observation(state, s) for s in SEATS],
        list(state.hands),
        list(state.stock),
        state.pile,
        list(state.bids),
        len(state.draws),
        state.draw_turn,
        state.restocks,
    )


def illegal_actions(state, rng: Random) -> list:
    """Actions the rules refuse in this state, whatever the ruleset."""
    seat = state.to_act
    legal = random_action(state.legal_actions(), rng)
    held = names(state.hands[seat])
    absent = sorted(set(CARD_NAMES) - held)
    out = [{**legal, "seat": SEATS[(seat + k) % 4]} for k in (1, 2, 3)]
    out += [{"type": "pass", "x": 1}, {"type": "draw"}, [legal]]
    phase, r = state.phase, state.rules
    if phase == "bidding":
        out += [
            {"type": "bid", "amount": r.max_bid + 1},
            {"type": "bid", "amount": max(state.high_bid, r.min_bid - 1)}
            if state.high_bid or r.min_bid > 1
            else {"type": "bid", "amount": 0},
            {"type": "trump", "suit": "H"},
        ]
    elif phase == "trump":
        out += [{"type": "trump", "suit": "X"}, {"type": "pass"}]
    elif phase == "discard":
        choice = state.legal_actions()[0]
        low, high = choice["min"], choice.get("max", len(choice["from"]))
        if low:
            out.append({"type": "discard", "cards": choice["from"][: low - 1]})
        if high < len(choice["from"]):
            out.append({"type": "discard", "cards": choice["from"][: high + 1]})
        out.append({"type": "discard", "cards": [*choice["from"][: max(low - 1, 0)], rng.choice(absent)]})
        barred = sorted(held - set(choice["from"]))  # american62 base: the trumps
        if barred and low:
            out.append({"type": "discard", "cards": [*choice["from"][: low - 1], barred[0]]})
    elif phase == "rob":
        choice = state.legal_actions()[0]
        out += [
            {"type": "rob", "keep": choice["from"][:5]},
            {"type": "rob", "keep": [*choice["from"][:5], rng.choice(sorted(set(CARD_NAMES) - set(choice["from"])))]},
        ]
    elif phase == "play":
        out.append({**legal, "card": rng.choice(absent)})
        mains = {a["card"] for a in state.legal_actions()}
        if held - mains:
            out.append({**legal, "card": sorted(held - mains)[0]})
    return out


# ---------------------------------------------------------------- the properties
@SETTINGS
@given(deals())
def test_wire_hands_conserve_cards_hide_cards_refuse_illegal_actions_and_replay(deal):
    rules, board, seed = deal
    rng = Random(seed)
    state = new_hand(rules, board)
    while True:
        assert_conserved(state)
        assert_nothing_hidden_shown(state)
        if state.phase == "done":
            break
        before = snapshot(state)
        for action in illegal_actions(state, rng):
            try:
                state.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} was accepted in phase {state.phase}")
            assert snapshot(state) == before, action
        action = random_action(state.legal_actions(), rng)
        if rng.random() < 0.5 and "cards" in action:
            rng.shuffle(action["cards"])
        state.apply(action)
    described = state.describe()
    assert sum(described["points"].values()) == TOTAL[rules.name]
    for side in ("NS", "EW"):
        assert sum(i["value"] for i in described["items"] if i["side"] == side) == described["points"][side]
    doc = {"ruleset": rules.name, "options": rules.options(), "board": board.to_dict(), "actions": state.actions}
    assert replay(doc) == described


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_fast_hands_conserve_cards_and_count_the_whole_deal(deal):
    rules, board, seed = deal
    state = playout(new_hand(rules, board), Random(seed))
    assert_conserved(state)
    points = state.points()
    assert sum(points) == TOTAL[rules.name]
    described = state.describe()
    assert [sum(i["value"] for i in described["items"] if i["side"] == s) for s in ("NS", "EW")] == list(points)
    if not state.restocks:  # a rebuilt stock reuses discards: then a card may be listed twice
        record = described["record"]
        played = sum(1 + x.bit_count() for t in state.tricks for _, _, x in t.plays)
        listed = [c for cards in record["discards"].values() for c in cards] + record["stock"]
        assert len(listed) == len(set(listed)) == 52 - played
