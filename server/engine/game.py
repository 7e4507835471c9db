"""A game: hands in sequence until one side reaches the ruleset's target.

The game owns what spans hands (scores, whose deal it is, bidder-goes-out); each hand
is a fresh ``HandState`` on the next board. Boards come from a caller-supplied
function so a game can be played on a published deal set or any other source, and the
dealer is rotated here regardless of the board's own dealer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from .boards import Board
from .cards import SEATS, SIDES
from .rulesets import Ruleset
from .scoring import bidder_goes_out_next, game_winner, made_contract
from .state import DONE, HandState


class Game:
    """Scores and dealer rotation across hands; ``winner`` is "NS", "EW" or None."""

    def __init__(self, rules: Ruleset, board_for: Callable[[int], Board], first_dealer: str = "N"):
        self.rules = rules
        self.board_for = board_for
        self.dealer = SEATS.index(first_dealer)
        self.scores = (0, 0)
        self.hands_played = 0
        self.winner: str | None = None

    def new_hand(self) -> HandState:
        """The next hand to play, dealt by the player whose turn it is."""
        if self.winner is not None:
            raise ValueError(f"the game is over: {self.winner} won")
        board = replace(self.board_for(self.hands_played + 1), dealer=SEATS[self.dealer])
        return HandState(self.rules, board, self.scores, bidder_goes_out_next(self.rules, self.scores))

    def finish_hand(self, hand: HandState) -> None:
        """Score a complete hand, decide the game if it is decided, pass the deal left."""
        if hand.phase != DONE:
            raise ValueError("the hand is not complete")
        before = self.scores
        delta = hand.delta()
        self.scores = (before[0] + delta[0], before[1] + delta[1])
        side = hand.declarer & 1
        made = made_contract(hand.contract[1] if hand.contract else None, hand.points()[side])
        won = game_winner(self.rules, self.scores, side, made, hand.bidder_goes_out)
        self.hands_played += 1
        self.dealer = (self.dealer + 1) % 4
        if won is not None:
            self.winner = SIDES[won]
