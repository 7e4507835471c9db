"""Boards for the All Fours tests: decks that deal chosen cards to chosen seats, and a
driver that plays a hand through the wire layer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from server.engine import ALL_NAMES, CARD_NAMES, Board, make_ruleset, new_hand, seats_for
from server.engine.hand import Hand

CARD_SET = frozenset(ALL_NAMES)  # snoozer's joker included: a JK in a view is a card too


def turnup_deck(
    hands: Sequence[Sequence[str]],
    turnup: str | None = None,
    runs: Sequence[tuple[Sequence[Sequence[str]], str]] = (),
    rest: Sequence[str] = (),
) -> list[str]:
    """A 52-card deck dealing ``hands[i]`` (6 cards) to ``o_i`` (the eldest first,
    docs/rules/seven_up.md#deal), then ``turnup``, then each run's three cards per ``o_i`` and its
    turn-up (1.5), then ``rest``; the other cards follow in index order."""
    k = len(hands)
    deck = [c for h in hands for c in h[:3]] + [c for h in hands for c in h[3:]]
    if turnup is not None:
        deck.append(turnup)
    for packets, turned in runs:
        assert len(packets) == k
        deck += [c for p in packets for c in p] + [turned]
    deck += list(rest)
    assert len(set(deck)) == len(deck), "a card twice"
    return deck + [c for c in CARD_NAMES if c not in deck]


def deck_at(cards: dict[int, str]) -> list[str]:
    """A 52-card deck with ``cards[i]`` at position ``i``; the others in index order."""
    spare = iter(c for c in CARD_NAMES if c not in cards.values())
    return [cards[i] if i in cards else next(spare) for i in range(52)]


def run_start(k: int, j: int) -> int:
    """q_j, where run ``j`` (from 1) starts dealing (docs/rules/seven_up.md#running); its turn-up is at q_j + 3k."""
    return 6 * k + 1 + (j - 1) * (3 * k + 1)


def board(deck: list[str], k: int, dealer: int = -1, seed: str = "ab") -> Board:
    """A board of ``deck`` (52 cards, or 53 with JK) at a ``k``-seat table, dealt by seat
    index ``dealer`` (the last)."""
    seats = seats_for(k)
    return Board.from_dict({"dealer": seats[dealer], "deck": deck, "seed": seed}, seats, len(deck))


def hand(
    name: str,
    deck: list[str],
    k: int,
    dealer: int = -1,
    *,
    scores: tuple[int, ...] | None = None,
    in_game: bool = False,
    **options: Any,
) -> Hand:
    """A hand of ``deck``: a game's hand at ``scores`` (zeros by default) when ``in_game``,
    else a duplicate board's."""
    rules = make_ruleset(name, {"players": k, **options})
    if in_game and scores is None:
        scores = (0,) * len(set(new_hand(rules, board(deck, k, dealer)).side_of))
    return new_hand(rules, board(deck, k, dealer), scores if in_game else None)


def act(state: Hand, *actions: str | int | dict) -> Hand:
    """Apply actions given as a type word, a card string (a play), a number (a bid) or a
    whole object."""
    for a in actions:
        if isinstance(a, dict):
            state.apply(a)
        elif isinstance(a, int):
            state.apply({"type": "bid", "amount": a})
        elif a in ("stand", "beg", "give", "run", "bunch", "pass", "accept", "refuse", "sell", "pitch"):
            state.apply({"type": a})
        else:
            state.apply({"type": "play", "card": a})
    return state


def play_out(state: Hand, choose: Callable[[list[dict]], dict] = lambda legal: legal[0]) -> Hand:
    """Finish the play with ``choose`` (the first legal card by default)."""
    while state.phase == "play":
        state.apply(choose(state.legal_actions()))
    return state


def cards_in(value: Any) -> set[str]:
    """Every card string anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in CARD_SET else set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    return set()


def item_list(state: Hand) -> list[tuple]:
    """The items as (item, side, value) tuples, in order."""
    return [(i["item"], i["side"], i["value"]) for i in state.describe()["items"]]
