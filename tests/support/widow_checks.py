"""Checks of widow_cinch hands (docs/rules/widow_cinch.md) re-derived from card strings, shared
by the named rule tests (test_widow_cinch.py) and the random-hand properties
(test_widow_properties.py): trick winners with Cinch's trumps, the points each side won
(the discards' counting trumps to the declarer's side, a left widow's to nobody) and the
old way's change per side."""

from __future__ import annotations

from server.engine import CARD_NAMES, observation
from support.allfours_decks import board, cards_in, deck_at

RANKS = "23456789TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
SIDES = ("P1P4", "P2P5", "P3P6")
SEATS = ("P1", "P2", "P3", "P4", "P5", "P6")


def side(seat: str) -> str:
    """9.1: partners sit three seats apart."""
    return SIDES[SEATS.index(seat) % 3]


def widow_deck(hands: list[list[str]], widow: list[str] = ()) -> list[str]:
    """A deck giving ``hands[i]`` (up to 8 cards) to o_i, the eldest first, and ``widow`` as
    the widow (9.2: a round of 4 from 0, the widow deck[24:28], a round of 4 from 28); the
    other cards in index order."""
    at = {24 + j: c for j, c in enumerate(widow)}
    for i, cards in enumerate(hands):
        for j, c in enumerate(cards):
            at[(4 * i if j < 4 else 28 + 4 * i - 4) + j] = c
    return deck_at(at)


def widow_board(hands: list[list[str]], widow: list[str] = (), dealer: int = -1):
    return board(widow_deck(hands, widow), 6, dealer)


def is_trump(card: str, trump: str) -> bool:
    return card[1] == trump or card == "5" + SAME_COLOUR[trump]


def strength(card: str, trump: str) -> int:
    if card == "5" + SAME_COLOUR[trump]:
        return 100 + 2 * RANKS.index("5")
    r = RANKS.index(card[0])
    if card[1] == trump:
        return 100 + (2 * r + 1 if r >= RANKS.index("5") else 2 * r)
    return r


def value(card: str, trump: str) -> int:
    if not is_trump(card, trump):
        return 0
    return 5 if card[0] == "5" else 1 if card[0] in "AJT2" else 0


def expected(out: dict) -> tuple[dict[str, int], dict[str, int]]:
    """(points, delta) by side, from the hand's strings; each trick's winner checked on the way."""
    trump = out["trump"]
    points = dict.fromkeys(SIDES, 0)
    for trick in out["tricks"]:
        cards = [p["card"] for p in trick["plays"]]
        led = trump if is_trump(cards[0], trump) else cards[0][1]
        live = [c for c in cards if is_trump(c, trump) or c[1] == led]
        best = max(live, key=lambda c: strength(c, trump))
        assert trick["winner"] == trick["plays"][cards.index(best)]["seat"]
        points[side(trick["winner"])] += sum(value(c, trump) for c in cards)
    mine = side(out["declarer"])
    points[mine] += sum(value(c, trump) for cards in out["record"]["discards"].values() for c in cards)
    delta = dict(points)
    contract = out["contract"]
    if contract and points[mine] < contract["amount"]:
        delta[mine] = -contract["amount"]
    return points, delta


def hidden_from(state, me: int) -> set[str]:
    """The cards seat ``me`` must not see: the other hands and a widow nobody took."""
    out = set() if state.widow_taken else names(state.widow)
    for other in range(6):
        if other != me:
            out |= names(state.hands[other])
    return out


def names(mask: int) -> set[str]:
    return {CARD_NAMES[c] for c in range(52) if mask >> c & 1}


def check_views(state) -> None:
    """No observation shows a card hidden from its seat (the widow included); a
    spectator sees no hand and no widow."""
    for me, seat in enumerate(state.seats):
        assert not cards_in(observation(state, seat)) & hidden_from(state, me)
    everyone = names(sum(state.hands)) | (set() if state.widow_taken else names(state.widow))
    assert not cards_in(observation(state, None)) & everyone
