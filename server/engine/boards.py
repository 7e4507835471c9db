"""Boards: everything chance decides about a hand, and the canonical generator.

docs/rules/common.md#boards fixes the generator with sha256 over plain strings so that anyone, in
any language, can rebuild a published deal set from its seed; the reshuffle order of a
rebuilt stock is derived the same way from the board's own seed. Nothing here reads
files: deal-set files live in ``server.arena.dealsets``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.cards import ALL_NAMES, CARD_INDEX, CARD_NAMES, SEATS

_HEX = re.compile(r"^[0-9a-fA-F]+$")


class BoardError(ValueError):
    """A board that is not the deck's distinct cards, a dealer and a seed."""


@dataclass(frozen=True)
class Board:
    dealer: str  # a seat: "N", "E", "S" or "W" at four, else "P1" ... "Pk"
    deck: tuple[int, ...]  # the deck's card indices (52, or 53 with snoozer's joker), top first
    seed: str  # hex string, keys the reshuffle order

    def to_dict(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "deck": [ALL_NAMES[c] for c in self.deck], "seed": self.seed}

    @classmethod
    def from_dict(cls, data: Any, seats: Sequence[str] = SEATS, size: int = 52) -> Board:
        """Validate a board in its wire form for a table of ``seats`` and a deck of ``size``
        cards (53: with ``JK``; a deck of the other size is refused); errors say which part
        is wrong."""
        if not isinstance(data, Mapping):
            raise BoardError("board must be an object with dealer, deck and seed")
        dealer = data.get("dealer")
        if not isinstance(dealer, str) or dealer not in seats:
            raise BoardError(f"board dealer must be one of {' '.join(seats)}, not {dealer!r}")
        deck = data.get("deck")
        wanted = "52 distinct cards" if size == 52 else f"{size} distinct cards, the joker JK included"
        if not isinstance(deck, list) or len(deck) != size or not all(isinstance(c, str) for c in deck):
            raise BoardError(f"board deck must be {wanted}" + _other_deck(deck, size))
        indices = tuple(CARD_INDEX.get(c, size) for c in deck)
        if max(indices) >= size or len(set(indices)) != size:
            raise BoardError(f"board deck must be {wanted}")
        seed = data.get("seed")
        if not isinstance(seed, str) or not _HEX.match(seed):
            raise BoardError(f"board seed must be a hex string, not {seed!r}")
        return cls(dealer=dealer, deck=indices, seed=seed)


def _other_deck(deck: Any, size: int) -> str:
    """The hint when a deck is of the family's other size (a 52-card set for snoozer,
    or the reverse)."""
    if isinstance(deck, list) and len(deck) in (52, 53) and len(deck) != size:
        return f", not {len(deck)}: a deal set is made for one deck size (docs/rules/common.md#cards)"
    return ""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def generate_board(set_seed: str, number: int, seats: Sequence[str] = SEATS, size: int = 52) -> Board:
    """Board ``number`` (1-based) of the deal set named ``set_seed`` for a table of
    ``seats`` and a deck of ``size`` cards (docs/rules/common.md#boards, docs/rules/common.md#cards: the dealer
    depends on the seats, the order on the card set, ``JK`` sorted by its own hash)."""
    if number < 1:
        raise ValueError("board numbers start at 1")
    deck = sorted(range(size), key=lambda c: _sha(f"{set_seed}/{number}/{ALL_NAMES[c]}"))
    return Board(dealer=seats[(number - 1) % len(seats)], deck=tuple(deck), seed=_sha(f"{set_seed}/{number}"))


def bunch_order(seed: str, b: int) -> tuple[int, ...]:
    """The deck of the ``b``-th bunch (a new deal by the same dealer) on a board
    (docs/rules/seven_up.md#bunch)."""
    return tuple(sorted(range(52), key=lambda c: _sha(f"{seed}/bunch/{b}/{CARD_NAMES[c]}")))


def restock_order(seed: str, k: int, cards: list[int]) -> list[int]:
    """The order of the ``k``-th rebuilt stock on a board, top first."""
    return sorted(cards, key=lambda c: _sha(f"{seed}/restock/{k}/{CARD_NAMES[c]}"))
