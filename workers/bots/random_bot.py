"""``random``: a uniformly random legal action; the floor of the strength ladder."""

from __future__ import annotations

from server.engine.playout import random_action
from workers.bots.base import Action, Observation, decision_rng


class RandomBot:
    def __init__(self, seed: int | str = 0):
        self.seed = seed

    def decide(self, observation: Observation) -> Action:
        return random_action(observation["legal"], decision_rng(self.seed, observation))
