"""Build boards that deal chosen cards to chosen seats, for worked-example tests."""

from server.engine import SEATS, Board
from server.engine.cards import CARD_INDEX, CARD_NAMES


def board_with(
    hands: dict[str, list[str]], dealer: str = "N", stock: list[str] | None = None, seed: str = "ab"
) -> Board:
    """A board whose deal gives each seat exactly ``hands[seat]`` (9 cards each, docs/rules/common.md#boards).

    Seats not named get cards from what is left; ``stock`` fixes the top of the stock.
    """
    deck: list[int | None] = [None] * 52
    used = {CARD_INDEX[c] for cards in hands.values() for c in cards} | {CARD_INDEX[c] for c in stock or []}
    spare = iter(c for c in range(52) if c not in used)
    d = SEATS.index(dealer)
    for seat_index in range(4):
        seat = SEATS[(d + 1 + seat_index) % 4]
        cards = [CARD_INDEX[c] for c in hands.get(seat, [])]
        assert len(cards) in (0, 9), f"{seat} needs 9 cards"
        cards = cards or [next(spare) for _ in range(9)]
        for rnd in range(3):
            start = rnd * 12 + seat_index * 3
            deck[start : start + 3] = cards[rnd * 3 : rnd * 3 + 3]
    top = [CARD_INDEX[c] for c in stock or []]
    deck[36 : 36 + len(top)] = top
    for i in range(36 + len(top), 52):
        deck[i] = next(spare)
    return Board(dealer=dealer, deck=tuple(deck), seed=seed)


def names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]
