"""Tricks for any number of seats: the follow rule and who wins, shared by every game.

docs/rules/common.md#play is the same in the whole family: trump
led, play a trump if able; plain suit led, trump at will, else follow if able, else
anything; the highest trump wins, else the highest card of the led suit. Only the trump
tables differ (cinch trumps with the left Pedro, or plain ones), so the code here takes
them as an argument and every game keeps its own bookkeeping of what a trick is worth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.engine.cards import ALL_NAMES, SEATS, SUITS, Tables, names_of


class Trick:
    """One trick: who led, the plays so far (seat, main card, extras mask), the winner."""

    __slots__ = ("leader", "plays", "winner", "lead_suit", "best_seat", "best_key")

    def __init__(self, leader: int):
        self.leader = leader
        self.plays: list[tuple[int, int, int]] = []
        self.winner: int | None = None
        self.lead_suit = -1
        self.best_seat = -1
        self.best_key = -2

    def copy(self) -> Trick:
        t = Trick(self.leader)
        t.plays = self.plays.copy()
        t.winner, t.lead_suit, t.best_seat, t.best_key = self.winner, self.lead_suit, self.best_seat, self.best_key
        return t

    def add(self, seat: int, card: int, extras: int, tab: Tables) -> None:
        """Record a play and keep track of the card winning so far (extras never win)."""
        suit = tab.effective_suit[card]
        if not self.plays:
            self.lead_suit = suit
        self.plays.append((seat, card, extras))
        key = tab.strength[card] if suit == tab.trump or suit == self.lead_suit else -1
        if key > self.best_key:
            self.best_key, self.best_seat = key, seat

    def cards(self) -> int:
        """Every card in the trick, extras included, as a mask."""
        mask = 0
        for _, c, x in self.plays:
            mask |= (1 << c) | x
        return mask

    def to_dict(self, seats: Sequence[str] = SEATS) -> dict[str, Any]:
        return {
            "leader": seats[self.leader],
            "winner": None if self.winner is None else seats[self.winner],
            "plays": [{"seat": seats[s], "card": ALL_NAMES[c], "extras": names_of(x)} for s, c, x in self.plays],
        }


def follow_mask(hand: int, trick: Trick, tab: Tables) -> int:
    """The cards of ``hand`` the follow rules allow on ``trick`` (any card when leading)."""
    if not trick.plays:
        return hand
    if trick.lead_suit == tab.trump:
        return hand & tab.trump_mask or hand
    follow = hand & tab.plain_masks[trick.lead_suit]
    return (follow | (hand & tab.trump_mask)) if follow else hand


def follow_error(card: int, trick: Trick, tab: Tables) -> str:
    """Why ``card`` breaks the follow rules on ``trick`` (the refusal's message)."""
    name = ALL_NAMES[card]
    if trick.lead_suit == tab.trump:
        return f"{name} breaks the follow rules: a trump was led and the player holds a trump"
    return f"{name} breaks the follow rules: {SUITS[trick.lead_suit]} was led: the player must follow suit or trump"
