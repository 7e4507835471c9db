"""Cards as small integers, with per-trump lookup tables.

The engine is the inner loop of every search bot and benchmark, so cards are ints
(``suit * 13 + rank``) and sets of cards are 52-bit masks; snoozer's joker ``JK``
(docs/rules/common.md#cards) is card 52, after every suit card, so a 53-card mask only adds a bit
and nothing about the 52 others moves. Everything that depends on
the trump suit (which suit a card belongs to, how trumps rank, what counts) is computed
once per trump suit here, so the play loop only indexes tables. Card *strings* such as
``"5D"`` are the only format outside the engine; this module converts at the boundary.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW")


def seats_for(players: int) -> tuple[str, ...]:
    """The seat names of a ``players``-seat table, clockwise (docs/rules/common.md#seats)."""
    return SEATS if players == 4 else tuple(f"P{i}" for i in range(1, players + 1))


# Card index layout: suit * 13 + rank, rank 0 = '2' ... 12 = 'A'; then the joker, 52.
# CARD_NAMES are the 52 suit cards (every deck but snoozer's); ALL_NAMES, indexed by any
# card, add the joker's string: the form to print a card that may be the joker.
JOKER = 52
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
ALL_NAMES: tuple[str, ...] = (*CARD_NAMES, "JK")
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(ALL_NAMES)}
ALL_CARDS_MASK = (1 << 52) - 1  # the 52 suit cards (no joker)
DECK_SIZES = (52, 53)  # every deck of the family (F2)


def deck_mask(size: int) -> int:
    """Every card of a ``size``-card deck (52, or 53 with the joker) as a mask."""
    return (1 << size) - 1


FIVE, TWO, TEN, JACK, ACE = 3, 0, 8, 9, 12
THREE, NINE, QUEEN, KING = 1, 7, 10, 11

# Pips for Game (docs/rules/common.md#pips), by card: A 4, K 3, Q 2, J 1, T 10 in every suit.
PIPS: tuple[int, ...] = (*({ACE: 4, KING: 3, QUEEN: 2, JACK: 1, TEN: 10}.get(c % 13, 0) for c in range(52)), 0)


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def same_colour_suit(suit: int) -> int:
    """The other suit of the same colour: clubs<->spades, diamonds<->hearts."""
    return {0: 3, 3: 0, 1: 2, 2: 1}[suit]


def left_pedro(trump: int) -> int:
    return same_colour_suit(trump) * 13 + FIVE


def parse_card(text: object) -> int:
    """The card index of a card string, or ``ValueError`` naming what is wrong."""
    if isinstance(text, str):
        index = CARD_INDEX.get(text)
        if index is not None:
            return index
    raise ValueError(f"{text!r} is not a card (rank 2-9 T J Q K A, then suit C D H S; JK the joker)")


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in index order (suit, then rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: int) -> list[str]:
    """Card strings of a mask, sorted by printed suit then rank (the output order)."""
    return [ALL_NAMES[c] for c in cards_of(mask)]


def popcount(mask: int) -> int:
    return mask.bit_count()


class Tables:
    """Everything the play and scoring code needs to know once trump is named: one shape
    for Cinch's trumps (``TrumpTables``) and the family's plain ones, so that the trick
    code serves both. Card-indexed tuples hold one entry per card of the deck."""

    __slots__ = (
        "trump",
        "trump_mask",
        "plain_masks",
        "effective_suit",
        "strength",
        "counting_mask",
        "low_card",
        "points",
        "left_pedro",
        "noncounting_trumps",
    )

    trump: int
    trump_mask: int
    plain_masks: tuple[int, ...]  # per suit: its cards that are not trumps
    effective_suit: tuple[int, ...]  # per card: the suit it follows as
    strength: tuple[int, ...]  # per card: its order within a trick (trumps above 99)
    counting_mask: int
    low_card: int
    points: tuple[int, ...]  # per card: what it counts by itself
    left_pedro: int  # -1 where there is none
    noncounting_trumps: int


class TrumpTables(Tables):
    """Cinch's trumps: the suit and the left Pedro, with the cards that count."""

    __slots__ = ()

    def __init__(self, trump: int):
        self.trump = trump
        lp = left_pedro(trump)
        self.left_pedro = lp
        self.trump_mask = (((1 << 13) - 1) << (trump * 13)) | (1 << lp)
        self.plain_masks = tuple(0 if s == trump else (((1 << 13) - 1) << (s * 13)) & ~(1 << lp) for s in range(4))
        self.effective_suit = tuple(trump if c == lp else c // 13 for c in range(52))
        # Strength: trumps 100 + order (A highest ... 2 lowest, left Pedro between the
        # fives and the four); plain cards by rank. Only compared within a trick.
        strength = [c % 13 for c in range(52)]
        for c in range(52):
            if c // 13 == trump:
                r = c % 13
                strength[c] = 100 + (2 * r + 1 if r >= FIVE else 2 * r)
        strength[lp] = 100 + 2 * FIVE  # just below the right Pedro, above the four
        self.strength = tuple(strength)
        base = trump * 13
        self.points = tuple(
            {base + ACE: 1, base + JACK: 1, base + TEN: 1, base + FIVE: 5, lp: 5, base + TWO: 1}.get(c, 0)
            for c in range(52)
        )
        self.counting_mask = mask_of(c for c in range(52) if self.points[c])
        self.low_card = base + TWO
        self.noncounting_trumps = self.trump_mask & ~self.counting_mask


TRUMP_TABLES: tuple[TrumpTables, ...] = tuple(TrumpTables(t) for t in range(4))


class PlainTrumpTables(Tables):
    """The tables for *plain* trumps (docs/rules/common.md#trumps): the 13 cards of the suit, A high.
    No card counts by itself here (the All Fours games score High, Low, Jack and Game at
    the end).
    """

    __slots__ = ()

    def __init__(self, trump: int):
        self.trump = trump
        self.left_pedro = -1
        self.trump_mask = ((1 << 13) - 1) << (trump * 13)
        self.plain_masks = tuple(0 if s == trump else ((1 << 13) - 1) << (s * 13) for s in range(4))
        self.effective_suit = tuple(c // 13 for c in range(52))
        self.strength = tuple(100 + c % 13 if c // 13 == trump else c % 13 for c in range(52))
        self.points = (0,) * 52
        self.counting_mask = 0
        self.low_card = trump * 13 + TWO
        self.noncounting_trumps = self.trump_mask


PLAIN_TRUMP_TABLES: tuple[PlainTrumpTables, ...] = tuple(PlainTrumpTables(t) for t in range(4))


class JokerTrumpTables(PlainTrumpTables):
    """snoozer's trumps (docs/rules/common.md#trumps, docs/rules/snoozer.md#joker): the 13 cards of the suit, then ``JK`` below
    the ``2``. The joker belongs to the trump suit, so it follows a trump lead, may be
    played at will on a plain lead, makes its own lead a trump lead, and beats every plain
    card while losing to every other trump (strength 99, just under the 2's 100)."""

    __slots__ = ()

    def __init__(self, trump: int):
        super().__init__(trump)
        self.trump_mask |= 1 << JOKER
        self.effective_suit = (*self.effective_suit, trump)
        self.strength = (*self.strength, 99)
        self.points = (*self.points, 0)
        self.noncounting_trumps = self.trump_mask


JOKER_TRUMP_TABLES: tuple[JokerTrumpTables, ...] = tuple(JokerTrumpTables(t) for t in range(4))
