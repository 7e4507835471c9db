"""The seeded randomness every built-in bot uses (the agent protocol is ``server.arena.agent``).

A built-in bot's randomness is drawn from its seed *and* the
observation, never from a generator that advances between calls: a bot then decides
the same way in the same situation whatever order the worker plays boards in, so a
chunk of a match that is re-run after a crash replays exactly, and a decision depends
only on what the seat may know.
"""

from __future__ import annotations

import hashlib
import json
from random import Random

from server.arena.agent import Action, Agent, Observation

__all__ = ["Action", "Agent", "Observation", "decision_rng"]  # the bots' one import of the protocol


def decision_rng(seed: int | str, observation: Observation) -> Random:
    """A generator fixed by the bot's seed and everything in the observation."""
    text = json.dumps(observation, sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(f"{seed}|{text}".encode(), digest_size=8).digest()
    return Random(int.from_bytes(digest, "big"))
