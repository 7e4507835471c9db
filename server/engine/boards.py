"""Boards: everything chance decides about a hand, and the canonical generator.

RULES.md section 2 fixes the generator with sha256 over plain strings so that anyone, in
any language, can rebuild a published deal set from its seed; the reshuffle order of a
rebuilt stock is derived the same way from the board's own seed. Nothing here reads
files: deal-set files live in ``server.dealsets``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .cards import CARD_INDEX, CARD_NAMES, SEATS

_HEX = re.compile(r"^[0-9a-fA-F]+$")


class BoardError(ValueError):
    """A board that is not 52 distinct cards, a dealer and a seed."""


@dataclass(frozen=True)
class Board:
    dealer: str            # a seat: "N", "E", "S" or "W" at four, else "P1" ... "Pk"
    deck: tuple[int, ...]  # 52 card indices, top first
    seed: str              # hex string, keys the reshuffle order

    def to_dict(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "deck": [CARD_NAMES[c] for c in self.deck], "seed": self.seed}

    @classmethod
    def from_dict(cls, data: Any, seats: Sequence[str] = SEATS) -> "Board":
        """Validate a board in its wire form for a table of ``seats``; errors say which
        part is wrong."""
        if not isinstance(data, Mapping):
            raise BoardError("board must be an object with dealer, deck and seed")
        dealer = data.get("dealer")
        if dealer not in seats:
            raise BoardError(f"board dealer must be one of {' '.join(seats)}, not {dealer!r}")
        deck = data.get("deck")
        if not isinstance(deck, list) or len(deck) != 52 or not all(isinstance(c, str) for c in deck):
            raise BoardError("board deck must be 52 distinct cards")
        indices = tuple(CARD_INDEX.get(c, -1) for c in deck)
        if -1 in indices or len(set(indices)) != 52:
            raise BoardError("board deck must be 52 distinct cards")
        seed = data.get("seed")
        if not isinstance(seed, str) or not _HEX.match(seed):
            raise BoardError(f"board seed must be a hex string, not {seed!r}")
        return cls(dealer=dealer, deck=indices, seed=seed)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def generate_board(set_seed: str, number: int, seats: Sequence[str] = SEATS) -> Board:
    """Board ``number`` (1-based) of the deal set named ``set_seed`` for a table of
    ``seats`` (RULES.md section 2, RULES-family F2: only the dealer depends on them)."""
    if number < 1:
        raise ValueError("board numbers start at 1")
    deck = sorted(range(52), key=lambda c: _sha(f"{set_seed}/{number}/{CARD_NAMES[c]}"))
    return Board(dealer=seats[(number - 1) % len(seats)], deck=tuple(deck), seed=_sha(f"{set_seed}/{number}"))


def bunch_order(seed: str, b: int) -> tuple[int, ...]:
    """The deck of the ``b``-th bunch (a new deal by the same dealer) on a board
    (RULES-family 1.6)."""
    return tuple(sorted(range(52), key=lambda c: _sha(f"{seed}/bunch/{b}/{CARD_NAMES[c]}")))


def restock_order(seed: str, k: int, cards: list[int]) -> list[int]:
    """The order of the ``k``-th rebuilt stock on a board, top first."""
    return sorted(cards, key=lambda c: _sha(f"{seed}/restock/{k}/{CARD_NAMES[c]}"))
