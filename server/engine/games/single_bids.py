"""The auction of single bids, as ``foster51``'s (docs/rules/foster51.md): each seat from the eldest
to the dealer bids once, above the highest bid so far, or passes; the highest bid is the
contract, and when every seat passes the dealer declares with none.

``widow_cinch`` (9.3) and ``auction_cinch`` (10.3) bid exactly so and differ only in what
the declarer is asked next; ``auction_pitch`` (4.2) offers the same bids and decides
itself what follows each one.
"""

from __future__ import annotations

from server.engine.games.all_fours import AllFoursHand


class SingleBids(AllFoursHand):
    """An All Fours hand with an auction: the bids on offer and what a bid does. The
    game's class holds the auction's state in its own slots."""

    __slots__ = ("contract", "declarer", "bids", "high_bid", "high_bidder")
    after_auction = ""  # the phase in which the declarer acts once the dealer has bid

    def _open_auction(self) -> None:
        """No bid yet, so no contract and no declarer: the game's ``_start`` calls it."""
        self.contract: tuple[int, int] | None = None
        self.declarer = -1
        self.bids: list[tuple[int, int]] = []  # (seat, amount), 0 = pass
        self.high_bid, self.high_bidder = 0, -1

    def legal_bids(self) -> list[int]:
        """0 (pass) and every amount above the highest bid, up to the ruleset's maximum."""
        r = self.rules
        return [0, *range(max(r.min_bid, self.high_bid + 1), r.max_bid + 1)]

    def do_bid(self, amount: int) -> None:
        """A bid (0: pass) by the seat to act; after the dealer's, the declarer is asked."""
        seat = self.actor()
        self.bids.append((seat, amount))
        if amount:
            self.high_bid, self.high_bidder = amount, seat
        if seat != self.dealer:
            self.to_act = (seat + 1) % self.k
            return
        if self.high_bid:
            self.contract = (self.high_bidder, self.high_bid)
            self.declarer = self.high_bidder
        else:
            self.declarer = self.dealer
        self.phase, self.to_act = self.after_auction, self.declarer
