"""Colour-preserving suit relabelings, for duplicate fairness against bots that remember.

The two rooms of a board show the same cards; a remote bot that remembers could
recognise room 1's deal in room 2. Each room is therefore shown under its own
relabeling of the suits that keeps each colour's two suits together (clubs/spades and
diamonds/hearts move as pairs), so the left Pedro stays the five of the trump's colour
partner and the game is exactly equivalent. Observations are translated on the way out
and actions on the way back. There are 8 such relabelings.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from .cards import CARD_INDEX

BLACK, RED = ("C", "S"), ("D", "H")


def relabelings() -> list[dict[str, str]]:
    """All 8 suit maps that send each colour pair onto a colour pair."""
    out = []
    for first, second in ((BLACK, RED), (RED, BLACK)):
        for flip_a in (False, True):
            for flip_b in (False, True):
                a = first[::-1] if flip_a else first
                b = second[::-1] if flip_b else second
                out.append({BLACK[0]: a[0], BLACK[1]: a[1], RED[0]: b[0], RED[1]: b[1]})
    return out


_MAPS = relabelings()


def relabeling_for(secret: bytes, context: str) -> dict[str, str]:
    """The map for one room, unpredictable without the server's secret."""
    digest = hmac.new(secret, context.encode(), hashlib.sha256).digest()
    return _MAPS[digest[0] % len(_MAPS)]


def inverse(mapping: dict[str, str]) -> dict[str, str]:
    return {v: k for k, v in mapping.items()}


_SUIT_KEYS = ("trump", "suit")


def _legal_order(action: Any) -> int:
    if isinstance(action, dict):
        if action.get("card") in CARD_INDEX:
            return CARD_INDEX[action["card"]]
        if action.get("suit") in ("C", "D", "H", "S"):
            return "CDHS".index(action["suit"])
    return 0


def translate(value: Any, mapping: dict[str, str], key: str | None = None) -> Any:
    """``value`` with every card string and suit field relabeled; seats are left alone."""
    if isinstance(value, str):
        if len(value) == 2 and value in CARD_INDEX:
            return value[0] + mapping[value[1]]
        if key in _SUIT_KEYS and value in mapping:
            return mapping[value]
        return value
    if isinstance(value, list):
        out = [translate(v, mapping, key) for v in value]
        # Re-sort what was sorted by suit, or the order itself would betray the map.
        if out and all(isinstance(v, str) and v in CARD_INDEX for v in out):
            out.sort(key=CARD_INDEX.__getitem__)
        elif key == "legal":
            out.sort(key=_legal_order)
        return out
    if isinstance(value, dict):
        return {k: translate(v, mapping, k) for k, v in value.items()}
    return value
