"""Blind Cinch (docs/rules/blind_cinch.md): nine cards each and a blind packet of four.

The hand is Cinch's, steered by ``blind_packet`` (no stock: each seat takes up his
packet at his discard turn, the declarer first, and discards down to six). The option
``base`` chooses the Cinch ruleset whose rules all apply (bids, forced bid, discards,
points, scoring, target); ``BlindCinchRules`` copies them in when the ruleset is built.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from server.engine.games.cinch import CINCH_SWING
from server.engine.games.cinch_hand import HandState
from server.engine.rulesets import AMERICAN62, BASE_RULESETS, FOSTER51, TARGET, GameSpec, Ruleset, choice

_OWN_FIELDS = frozenset({"name", "target", "base", "blind_packet", "players"})


class BaseTarget(int):
    """A target nobody chose: the base's. ``make_ruleset`` applies options over the
    default with ``dataclasses.replace``, so this mark is how a chosen ``target`` (a
    plain int) is told from one to take from a newly chosen ``base``."""


@dataclass(frozen=True)
class BlindCinchRules(Ruleset):
    """A blind_cinch ruleset: every rule of ``base`` except the deal (and a chosen target)."""

    def __post_init__(self) -> None:
        base = BASE_RULESETS[self.base]
        for f in fields(Ruleset):
            if f.name not in _OWN_FIELDS:
                object.__setattr__(self, f.name, getattr(base, f.name))
        if isinstance(self.target, BaseTarget):
            object.__setattr__(self, "target", BaseTarget(base.target))

    def options(self) -> dict[str, Any]:
        """As ``Ruleset.options``, but a chosen target is named even when it equals the
        default's, and the base's never is: so the options rebuild this very ruleset."""
        out = super().options()
        out.pop("target", None)
        if not isinstance(self.target, BaseTarget):
            out["target"] = self.target
        return out


BLIND_CINCH = BlindCinchRules(
    name="blind_cinch", target=BaseTarget(FOSTER51.target), min_bid=FOSTER51.min_bid, base=FOSTER51.name, blind_packet=4
)

SPECS = (
    GameSpec(
        default=BLIND_CINCH,
        players=(4,),
        hand=HandState,
        swing=CINCH_SWING,  # Cinch's 14 points a deal and scoring
        partnerships=True,
        options={
            "base": choice(
                "the Cinch ruleset it varies: its bidding, play and scoring", FOSTER51.name, AMERICAN62.name
            ),
            "target": TARGET,
        },
    ),
)
