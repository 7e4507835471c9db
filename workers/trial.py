"""``play_offline``: a bot author's ``sdk.Bot`` against built-in bots on a few boards, in
this process: no server, no Redis, no workers. ``cinch bot new``'s generated test uses it.

Each board is played once per unit of the table (a side, or a single seat where each plays
for himself) with the bot holding that unit and the opponent every other one, so the bot
sits at every position of the table. The bot sees what a remote or local entrant sees:
the observation as JSON, parsed by ``sdk.models.Decision.parse``, and its answer is
judged by ``server.engine.legality.check`` as the API judges a remote answer. An illegal
answer, or an exception, is a *fault*: the match runner's policy applies (the default
action goes instead, ``server.arena.duplicate.play_room``) and the fault is reported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sdk.bot import Bot
from sdk.models import Decision
from server.arena import dealsets
from server.arena.duplicate import net, play_room, units_of
from server.arena.tournaments import table_shape
from server.engine import make_ruleset, seats_for
from server.engine.legality import check
from workers.bots import make_bot


@dataclass
class Trial:
    """What a bot did: ``decisions`` it answered, its ``faults`` (``{"board", "unit",
    "seat", "index", "error"}``: an illegal answer or an exception, replaced by the
    default action) and its net score (points per room, summed)."""

    ruleset: str
    rooms: int = 0
    decisions: int = 0
    net: float = 0.0
    faults: list[dict[str, Any]] = field(default_factory=list)


class _Judged:
    """The bot in its seats: shown the wire JSON, its answer checked as the API checks one."""

    def __init__(self, bot: Bot, trial: Trial):
        self.bot, self.trial = bot, trial

    def decide(self, observation: dict[str, Any]) -> dict[str, Any]:
        self.trial.decisions += 1
        wire = json.loads(json.dumps(observation))
        action = self.bot.act(Decision.parse({"observation": wire, "legal": wire.get("legal")}).observation)
        check(action, observation["legal"], observation.get("seat"))
        return dict(action)


def play_offline(
    bot: Bot,
    ruleset: str = "american62",
    boards: int = 4,
    opponent: str = "random",
    options: dict[str, Any] | None = None,
    seed: str = "cinch-bot-trial",
) -> Trial:
    """Play ``boards`` boards of ``ruleset`` (with ``options``), ``bot`` against the
    built-in ``opponent`` at every unit of the table; see the module docstring."""
    rules = make_ruleset(ruleset, options or {})
    players, deck = table_shape(ruleset, options or {})
    deals = dealsets.generate(seed, boards, players=players, deck=deck)
    names, unit_of_seat = units_of(rules)
    trial = Trial(ruleset)
    judged = _Judged(bot, trial)
    other = make_bot(opponent)
    for number in range(1, boards + 1):
        for unit, name in enumerate(names):
            agents = [judged if u == unit else other for u in unit_of_seat]
            record = play_room(rules, deals.board(number), agents)
            trial.rooms += 1
            trial.net += float(net(record["result"]["delta"], name))
            seats = [s for s, u in zip(seats_for(players), unit_of_seat) if u == unit]
            trial.faults += [
                {"board": number, "unit": name, **f} for f in record.get("faults", []) if f["seat"] in seats
            ]
    return trial
