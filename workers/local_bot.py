"""Local entrants: a bot author's own ``sdk.Bot`` subclass, played in this machine's workers.

A local entrant is named ``PATH.py:Class`` (a file, relative to the current directory)
or ``package.module:Class`` (importable from the current directory or the environment);
see ``server.arena.registry.LOCAL``. ``resolve`` checks a reference at once (the file
exists, it imports, the class exists and is an ``sdk.Bot`` subclass that can be made
without arguments) and returns the entrant's display name, ``stem:Class``, with its
*source*: the absolute file (or the module with the directory it was imported from),
stored with the tournament so that every worker, and a later ``resume``, loads the
same class.

In a worker the bot takes its seat as a ``LocalAgent``: it is shown each room through the
same view as a remote seat (``workers.remote.ViewedSeat``), gets the observation as a
remote bot parses it (``sdk.models.Decision.parse`` of the same JSON), and its answer is
checked against the legal actions as the API checks a remote answer
(``server.engine.legality.check``). An illegal answer or an exception is raised to the
match runner, whose policy for a bad answer applies (``server.arena.duplicate``: the
default action, and a fault recorded).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from sdk.bot import Bot, import_target
from sdk.errors import SdkError
from sdk.models import Decision
from server.arena.registry import LOCAL_REFERENCE
from server.arena.store import Store
from server.engine.legality import check
from server.errors import InvalidRequest
from workers.remote import ViewedSeat

Source = dict[str, str]
"""Where a local entrant is loaded from: ``{"file", "class"}`` or ``{"module", "root", "class"}``."""


class LocalBotError(InvalidRequest):
    """A local entrant that cannot be loaded; the message says why."""


def resolve(reference: str, cwd: str | None = None) -> tuple[str, Source]:
    """The display name (``stem:Class``) and source of a local entrant's reference, after
    checking that its class loads; raises LocalBotError saying what is wrong."""
    found = LOCAL_REFERENCE.match(reference)
    if found is None:
        raise LocalBotError(f"bot {reference!r}: a local bot is named PATH.py:Class or package.module:Class")
    root = os.path.abspath(cwd or os.getcwd())
    target, cls = found["target"], found["cls"]
    if target.endswith(".py"):
        path = Path(root, target)
        if not path.is_file():
            raise LocalBotError(f"bot {reference!r}: no file {path}")
        source = {"file": str(path.resolve()), "class": cls}
    else:
        source = {"module": target, "root": root, "class": cls}
    make(source, reference)
    return display_name(source), source


def display_name(source: Source) -> str:
    """``my_bot:MyBot``: the file's stem (or the module's last part) and the class."""
    stem = Path(source["file"]).stem if "file" in source else source["module"].rpartition(".")[2]
    return f"{stem}:{source['class']}"


_classes: dict[str, type[Bot]] = {}  # a worker loads each source once


def load_class(source: Source, reference: str | None = None) -> type[Bot]:
    """The ``sdk.Bot`` subclass a source names; LocalBotError says what is wrong."""
    key = json.dumps(source, sort_keys=True)
    if key in _classes:
        return _classes[key]
    what = reference or (source.get("file") or source["module"]) + ":" + source["class"]
    where = source.get("file") or source["module"]
    if "file" not in source and source["root"] not in sys.path:
        sys.path.insert(0, source["root"])
    try:
        module = import_target(where, what)
    except SdkError as exc:
        raise LocalBotError(str(exc)) from None
    found = getattr(module, source["class"], None)
    if found is None:
        raise LocalBotError(f"bot {what!r}: {where} has no {source['class']!r}")
    if not (isinstance(found, type) and issubclass(found, Bot)):
        raise LocalBotError(f"bot {what!r}: {source['class']} is not a subclass of sdk.Bot")
    _classes[key] = found
    return found


def make(source: Source, reference: str | None = None) -> Bot:
    """A new instance of the source's class, made without arguments (as ``cinch bot run`` does)."""
    cls = load_class(source, reference)
    try:
        return cls()
    except Exception as exc:
        raise LocalBotError(
            f"bot {reference or display_name(source)!r}: cannot create it: {type(exc).__name__}: {exc}"
        ) from None


class JudgedSeat(ViewedSeat):
    """A seat played on this machine by the user's own program: shown the JSON a remote
    bot is served, its answer judged as the API judges a remote answer. Local and cmd
    entrants (``workers.cmd_bot``) share it, so neither sees or may send more than a
    remote bot; subclasses answer in ``_answer``."""

    def _ask(self, observation: dict[str, Any]) -> dict[str, Any]:
        wire = json.loads(json.dumps(observation))  # the JSON a remote bot is served
        action = self._answer(wire)
        check(action, observation["legal"], observation.get("seat"))  # IllegalAction: a fault
        return dict(action)

    def _answer(self, observation: dict[str, Any]) -> Any:
        raise NotImplementedError


class LocalAgent(JudgedSeat):
    """A local bot in one seat of a match (see the module docstring)."""

    def __init__(self, store: Store, source: Source):
        super().__init__(store)
        self.bot = make(source)

    def _answer(self, observation: dict[str, Any]) -> Any:
        return self.bot.act(Decision.parse({"observation": observation, "legal": observation.get("legal")}).observation)
