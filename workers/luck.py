"""Luck correction on the draw: how much of a room's result the stock decided.

Duplicate cancels the luck of the deal, but not the luck after it: once the two rooms
name different trumps, the players draw different cards from the same stock, and one
room's draw can be much kinder than the other's. This module measures that luck with a
control variate in the spirit of AIVAT (Burch, Schmid, Moravcik, Morrill, Bowling,
"AIVAT: A New Variance Reduction Technique for Agent Evaluation in Imperfect
Information Games", AAAI 2018):

    luck = V(the position the stock actually made) - E[V(the position) over stocks]

where V is a fixed evaluator that does not depend on the bots being compared. Subtracting
``luck`` (or any fixed multiple of it: ``server.arena.stats.corrected``) from a room's net
leaves its expectation unchanged, since the term has mean zero whatever V is, and takes
away the part of the result that V sees coming from the draw.

The chance event. Given the 36 dealt cards, the canonical generator makes the stock a
uniformly random order of the other 16 and the board's seed a uniformly random key for
any rebuilt stock (docs/rules/common.md#boards). Nothing any player does before the dealer robs
the pack depends on the stock: the bids, trump and every non-dealer discard are decided
from the player's own hand and public facts, and nobody sees another's draw. So the
whole draw is one chance event, resolved at the first point where a player has seen
the stock (the dealer's rob, or the first lead when the dealer draws blind): the
*pivot*. The expectation is estimated by replaying the room's actions up to the pivot
on ``SAMPLES`` other boards with the same deal and a fresh stock and seed, drawn from a
generator keyed by the board's own seed: unbiased, and the same on every machine. The
dealer's rob is made by the evaluator in every world, the real one included, since in
the real room it was the dealer's decision, not chance.

The evaluator V: N/S's expected net on the hand from who holds which trump once play
starts, a linear model of the point difference (``WEIGHTS``, fitted on the rule bot's
self-play by ``tools/fit_luck.py``) turned into an expected net through the ruleset's
own scoring with a normal spread (``SPREAD``) around it. It costs microseconds, so the
expectation can use many stocks; a rule-bot playout per world correlated no better and
cost a thousand times more.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from random import Random
from typing import Any

from server.engine import BIDDING, PLAY, ROB, SEATS, SUITS, Board, HandState, Ruleset, observation
from server.engine.cards import TRUMP_TABLES, cards_of
from server.engine.rulesets import DRAW_AMERICAN
from server.engine.scoring import hand_delta
from workers.bots.rule_bot import RuleBot, choose_rob

SAMPLES = 32
"""Stocks drawn to estimate the expectation; the estimate's noise shrinks with more."""


# Fitted by tools/fit_luck.py: for each ruleset, the point difference N/S minus E/W is
# modelled as  sum(weights[i] * features[i])  (``features``), with residual spread.
WEIGHTS: dict[str, list[float]] = {
    "american62": [
        -0.0407,
        3.2876,
        1.2839,
        0.8076,
        -0.0826,
        -0.3173,
        -0.3810,
        -0.2762,
        -0.4574,
        -0.5839,
        0.2862,
        -0.2145,
        -0.7646,
        -0.7804,
        0.2344,
        2.0418,
        -1.4896,
        0.0000,
    ],
    "foster51": [
        -0.1799,
        3.3147,
        1.5742,
        0.9103,
        -0.1736,
        -0.2934,
        -0.3899,
        -0.3540,
        -0.2515,
        -0.2291,
        0.3574,
        -0.0521,
        -0.6437,
        -0.2544,
        -1.5716,
        1.9432,
        -0.6069,
        0.5062,
    ],
}
SPREAD: dict[str, float] = {"american62": 5.7947, "foster51": 5.9338}
DEALER_EDGE: dict[str, float] = {"american62": 0.6941, "foster51": 2.2726}
"""The dealing side's mean ``deal_value`` over deals (also fitted by tools/fit_luck.py):
what a deal is worth to the dealers on average, so that the deal's luck has mean zero."""

BIDDER = RuleBot("luck")
"""Bids, names trump and discards for the evaluator when it values a deal (``deal_value``)."""


TRUMP_ORDER = tuple(tuple(sorted(cards_of(t.trump_mask), key=lambda c: -t.strength[c])) for t in TRUMP_TABLES)
"""Each trump suit's 14 trumps, highest first."""


def pivot(rules: Ruleset, board: Board, actions: list[dict[str, Any]]) -> int | None:
    """How many of ``actions`` come before anybody has seen the stock (the rob, or the
    first lead when nobody robs); None if the hand never got there."""
    state = HandState(rules, board)
    for index, action in enumerate(actions):
        if state.phase in (ROB, PLAY):
            return index
        state.apply(action)
    return len(actions) if state.phase in (ROB, PLAY) else None


def to_play(state: HandState) -> HandState:
    """``state`` (at the pivot) at the first lead, with the evaluator's rob: the rule
    bot's (``choose_rob``), the same fixed policy in every world and every match."""
    if state.phase == ROB:
        dealer = state.actor()
        declaring = state.declarer % 2 == dealer % 2
        rob = (state.legal_actions() or [])[0]
        keep = choose_rob(SUITS[state.trump_tables().trump], rob, declaring, rules_bank(state.rules))
        state.apply({"type": "rob", "keep": keep, "seat": SEATS[dealer]})
    return state


def rules_bank(rules: Ruleset) -> bool:
    """Whether trumps left behind in a rob count for the declarers (foster51's face-up rob)."""
    return rules.draw != DRAW_AMERICAN


def features(state: HandState) -> list[float]:
    """What V reads at the first lead, each from N/S's side (+1 N/S, -1 E/W, 0 nobody):
    a constant, who holds each trump from the highest down, the trump count
    difference, the declaring side, and the points already banked (foster51's
    face-up discards go to the declaring side)."""
    tab = state.trump_tables()
    ns = (state.hands[0] | state.hands[2]) & tab.trump_mask
    ew = (state.hands[1] | state.hands[3]) & tab.trump_mask
    held = [float((ns >> c) & 1) - float((ew >> c) & 1) for c in TRUMP_ORDER[tab.trump]]
    declaring = 1.0 if state.declarer % 2 == 0 else -1.0
    return [1.0, *held, float(ns.bit_count() - ew.bit_count()), declaring, declaring * state.discard_points()]


def at_stake(state: HandState) -> int:
    """The points the hand will score in all, known at the first lead: every counting
    card still held goes to somebody, and the banked discards to the declarers."""
    tab = state.trump_tables()
    held = sum(tab.points[c] for s in range(4) for c in cards_of(state.hands[s] & tab.counting_mask))
    return held + state.discard_points()


def value(state: HandState) -> float:
    """V: N/S's expected net (its score change minus E/W's) on the hand, from the first lead."""
    rules = state.rules
    weights, spread = WEIGHTS[rules.name], SPREAD[rules.name]
    diff = sum(w * f for w, f in zip(weights, features(state)))
    total = at_stake(state)
    contract = state.contract[1] if state.contract else None
    side = state.declarer & 1
    mass = expected = 0.0
    for ns in range(total + 1):
        weight = math.exp(-0.5 * ((2 * ns - total - diff) / spread) ** 2)
        gain = hand_delta(rules, side, contract, (ns, total - ns))
        mass += weight
        expected += weight * (gain[0] - gain[1])
    return expected / mass


def _at(rules: Ruleset, board: Board, actions: Iterable[dict[str, Any]]) -> HandState | None:
    """The state after ``actions`` on ``board``; None when this stock cannot be drawn
    from at all (every discard a trump: docs/rules/common.md#boards has no card to give)."""
    state = HandState(rules, board)
    try:
        for action in actions:
            state.apply(action)
    except RuntimeError:
        return None
    return state


def other_stocks(board: Board, samples: int) -> Iterable[Board]:
    """``samples`` boards with ``board``'s deal and a fresh stock and reshuffle seed each,
    from a generator keyed by the board's seed: the same worlds on every machine."""
    rng = Random(hashlib.sha256(f"{board.seed}/luck".encode()).digest())
    dealt, stock = board.deck[:36], list(board.deck[36:])
    for _ in range(samples):
        rng.shuffle(stock)
        yield Board(board.dealer, dealt + tuple(stock), f"{rng.getrandbits(256):064x}")


def room_luck(rules: Ruleset, board: Board, actions: list[dict[str, Any]], samples: int = SAMPLES) -> float:
    """N/S's luck on the draw in a room that played ``actions`` on ``board``: V of the real
    position at the pivot minus V's mean over ``samples`` other stocks."""
    cut = pivot(rules, board, actions)
    if cut is None or rules.name not in WEIGHTS:
        return 0.0
    before = actions[:cut]
    real = _at(rules, board, before)
    if real is None:  # the room drew from this very stock
        raise ValueError("the room's own actions do not replay on its board")
    actual = value(to_play(real))
    bidding = _bidding(rules, board, before)
    rest = before[len(bidding.actions) :]
    worlds = [
        value(to_play(state))
        for state in (_on(bidding, world, rest) for world in other_stocks(board, samples))
        if state is not None
    ]
    return round(actual - sum(worlds) / len(worlds), 4)


def _bidding(rules: Ruleset, board: Board, actions: list[dict[str, Any]]) -> HandState:
    """The state after the bidding part of ``actions``: the same in every world, since the
    bids touch neither the stock nor the reshuffle seed, so it is replayed once."""
    state = HandState(rules, board)
    for action in actions:
        if state.phase != BIDDING:
            break
        state.apply(action)
    return state


def _on(bidding: HandState, world: Board, rest: list[dict[str, Any]]) -> HandState | None:
    """``bidding`` moved onto ``world`` (same deal, its stock and seed), then ``rest``
    applied; None when that stock cannot be drawn from (see ``_at``)."""
    state = bidding.clone()
    state.board, state.stock = world, list(reversed(world.deck[36:]))
    try:
        for action in rest:
            state.apply(action)
    except RuntimeError:
        return None
    return state


def deal_value(rules: Ruleset, board: Board, samples: int = SAMPLES) -> float:
    """What a deal is worth to N/S before the bidding: the evaluator bids, names trump and
    discards (``BIDDER``: none of it depends on the stock), and V is averaged over
    ``samples`` stocks (``other_stocks``)."""
    state = HandState(rules, board)
    while state.phase not in (ROB, PLAY):
        state.apply(BIDDER.decide(observation(state, SEATS[state.actor()])))
    worlds = [
        value(to_play(world))
        for world in (_at(rules, other, state.actions) for other in other_stocks(board, samples))
        if world is not None
    ]
    return sum(worlds) / len(worlds)


def deal_luck(rules: Ruleset, board: Board) -> float:
    """N/S's luck of the deal: ``deal_value`` less what a deal is worth to its side on
    average (``DEALER_EDGE``). Only where nothing cancels the deal, as at a table:
    duplicate's two rooms share it, and their deal lucks cancel exactly."""
    if rules.name not in DEALER_EDGE:
        return 0.0
    edge = DEALER_EDGE[rules.name] if board.dealer in "NS" else -DEALER_EDGE[rules.name]
    return round(deal_value(rules, board) - edge, 4)


def hand_luck(rules: Ruleset, board: Board, actions: list[dict[str, Any]]) -> dict[str, float] | None:
    """A table hand's luck for N/S, of the deal and of the draw: subtracted from N/S's net,
    the rest is what the players made of their cards. None if the measure fails: the
    hand is recorded whatever befalls its luck (and None where the game has no evaluator)."""
    if rules.name not in WEIGHTS:
        return None
    try:
        return {"deal": deal_luck(rules, board), "draw": room_luck(rules, board, actions)}
    except Exception:  # noqa: BLE001 - never lose a hand to its luck measure
        return None


def with_luck(rules: Ruleset, board: Board, room: dict[str, Any]) -> dict[str, Any]:
    """A room's hand record (``server.arena.duplicate.play_room``) with N/S's ``luck`` next to it:
    None if the measure fails, since a played board must be stored whatever befalls its statistics
    (a board without a luck counts as luck 0, i.e. raw)."""
    if rules.name not in WEIGHTS:  # no evaluator for this game yet: unmeasured, the board counts raw
        return {**room, "luck": None}
    try:
        luck: float | None = room_luck(rules, board, room["actions"])
    except Exception:  # noqa: BLE001 - never lose a board to its luck measure
        luck = None
    return {**room, "luck": luck}


def lucky_pair(rules: Ruleset, board: Board, record: dict[str, Any]) -> dict[str, Any]:
    """A board-pair record (``server.arena.duplicate.play_pairs``) with each room's luck and X's."""
    rooms = [with_luck(rules, board, room) for room in record["rooms"]]
    return {**record, "rooms": rooms, "luck": pair_luck(rooms)}


def pair_luck(rooms: list[dict[str, Any]]) -> float | None:
    """X's luck on a board pair, as ``server.arena.duplicate.pair_score`` counts X's score: X sat
    N/S in the first room and E/W in the second (None if a room has none)."""
    if rooms[0]["luck"] is None or rooms[1]["luck"] is None:
        return None
    return round(rooms[0]["luck"] - rooms[1]["luck"], 4)


def blind_luck(room: dict[str, Any], par: dict[str, Any], first_unit: bool) -> float | None:
    """An entrant's luck on a blind board, as ``server.arena.duplicate.blind_score`` counts its
    score: its side's luck in its room minus the par pair's at the same side (None if
    either room has none). A room's luck is its first unit's (N/S)."""
    if room["luck"] is None or par["luck"] is None:
        return None
    sign = 1 if first_unit else -1
    return round(sign * (room["luck"] - par["luck"]), 4)
