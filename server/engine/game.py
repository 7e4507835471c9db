"""A game: hands in sequence until one side reaches the ruleset's target.

The game owns what spans hands (scores, whose deal it is); each hand is a fresh hand of
the ruleset's game on the next board, told the scores so that the rules that depend on
them apply (bidder-goes-out, a gift or a sale that would put a side out, a hand that
stops when a side goes out). How a hand ends the game is the hand's to say
(``Hand.settle``): all at once in Cinch, item by item in the All Fours games. Boards come
from a caller-supplied function so a game can be played on a published deal set or any
other source, and the dealer is rotated here regardless of the board's own dealer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from server.engine.boards import Board
from server.engine.cards import seats_for
from server.engine.hand import Hand, new_hand
from server.engine.rulesets import Ruleset, game_spec


class Game:
    """Scores and dealer rotation across hands; ``winner`` is a side's name or None."""

    def __init__(self, rules: Ruleset, board_for: Callable[[int], Board], first_dealer: str | None = None):
        self.rules = rules
        self.board_for = board_for
        self.seats = seats_for(rules.players)
        self.sides = game_spec(rules).sides(rules.players)[0]
        self.dealer = self.seats.index(first_dealer or self.seats[0])
        self.scores: tuple[int, ...] = (0,) * len(self.sides)
        self.hands_played = 0
        self.winner: str | None = None

    def new_hand(self) -> Hand:
        """The next hand to play, dealt by the player whose turn it is."""
        if self.winner is not None:
            raise ValueError(f"the game is over: {self.winner} won")
        board = replace(self.board_for(self.hands_played + 1), dealer=self.seats[self.dealer])
        return new_hand(self.rules, board, self.scores)

    def finish_hand(self, hand: Hand) -> None:
        """Score a complete hand, decide the game if it is decided, pass the deal left."""
        if hand.phase != "done":
            raise ValueError("the hand is not complete")
        self.scores, won = hand.settle(self.scores)
        self.hands_played += 1
        self.dealer = (self.dealer + 1) % len(self.seats)
        if won is not None:
            self.winner = self.sides[won]
