"""``search``'s calls before the play in the family games, chosen by playing each candidate
forward on sampled deals (``SEARCHED``): the bids of ``auction_pitch``, ``pedro``,
``snoozer``, ``auction_cinch`` and ``widow_cinch`` and the calls each of them makes right
after the auction (the eldest's sale, auction_cinch's trump, widow_cinch's widow and trump);
and the eldest's beg and the dealer's give or run of the turn-up games, ``seven_up`` and
``all_fives``.

In these games nothing happens before these calls but the deal (and the turn-up), and every
call is public (``bids``; a dealer asked to give knows the eldest begged), so a *deal* the
seat cannot rule out is its own cards and the turn-up where the deal put them and every
other card (the undealt ones too) shuffled into the other places; the engine deals it and
replays the calls so far, which gives the very state the seat is in. Each candidate (pass, a
few bid amounts; sell or pitch; a suit; the widow taken or not; stand or beg; give or run)
is then applied to a copy of that state and the hand is finished: every later decision
before the play (a run's discards too) and the pitch by the rule bot for every seat (the
model of the others, and of this seat's own later calls), the cards by the family search's
cheap play-out policy; the result is the seat's unit net (``family_search.unit_net``)
through the ruleset's own scoring, a set pitcher's loss and a gift's point included.

Every candidate meets the same deals and the same play-out draws (common random numbers),
so their differences are measured far more tightly than their values. The rule bot's call
stands unless another candidate's mean is better by more than ``Z`` standard errors of the
paired differences: the best of several noisy means is biased upward, and a switch on noise
costs (docs/bots.md, the rob's margin).

Budgets are counts (deals, candidates); ``decision_rng`` draws everything from the seed and
the observation, so an observation's hidden cards cannot change a decision.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from random import Random

from server.engine import make_ruleset, observation
from server.engine.boards import Board
from server.engine.cards import CARD_INDEX, mask_of
from server.engine.games import GAMES
from server.engine.games.all_fours import TurnUpHand
from server.engine.hand import Hand, IllegalAction, new_hand
from server.engine.rulesets import Ruleset, game_spec
from workers.bots.base import Action, Observation, decision_rng
from workers.bots.family_search import rollout_card, rollout_play, unit_net
from workers.bots.rule_bot import RuleBot


@dataclass(frozen=True)
class Searched:
    """What is searched in a ruleset: its phases, each reached from the deal by the public
    calls alone (the bids, and widow_cinch's widow taken or left), and the deals a decision
    samples at the default level (fewer where the rest of the hand, a draw and a call for
    every seat, costs more to finish)."""

    phases: frozenset[str]
    deals: int


SEARCHED: dict[str, Searched] = {
    "auction_pitch": Searched(frozenset({"bidding", "sale"}), 32),
    "pedro": Searched(frozenset({"bidding", "sale"}), 32),
    "snoozer": Searched(frozenset({"bidding", "sale"}), 32),
    "auction_cinch": Searched(frozenset({"bidding", "trump"}), 20),
    "widow_cinch": Searched(frozenset({"bidding", "widow", "trump"}), 20),
    "seven_up": Searched(frozenset({"beg", "give"}), 64),
    "all_fives": Searched(frozenset({"beg", "give"}), 64),
}
BIDS = 5  # bid amounts tried besides passing (the rule bot's, the least, then spread)
Z = 1.0  # standard errors of the paired difference by which a candidate must beat the rule bot's

Model = Callable[[Observation], Action]


@dataclass(frozen=True)
class Places:
    """Where a ruleset's deal puts the deck's positions: each seat's (a mask), the turn-up's
    (the turn-up games; -1 elsewhere) and, last, the undealt ones."""

    hands: tuple[int, ...]
    turnup: int
    undealt: int


@cache
def _places(rules: Ruleset, dealer: str) -> Places:
    """The engine deals a deck whose cards are their own positions."""
    size = GAMES[rules.name].deck
    state = new_hand(rules, Board(dealer=dealer, deck=tuple(range(size)), seed="00"))
    dealt = 0
    for mask in state.hands:
        dealt |= mask
    turnup = state.turnups[0] if isinstance(state, TurnUpHand) else -1
    if turnup >= 0:
        dealt |= 1 << turnup
    return Places(tuple(state.hands), turnup, ((1 << size) - 1) & ~dealt)


def sample_deal(rules: Ruleset, obs: Observation, rng: Random) -> Board:
    """A deck that deals this seat its cards and the turn-up where they were, and
    everything else at random. A widow the seat took (widow_cinch: the undealt cards) is in
    its hand, so its cards fill the widow's places too; which of them it was dealt makes no
    difference from then on. The board's seed (a bunch's or a rebuilt stock's order) is
    drawn too."""
    places = _places(rules, obs["dealer"])
    me = obs["seats"].index(obs["seat"])
    held = places.hands[me] | (places.undealt if obs.get("widow_taken") else 0)
    mine = [CARD_INDEX[c] for c in obs["hand"]]
    size = GAMES[rules.name].deck
    deck = [0] * size
    for p, card in zip((p for p in range(size) if held >> p & 1), mine, strict=True):
        deck[p] = card
    kept = set(mine)
    if places.turnup >= 0:
        deck[places.turnup] = CARD_INDEX[obs["turnups"][0]]
        held |= 1 << places.turnup
        kept.add(deck[places.turnup])
    rest = [c for c in range(size) if c not in kept]
    rng.shuffle(rest)
    others = iter(rest)
    for p in range(size):
        if not held >> p & 1:
            deck[p] = next(others)
    return Board(dealer=obs["dealer"], deck=tuple(deck), seed=f"{rng.getrandbits(64):016x}")


def public_calls(obs: Observation) -> list[Action]:
    """The calls before this turn, each with its seat: the auction's, or in the turn-up
    games the eldest's beg that the dealer answers. A turn-up game's hand dealt again after
    a bunch is not rebuilt (ValueError): the points scored before it (turned Jacks, a gift)
    are not in the calls. Nor is one past a run, which no beg or give follows."""
    if "bids" in obs:
        return obs["bids"]
    if obs["bunches"] or len(obs["turnups"]) != 1:
        raise ValueError("a hand dealt again or run is not rebuilt from the calls")
    if obs["phase"] == "give":
        seats = obs["seats"]
        return [{"seat": seats[(seats.index(obs["dealer"]) + 1) % len(seats)], "type": "beg"}]
    return []


def state_of(rules: Ruleset, obs: Observation, board: Board) -> Hand:
    """The engine's state of ``board`` after the public calls the seat has seen."""
    sides = game_spec(rules).sides(rules.players)[0]
    state = new_hand(rules, board, tuple(obs["scores"][side] for side in sides))
    seats = obs["seats"]
    for call in public_calls(obs):
        if state.to_act != seats.index(call["seat"]):
            raise ValueError(f"{call['seat']} calls out of turn in the replay")
        state.apply({k: v for k, v in call.items() if k != "seat"})
    if obs.get("widow_taken") is not None:  # the maker's public choice after the auction
        state.apply({"type": "widow", "take": obs["widow_taken"]})
    me = seats.index(obs["seat"])
    if (
        state.to_act != me
        or state.phase != obs["phase"]
        or state.hands[me] != mask_of(CARD_INDEX[c] for c in obs["hand"])
    ):
        raise ValueError("the replayed auction does not reach this seat's turn")
    return state


def finish(state: Hand, rng: Random, model: Model) -> None:
    """Play ``state`` to the end: calls and the pitch by ``model``, cards by the play-outs."""
    while state.phase != "done":
        if state.phase == "play" and state.tables is not None:
            rollout_play(state, rollout_card(state, rng), rng)
        else:
            state.apply(model(observation(state, state.seat_to_act())))


def candidates(obs: Observation, first: Action, bids: int) -> list[Action]:
    """The model's call first, then pass, the least bid and bid amounts spread to the top."""
    legal = obs["legal"]
    amounts = sorted(a["amount"] for a in legal if a["type"] == "bid")
    out = [first, *(dict(a) for a in legal if a["type"] != "bid")]
    if amounts:
        step = max(1, math.ceil((amounts[-1] - amounts[0]) / max(1, bids - 1)))
        out += [{"type": "bid", "amount": n} for n in amounts[::step]]
    unique: list[Action] = []
    for action in out:
        if action not in unique:
            unique.append(action)
    return unique[: bids + 2]


def deals_for(obs: Observation) -> int:
    """The deals ``search_call`` samples for this decision at the default level, 0 for a
    decision it does not make."""
    searched = SEARCHED.get(obs["ruleset"])
    if searched is None or obs["phase"] not in searched.phases or len(obs["legal"]) < 2:
        return 0
    return searched.deals


def search_call(seed: int | str, obs: Observation, deals: int, model: Model | None = None) -> Action:
    """The seat's call on ``deals`` sampled deals: the model's (the rule bot's unless given)
    unless another candidate is clearly better (the module). An observation whose calls the
    engine cannot replay to this seat's turn gets the model's call, as the family's play
    search leaves a decision with no world to the rule bot."""
    model = model or RuleBot(seed).decide
    first = model(obs)
    tried = candidates(obs, first, BIDS)
    if len(tried) == 1 or deals < 2:  # one call, or no spread to judge a difference by
        return first
    rules = make_ruleset(obs["ruleset"], obs["options"])
    rng = decision_rng(seed, obs)
    me = obs["seats"].index(obs["seat"])
    nets: list[list[float]] = [[] for _ in tried]
    for _ in range(deals):
        try:
            start = state_of(rules, obs, sample_deal(rules, obs, rng))
        except (ValueError, IllegalAction):  # a state the engine cannot rebuild: the model decides
            return first
        draws = rng.getrandbits(64)
        for j, action in enumerate(tried):
            trial = start.clone()
            trial.apply(action)
            finish(trial, Random(draws), model)
            nets[j].append(unit_net(trial, me))
    best, best_gain = 0, 0.0
    for j in range(1, len(tried)):
        diffs = [a - b for a, b in zip(nets[j], nets[0], strict=True)]
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1) / len(diffs))
        if mean > Z * spread and mean > best_gain:
            best, best_gain = j, mean
    return tried[best]
