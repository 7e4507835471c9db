"""``Bot``: the base class of a bot. Override ``act`` or any of the per-decision methods.

``act(obs)`` gets an ``Observation`` and returns an action dict. The default ``act``
asks the method for the decision at hand, each of which may answer in a short form::

    bid(obs)     -> amount (int), None or 0 to pass, or an action dict
    trump(obs)   -> a suit ("H"), or an action dict
    discard(obs) -> the cards to discard (list), or an action dict
    rob(obs)     -> the dealer's whole hand afterwards (list), or an action dict
    play(obs)    -> a card ("AH"), (card, extras), or an action dict; owed extras
                    missing from the answer are filled in by ``extras``

and, in the All Fours games (seven_up, pitch, all_fives), each answering with the
action's type (``"stand"``) or an action dict::

    beg(obs)     -> "stand" or "beg" (the eldest, on the turn-up)
    give(obs)    -> "give" or "run" (the dealer, answering a beg)
    bunch(obs)   -> "bunch" or "pass" (two players, with the bunch option)
    accept(obs)  -> "accept" or "refuse" (answering a bunch)

and in the auction games (auction_pitch, pedro, snoozer), where bids are ``bid``'s::

    sale(obs)    -> "sell" or "pitch" (the eldest, after the auction)

and in widow_cinch, the declarer before naming trump::

    widow(obs)   -> True to take the widow, False to leave it, or an action dict

and in auction_cinch::

    call(obs)    -> the called card ("KC"), or an action dict (the declarer, after the draw)

Methods not overridden choose a random legal action (``self.rng``, seeded by
``seed``). The runner may call ``act`` from several threads at once (one per open
decision: a bot holds up to two seats in each of several matches), so keep a bot's
per-hand reasoning in the observation, or guard shared state with a lock.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from sdk import cards as C
from sdk.errors import SdkError
from sdk.models import Decision
from sdk.observation import Action, Observation, bid, call, discard, pass_, play, rob, trump, widow


class Bot:
    """Subclass me. ``name`` is only informational (the server knows a bot by its token)."""

    name: str | None = None
    seed: int | str | None = None

    def __init__(self, seed: int | str | None = None):
        if seed is not None:
            self.seed = seed

    @property
    def rng(self) -> random.Random:
        """A generator seeded by ``seed`` (made on first use, so subclasses need not call __init__)."""
        rng = self.__dict__.get("_rng")
        if rng is None:
            rng = self.__dict__["_rng"] = random.Random(self.seed)
        return rng

    # ------------------------------------------------------------------ the one entry point
    def act(self, obs: Observation) -> Action:
        kind = obs.decision
        if kind is None:
            raise SdkError("no decision: the observation has no legal actions")
        return self.to_action(obs, getattr(self, kind)(obs))

    def respond(self, decision: Decision) -> Action:
        """The runner's entry point: ``act`` on the decision's observation. A bot that
        needs the whole decision (its id, its deadline: ``sdk.line.LineBot`` forwards it
        to a program) overrides this instead."""
        return self.act(decision.observation)

    def close(self) -> None:
        """Called once the runner has stopped: release what the bot holds (a child process)."""

    # ------------------------------------------------------------------ one method per decision
    def bid(self, obs: Observation) -> int | None | Action:
        return obs.random_action(self.rng)

    def trump(self, obs: Observation) -> str | Action:
        return obs.random_action(self.rng)

    def discard(self, obs: Observation) -> list[str] | Action:
        return obs.random_action(self.rng)

    def rob(self, obs: Observation) -> list[str] | Action:
        return obs.random_action(self.rng)

    def play(self, obs: Observation) -> str | tuple[str, list[str]] | Action:
        return obs.random_action(self.rng)

    def beg(self, obs: Observation) -> str | Action:
        return obs.random_action(self.rng)

    def give(self, obs: Observation) -> str | Action:
        return obs.random_action(self.rng)

    def bunch(self, obs: Observation) -> str | Action:
        return obs.random_action(self.rng)

    def accept(self, obs: Observation) -> str | Action:
        return obs.random_action(self.rng)

    def sale(self, obs: Observation) -> str | Action:
        return obs.random_action(self.rng)

    def widow(self, obs: Observation) -> bool | Action:
        return obs.random_action(self.rng)

    def call(self, obs: Observation) -> str | Action:
        return obs.random_action(self.rng)

    def extras(self, obs: Observation, card: str, count: int, choices: list[str]) -> list[str]:
        """The extras to add to ``card`` when ``count`` are owed: by default the lowest trumps."""
        return C.by_strength(choices, obs.trump, plain=obs.plain_trumps)[:count]

    # ------------------------------------------------------------------ short forms to actions
    def to_action(self, obs: Observation, result: Any) -> Action:
        """Turn a per-decision method's answer into an action dict (see the module docstring)."""
        kind = obs.decision
        if isinstance(result, dict):
            action = dict(result)
        elif kind == "bid":
            action = pass_() if result in (None, 0, "pass") else bid(result)
        elif kind == "trump":
            action = trump(result)
        elif kind == "discard":
            action = discard(result)
        elif kind == "rob":
            action = rob(result)
        elif kind == "play":
            if isinstance(result, (tuple, list)):
                card, extras = result
                action = play(card, extras)
            else:
                action = play(result)
        elif kind == "call" and isinstance(result, str):
            action = call(result)
        elif kind in ("beg", "give", "bunch", "accept", "sale") and isinstance(result, str):
            action = {"type": result}
        elif kind == "widow" and isinstance(result, bool):
            action = widow(result)
        else:
            raise SdkError(f"cannot make an action of {result!r} for a {kind!r} decision")
        if action.get("type") == "play" and "extras" not in action:
            count, choices = obs.extras_for(action["card"]) if action.get("card") in obs.legal_cards else (0, [])
            if count:
                action["extras"] = list(self.extras(obs, action["card"], count, choices))
        return action


class FunctionBot(Bot):
    """A bot from a function ``observation -> action`` (or an object with ``decide``)."""

    def __init__(self, function: Callable[[Observation], Action]):
        super().__init__()
        self.function = function
        self.name = getattr(function, "__name__", None)

    def act(self, obs: Observation) -> Action:
        return self.function(obs)


def as_bot(thing: Any) -> Bot:
    """A ``Bot`` from a Bot, a Bot class, an agent with ``decide(observation)`` (as the
    built-in bots have), or a plain function ``observation -> action``."""
    if inspect.isclass(thing):
        thing = thing()
    if isinstance(thing, Bot):
        return thing
    for method in ("act", "decide"):
        if callable(getattr(thing, method, None)):
            bot = FunctionBot(getattr(thing, method))
            bot.name = type(thing).__name__
            return bot
    if callable(thing):
        return FunctionBot(thing)
    raise SdkError(f"{thing!r} is not a bot: give a Bot subclass, an object with act() or decide(), or a function")


def import_target(target: str, spec: str) -> ModuleType:
    """The module ``target`` names, a ``.py`` file (its folder importable, for the bot's own
    modules beside it) or a module; SdkError saying what is wrong, naming ``spec``."""
    try:
        if target.endswith(".py") or os.sep in target:
            path = Path(target)
            if not path.is_file():
                raise SdkError(f"bot {spec!r}: no file {target}")
            if str(path.resolve().parent) not in sys.path:
                sys.path.insert(0, str(path.resolve().parent))
            name = f"_cinch_bot_{path.stem}"
            loaded = importlib.util.spec_from_file_location(name, path)
            if loaded is None or loaded.loader is None:
                raise SdkError(f"bot {spec!r}: {target} is not a Python module")
            module = importlib.util.module_from_spec(loaded)
            sys.modules[name] = module
            loaded.loader.exec_module(module)
            return module
        return importlib.import_module(target)
    except SdkError:
        raise
    except SyntaxError as exc:
        raise SdkError(f"bot {spec!r}: syntax error in {exc.filename}, line {exc.lineno}: {exc.msg}") from None
    except ImportError as exc:
        raise SdkError(f"bot {spec!r}: cannot import {target}: {exc}") from None
    except Exception as exc:
        raise SdkError(f"bot {spec!r}: importing {target} failed: {type(exc).__name__}: {exc}") from None


def load_bot(spec: str) -> Bot:
    """A bot from ``"package.module:Name"`` or ``"path/to/file.py:Name"``.

    ``Name`` may be a class (instantiated without arguments), an instance or a
    function; without ``:Name`` the module's one ``Bot`` subclass is used. The current
    directory is importable, as with ``python -m``.
    """
    if spec.endswith(".py") or ":" not in spec:
        target, attr = spec, ""
    else:
        target, _, attr = spec.rpartition(":")
    if not target:
        raise SdkError(f"bot {spec!r}: expected module:Class or file.py:Class")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    module = import_target(target, spec)
    if attr:
        try:
            thing: object = module
            for part in attr.split("."):
                thing = getattr(thing, part)
        except AttributeError:
            raise SdkError(f"bot {spec!r}: {target} has no {attr!r}") from None
    else:
        classes = [
            v
            for v in vars(module).values()
            if inspect.isclass(v)
            and issubclass(v, Bot)
            and v not in (Bot, FunctionBot)
            and v.__module__ == module.__name__
        ]
        if len(classes) != 1:
            found = ", ".join(c.__name__ for c in classes) or "none"
            raise SdkError(f"bot {spec!r}: name the class as {target}:Name (Bot subclasses found: {found})")
        thing = classes[0]
    try:
        return as_bot(thing)
    except SdkError:
        raise
    except Exception as exc:
        raise SdkError(f"bot {spec!r}: cannot create it: {type(exc).__name__}: {exc}") from None
