"""Cards, seats and trumps as plain strings, for bot authors.

A card is two characters, rank then suit: ``"AH"``, ``"TD"``, ``"5C"`` (ranks
``23456789TJQKA``, suits ``CDHS``). Seats are ``N E S W``; N/S and E/W are partners.
Once trump is named, the five of the same-colour suit (the *left Pedro*) is a trump
too, ranking just below the five of trumps (the *right Pedro*). Counting cards, each
worth its points to the side that takes it in a trick: the trump Ace (High), Jack,
Ten (Game), Two (Low) one each, both Pedros five each.

Nothing here talks to the server: these are the helpers a bot's ``act`` needs.
"""

from __future__ import annotations

from typing import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW")
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
COUNTING = {"A": 1, "J": 1, "T": 1, "5": 5, "2": 1}
ALL_CARDS = tuple(r + s for s in SUITS for r in RANKS)


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    """The printed suit (see ``effective_suit`` for the left Pedro)."""
    return card[1]


def rank_index(card: str) -> int:
    """0 for a two ... 12 for an ace."""
    return RANKS.index(card[0])


def partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def side(seat: str) -> str:
    """``"NS"`` or ``"EW"``."""
    return "NS" if seat in "NS" else "EW"


def other_side(side_name: str) -> str:
    return "EW" if side_name == "NS" else "NS"


def opponents(seat: str) -> tuple[str, str]:
    i = SEATS.index(seat)
    return SEATS[(i + 1) % 4], SEATS[(i + 3) % 4]


def next_seat(seat: str) -> str:
    """The seat to the left, who plays next."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def left_pedro(trump: str) -> str:
    """The five of the same-colour suit, which is a trump."""
    return "5" + SAME_COLOUR[trump]


def is_trump(card: str, trump: str | None) -> bool:
    if trump is None:
        return False
    return card[1] == trump or card == left_pedro(trump)


def effective_suit(card: str, trump: str | None) -> str:
    """The suit a card belongs to in play: the left Pedro belongs to trumps."""
    return trump if trump is not None and is_trump(card, trump) else card[1]


def strength(card: str, trump: str | None) -> int:
    """Trick-taking order: trumps 100 and up (A K Q J T 9 8 7 6 5 left-5 4 3 2), plain cards 0-12.

    Only meaningful for comparing cards that can win the same trick.
    """
    r = RANKS.index(card[0])
    if trump is not None:
        if card[1] == trump:
            return 100 + (2 * r + 1 if r >= 3 else 2 * r)
        if card == left_pedro(trump):
            return 106
    return r


def card_points(card: str, trump: str | None) -> int:
    """Points the card is worth to the side that takes it (0 for plain cards)."""
    if not is_trump(card, trump):
        return 0
    return COUNTING.get(card[0], 0)


def is_pedro(card: str, trump: str | None) -> bool:
    return trump is not None and card[0] == "5" and is_trump(card, trump)


def trumps_in(cards: Iterable[str], trump: str | None) -> list[str]:
    """The trumps among ``cards``, highest first."""
    return sorted((c for c in cards if is_trump(c, trump)), key=lambda c: -strength(c, trump))


def all_trumps(trump: str) -> list[str]:
    """The fourteen trumps, highest first."""
    return trumps_in(ALL_CARDS, trump)


def by_strength(cards: Iterable[str], trump: str | None, highest_first: bool = False) -> list[str]:
    return sorted(cards, key=lambda c: (is_trump(c, trump), strength(c, trump)), reverse=highest_first)


def winning_index(cards: Sequence[str], trump: str | None) -> int | None:
    """Index of the card winning a trick so far (``cards`` in play order), or None if empty.

    The highest trump wins; without trumps, the highest card of the suit led.
    """
    if not cards:
        return None
    led = effective_suit(cards[0], trump)
    best, best_key = 0, -1
    for i, card in enumerate(cards):
        s = effective_suit(card, trump)
        if s == trump:
            key = 1000 + strength(card, trump)
        elif s == led:
            key = strength(card, trump)
        else:
            key = -1
        if key > best_key:
            best, best_key = i, key
    return best


def beats(card: str, current_best: str, trump: str | None) -> bool:
    """Whether ``card`` played now would take the trick from ``current_best`` (the card winning it).

    The card winning a trick is always of the suit led or a trump, so the suit led need
    not be given.
    """
    return winning_index([current_best, card], trump) == 1
