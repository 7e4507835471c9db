"""Checking an action against an observation's ``legal`` list, without the hidden state.

The API validates a remote bot's answer the moment it arrives, so the bot can correct
itself before its deadline; it has only what the bot was shown. The legal list is
exact (every bid, suit and main card, and choice objects that state every constraint
of a discard, a rob or the extras), so this check accepts exactly what the engine's
``HandState.apply`` accepts, which the worker then runs anyway.
"""

from __future__ import annotations

import json
from typing import Any

from server.engine.cards import CARD_INDEX
from server.engine.hand import IllegalAction

# The fields of every action type (docs/rules/actions.md#wire-format, docs/rules/actions.md#family-actions); the types that are
# their name alone (pass, stand, beg, give, run, bunch, accept, refuse, sell, pitch) have none.
_FIELDS = {
    "pass": set(),
    "bid": {"amount"},
    "trump": {"suit"},
    "discard": {"cards"},
    "rob": {"keep"},
    "play": {"card", "extras"},
    "widow": {"take"},
    "call": {"card"},
    **{kind: set() for kind in ("stand", "beg", "give", "run", "bunch", "accept", "refuse", "sell", "pitch")},
}


def _cards(value: Any, field: str) -> set[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARD_INDEX for c in value):
        raise IllegalAction(f'{field} must be a list of cards such as "AH"')
    if len(set(value)) != len(value):
        raise IllegalAction(f"{field} names a card twice")
    return set(value)


def check(action: Any, legal: list[dict[str, Any]], seat: str | None = None) -> None:
    """Raise ``IllegalAction`` saying what is wrong unless ``action`` is allowed by ``legal``."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("an action must be a JSON object with a 'type'")
    kind = action["type"]
    if kind not in _FIELDS:
        raise IllegalAction(f"unknown action type {kind!r} (known: {', '.join(_FIELDS)})")
    extra = set(action) - _FIELDS[kind] - {"type", "seat"}
    if extra:
        raise IllegalAction(f"a {kind!r} action has no field {sorted(extra)[0]!r}")
    if seat is not None and "seat" in action and action["seat"] != seat:
        raise IllegalAction(f"out of turn: the seat to act is {seat}, not {action['seat']!r}")
    options = [a for a in legal if a["type"] == kind]
    if not options:
        expected = " or ".join(sorted({a["type"] for a in legal}))
        raise IllegalAction(f"a {kind!r} action is not allowed now: expected {expected}")
    if kind == "widow" and not isinstance(action.get("take"), bool):
        raise IllegalAction(f"a widow action needs a boolean take, not {json.dumps(action.get('take'))}")
    if kind not in ("discard", "rob", "play"):
        plain = {k: v for k, v in action.items() if k != "seat"}
        if plain not in options:
            raise IllegalAction(f"{json.dumps(plain)} is not among the legal actions: {json.dumps(options)}")
        return
    choice = options[0]
    if kind == "discard":
        cards = _cards(action.get("cards"), "discard cards")
        allowed, must = set(choice["from"]), set(choice.get("must_include", []))
        high = choice.get("max", len(allowed))
        if not cards <= allowed:
            raise IllegalAction(
                f"{sorted(cards - allowed)[0]} may not be discarded (allowed: {' '.join(choice['from'])})"
            )
        if not choice["min"] <= len(cards) <= high:
            raise IllegalAction(f"a discard must be {choice['min']} to {high} cards, not {len(cards)}")
        if not must <= cards:
            raise IllegalAction(f"{sorted(must - cards)[0]} must be discarded")
    elif kind == "rob":
        keep = _cards(action.get("keep"), "rob keep")
        if not keep <= set(choice["from"]):
            raise IllegalAction(
                f"{sorted(keep - set(choice['from']))[0]} is neither in the dealer's hand nor in the stock"
            )
        if not set(choice["must_keep"]) <= keep:
            raise IllegalAction(f"the dealer must keep {sorted(set(choice['must_keep']) - keep)[0]}")
        if len(keep) != choice["size"]:
            raise IllegalAction(f"the dealer's hand after the rob must be {choice['size']} cards, not {len(keep)}")
    else:
        card = action.get("card")
        match = next((a for a in options if a["card"] == card), None)
        if match is None:
            raise IllegalAction(
                f"{json.dumps(card)} is not a legal card here (legal: {' '.join(a['card'] for a in options)})"
            )
        extras = _cards(action.get("extras", []), "extras")
        owed = match.get("extras_count", 0)
        if len(extras) != owed:
            raise IllegalAction(f"exactly {owed} extras must go with the main card here, not {len(extras)}")
        if not extras <= set(match.get("extras_from", [])):
            raise IllegalAction(
                f"{sorted(extras)[0]} cannot be an extra (allowed: {' '.join(match.get('extras_from', []))})"
            )
