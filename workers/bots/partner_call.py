"""``search``'s call of a partner in ``auction_cinch`` (docs/rules/auction_cinch.md#call),
chosen by playing each candidate card out over sampled worlds.

The call comes after the whole draw, so the calls alone no longer rebuild the declarer's
state (``family_bid`` cannot search it): which cards the others drew is hidden. But at the
call everything the play search needs is there: the declarer's six cards, the discards
shown face up, every other hand's size. So a *world* is the play search's
(``family_search.deal_worlds``: the unseen cards dealt to the other hands, the rest left in
the stock), and each candidate is applied to it by the engine itself: the state at the first
lead with that card called (``world_state`` makes the call again on the world's hands, so
the partner is whoever holds it there, or nobody). The hand is then played out by the
family's play-out policy and scored as the seat's unit net (``family_search.unit_net``): a
partner's gain is another seat's gain, so a call that brings a partner in is weighed
against playing alone.

The candidates: the rule bot's call (the highest trump the declarer lacks that may be in
another hand), the next two such trumps, and a card of the declarer's own (playing alone).
Every candidate meets the same worlds and the same play-out draws; the rule bot's call
stands unless another is better by more than ``Z`` standard errors of the paired
differences (as ``family_bid``'s calls).

Budgets are counts (``WORLDS``); ``decision_rng`` draws everything from the seed and the
observation, so an observation's hidden cards cannot change a decision.
"""

from __future__ import annotations

from random import Random

from server.engine.world import WorldError, world_state
from workers.bots.base import Action, Observation, decision_rng
from workers.bots.family_bid import clearly_best
from workers.bots.family_search import deal_worlds, rollout_card, rollout_play, unit_net
from workers.bots.rule_bot import RuleBot, all_trumps

WORLDS = 48  # worlds a call samples at the default level
TRUMPS = 3  # trumps the declarer lacks tried as the call, highest first


def searches(obs: Observation) -> bool:
    """Whether this decision is the call this module makes."""
    return obs["ruleset"] == "auction_cinch" and obs["phase"] == "call"


def candidates(obs: Observation, first: Action) -> list[Action]:
    """The rule bot's call, the highest trumps the declarer lacks that may be in another hand
    (not a face-up discard out of play), and its lowest own card: alone."""
    hand = set(obs["hand"])
    back = set(obs.get("restocked") or ())
    out = {c for d in obs["draws"] for c in d["shown"] if c not in back}
    wanted = [c for c in all_trumps(obs["trump"]) if c not in hand and c not in out][:TRUMPS]
    tried = [first]
    for card in [*wanted, min(obs["hand"])]:
        action = {"type": "call", "card": card}
        if action not in tried:
            tried.append(action)
    return tried


def holder(world: dict[str, list[str]], card: str, declarer: str) -> str | None:
    """The seat the call of ``card`` makes the partner in ``world``, or None (alone)."""
    return next((seat for seat, cards in world.items() if seat != declarer and card in cards), None)


def search_call(seed: int | str, obs: Observation, worlds: int) -> Action:
    """The call over ``worlds`` sampled worlds: the rule bot's unless another candidate is
    clearly better (the module)."""
    first = RuleBot(seed).decide(obs)
    tried = candidates(obs, first)
    if len(tried) == 1 or worlds < 2:
        return first
    rng = decision_rng(seed, obs)
    me = obs["seats"].index(obs["seat"])
    nets: list[list[float]] = [[] for _ in tried]
    dealt = deal_worlds(obs, rng)
    for _ in range(worlds):
        world = next(dealt)
        draws = rng.getrandbits(64)
        for j, action in enumerate(tried):
            called = action["card"]
            at_play = {**obs, "phase": "play", "called": called, "partner": holder(world, called, obs["seat"])}
            try:
                state = world_state(at_play, world)
            except WorldError:  # a world the engine refuses: the rule bot decides
                return first
            play = Random(draws)
            while state.phase != "done":
                rollout_play(state, rollout_card(state, play), play)
            nets[j].append(unit_net(state, me))
    return tried[clearly_best(nets)]
