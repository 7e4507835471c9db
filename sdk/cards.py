"""Cards, seats and trumps as plain strings, for bot authors.

A card is two characters, rank then suit: ``"AH"``, ``"TD"``, ``"5C"`` (ranks
``23456789TJQKA``, suits ``CDHS``). A table of four has the seats ``N E S W``, N/S and
E/W partners (sides ``NS`` and ``EW``); a table of any other size has the seats
``P1 ... Pk``, clockwise, each its own side (``seats_for``). The seat and side helpers
take the table's seats or sides (an observation's ``seats`` and the keys of its
``scores``) and default to four.

The trump helpers are Cinch's (american62, foster51, blind_cinch, sixty_three) by
default: once trump is named, the five of the same-colour suit (the *left Pedro*) is a
trump too, ranking just below the five of trumps (the *right Pedro*). Counting cards,
each worth its points to the side that takes it in a trick: the trump Ace (High), Jack,
Ten (Game), Two (Low) one each, both Pedros five each. In the All Fours games
(``PLAIN_TRUMPS``: seven_up, pitch, all_fives, auction_pitch, pedro, snoozer) the trumps are the thirteen
cards of the suit alone, A high: pass ``plain=True`` (an ``Observation`` does it for you).

snoozer adds a 53rd card, the joker ``JOKER = "JK"``: no rank and no suit (test for it
before reading ``card[0]`` or ``card[1]``; ``rank`` and ``suit`` give ``""``). Once trump
is fixed it is a trump, the lowest, below the two: it follows a trump lead, may be played
on a plain lead at will, wins a plain-suit trick no other trump is in, and counts 15 to
whoever takes it (``SNOOZER_POINTS``). It is never the pitch.

Nothing here talks to the server: these are the helpers a bot's ``act`` needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW")
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
COUNTING = {"A": 1, "J": 1, "T": 1, "5": 5, "2": 1}
ALL_CARDS = tuple(r + s for s in SUITS for r in RANKS)
JOKER = "JK"
DECK_53 = (*ALL_CARDS, JOKER)  # snoozer's pack
PLAIN_TRUMPS = frozenset({"seven_up", "pitch", "all_fives", "auction_pitch", "pedro", "snoozer"})
JOKER_RULESETS = frozenset({"snoozer"})
"""The rulesets played with the 53-card pack (docs/rules/common.md#cards)."""
SNOOZER_POINTS = {"T": 1, "3": 3, "5": 5, "9": 9, JOKER: 15}
"""snoozer's counting trumps besides High, Low and Jack (1 each), by rank; the joker by name."""
"""The rulesets whose trumps are the suit's thirteen cards (docs/rules/common.md#trumps, *plain*)."""


def rank(card: str) -> str:
    """The rank character; ``""`` for the joker, which has none."""
    return "" if card == JOKER else card[0]


def suit(card: str) -> str:
    """The printed suit (see ``effective_suit`` for the left Pedro and the joker); ``""``
    for the joker."""
    return "" if card == JOKER else card[1]


def rank_index(card: str) -> int:
    """0 for a two ... 12 for an ace; -1 for the joker (below the two)."""
    return -1 if card == JOKER else RANKS.index(card[0])


def seats_for(players: int) -> tuple[str, ...]:
    """The seats of a table of ``players``, clockwise: N E S W at four, else P1 ... Pk."""
    return SEATS if players == 4 else tuple(f"P{i}" for i in range(1, players + 1))


def partner(seat: str, seats: Sequence[str] = SEATS) -> str | None:
    """The seat opposite at a table of four (partners); None at any other size, where
    each plays for himself."""
    return seats[(list(seats).index(seat) + 2) % 4] if len(seats) == 4 else None


def side(seat: str, sides: Sequence[str] = SIDES) -> str:
    """The side ``seat`` scores for: ``"NS"`` or ``"EW"`` at four, the seat itself where
    each plays for himself."""
    return seat if seat in sides else next(s for s in sides if seat in s)


def other_side(side_name: str, sides: Sequence[str] = SIDES) -> str | None:
    """The other side of a two-side game (None when more than two sides score)."""
    others = [s for s in sides if s != side_name]
    return others[0] if len(others) == 1 else None


def opponents(seat: str, seats: Sequence[str] = SEATS) -> tuple[str, ...]:
    """The seats playing against ``seat``: at four its left and right, else every other seat
    (clockwise from the left)."""
    seats = list(seats)
    i = seats.index(seat)
    others = tuple(seats[(i + k) % len(seats)] for k in range(1, len(seats)))
    return (others[0], others[2]) if len(seats) == 4 else others


def next_seat(seat: str, seats: Sequence[str] = SEATS) -> str:
    """The seat to the left, who plays next."""
    seats = list(seats)
    return seats[(seats.index(seat) + 1) % len(seats)]


def left_pedro(trump: str) -> str:
    """The five of the same-colour suit, which is a trump."""
    return "5" + SAME_COLOUR[trump]


def is_trump(card: str, trump: str | None, plain: bool = False) -> bool:
    """Whether ``card`` is a trump once ``trump`` is fixed (the joker always is then)."""
    if trump is None:
        return False
    return card == JOKER or card[1] == trump or (not plain and card == left_pedro(trump))


def effective_suit(card: str, trump: str | None, plain: bool = False) -> str:
    """The suit a card belongs to in play: the left Pedro belongs to trumps (Cinch), the
    joker too (snoozer; ``""`` before trump is fixed)."""
    return trump if trump is not None and is_trump(card, trump, plain) else suit(card)


def strength(card: str, trump: str | None, plain: bool = False) -> int:
    """Trick-taking order: trumps 100 and up (Cinch: A K Q J T 9 8 7 6 5 left-5 4 3 2;
    ``plain``: A to 2), the joker 99 (under every trump, over every plain card), other
    cards 0-12.

    Only meaningful for comparing cards that can win the same trick.
    """
    if card == JOKER:
        return 99
    r = RANKS.index(card[0])
    if trump is not None:
        if card[1] == trump:
            return 100 + (r if plain else 2 * r + 1 if r >= 3 else 2 * r)
        if card == left_pedro(trump) and not plain:
            return 106
    return r


def card_points(card: str, trump: str | None) -> int:
    """Points the card is worth to the side that takes it in Cinch (0 for plain cards)."""
    if card == JOKER or not is_trump(card, trump):
        return 0
    return COUNTING.get(card[0], 0)


def is_pedro(card: str, trump: str | None) -> bool:
    return trump is not None and rank(card) == "5" and is_trump(card, trump)


def trumps_in(cards: Iterable[str], trump: str | None, plain: bool = False) -> list[str]:
    """The trumps among ``cards``, highest first."""
    return sorted((c for c in cards if is_trump(c, trump, plain)), key=lambda c: -strength(c, trump, plain))


def all_trumps(trump: str, plain: bool = False, joker: bool = False) -> list[str]:
    """The trumps, highest first: fourteen in Cinch, thirteen ``plain``, and with ``joker``
    (snoozer) the joker last, fourteen."""
    return trumps_in(DECK_53 if joker else ALL_CARDS, trump, plain)


def by_strength(cards: Iterable[str], trump: str | None, highest_first: bool = False, plain: bool = False) -> list[str]:
    return sorted(cards, key=lambda c: (is_trump(c, trump, plain), strength(c, trump, plain)), reverse=highest_first)


def winning_index(cards: Sequence[str], trump: str | None, plain: bool = False) -> int | None:
    """Index of the card winning a trick so far (``cards`` in play order), or None if empty.

    The highest trump wins; without trumps, the highest card of the suit led.
    """
    if not cards:
        return None
    led = effective_suit(cards[0], trump, plain)
    best, best_key = 0, -1
    for i, card in enumerate(cards):
        s = effective_suit(card, trump, plain)
        if s == trump:
            key = 1000 + strength(card, trump, plain)
        elif s == led:
            key = strength(card, trump, plain)
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
