"""``search``: determinized sampling with a double-dummy solver (PIMC).

Play decisions: from the observation alone, sample layouts of the hidden cards that are
consistent with everything the seat knows (its hand and discards, every card played,
voids shown by play, the public draw counts and, in american62, the trump counts they
imply, face-up discards in foster51), solve each sampled layout exactly with an
alpha-beta search over the remaining tricks, and play the card with the best average
hand result for the seat's side (its score change minus the other side's).

Bidding, trump and draw decisions sample whole deals (the unseen cards dealt at random
around the seat's own nine, the draw simulated) and value each trump suit by solving
the sampled post-draw hands; the bid is the one with the best expected result.

Everything is deterministic given (seed, observation): the only randomness is
``decision_rng``. The ``samples`` argument is the strength knob.
"""

from __future__ import annotations

from random import Random
from typing import Any

from server.engine.cards import CARD_INDEX, CARD_NAMES, SEATS, SUITS, TRUMP_TABLES, cards_of, mask_of
from server.engine.rulesets import DRAW_AMERICAN, Ruleset, make_ruleset
from server.engine.scoring import hand_delta

from .base import Action, Observation, decision_rng

ALL52 = (1 << 52) - 1


# ====================================================================== search layout
class Layout:
    """Cards remapped for one trump suit so that each effective suit is a contiguous,
    strength-ordered block of 16 bits: block ``s`` holds effective suit ``s``.

    In the trump block the order is 2 3 4 5(left) 5 6 ... A; in a plain block it is the
    printed rank order (the same-colour five is missing from its printed suit). Then
    "the next lower card still out in this suit" is a bit operation.
    """

    __slots__ = ("trump", "to_new", "to_old", "points", "counting", "noncounting_trumps", "block",
                 "below", "trump_block", "low_new")

    def __init__(self, trump: int, low_to_holder: bool):
        tab = TRUMP_TABLES[trump]
        self.trump = trump
        to_new = [0] * 52
        for c in range(52):
            s, r = divmod(c, 13)
            if s == trump:
                to_new[c] = s * 16 + (r if r < 3 else r + 1)
            elif c == tab.left_pedro:
                to_new[c] = trump * 16 + 3
            else:
                to_new[c] = s * 16 + r
        self.to_new = tuple(to_new)
        to_old = [-1] * 64
        for c, n in enumerate(to_new):
            to_old[n] = c
        self.to_old = tuple(to_old)
        pts = [0] * 64
        for c in range(52):
            pts[to_new[c]] = tab.points[c]
        self.low_new = to_new[tab.low_card]
        if low_to_holder:
            pts[self.low_new] = 0   # Low's point is its holder's whatever happens: not at stake
        self.points = tuple(pts)
        self.counting = mask_of(n for n in range(64) if pts[n])
        self.noncounting_trumps = self.remap(tab.noncounting_trumps)
        self.trump_block = 0xFFFF << (16 * trump)
        self.block = tuple(0xFFFF << (16 * s) for s in range(4))
        self.below = tuple(((1 << n) - 1) & (0xFFFF << (16 * (n // 16))) for n in range(64))

    def remap(self, mask: int) -> int:
        out = 0
        to_new = self.to_new
        while mask:
            low = mask & -mask
            out |= 1 << to_new[low.bit_length() - 1]
            mask ^= low
        return out

    def unmap(self, mask: int) -> int:
        out = 0
        to_old = self.to_old
        while mask:
            low = mask & -mask
            out |= 1 << to_old[low.bit_length() - 1]
            mask ^= low
        return out


_LAYOUTS: dict[tuple[int, bool], Layout] = {}


def layout_for(trump: int, low_to_holder: bool) -> Layout:
    key = (trump, low_to_holder)
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _LAYOUTS[key] = Layout(trump, low_to_holder)
    return lay


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Solver:
    """Exact alpha-beta over the remaining tricks of one perfect-information layout.

    Hands are remapped masks (``Layout``); the value of a position is the points side
    NS takes from now on (the current trick included), NS maximizing and EW minimizing.
    Extras on the first trick are the lowest non-counting trumps the player may spare.
    A transposition table keyed at trick starts holds bounds; cards that are
    equivalent (adjacent among the cards still out, same points) are tried once.
    """

    def __init__(self, lay: Layout):
        self.lay = lay
        self.tt: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0

    def legal(self, hand: int, lead_blk: int, leading: bool) -> int:
        lay = self.lay
        if leading:
            return hand
        tb = lay.trump_block
        if lead_blk == lay.trump:
            return hand & tb or hand
        follow = hand & lay.block[lead_blk]
        return (follow | (hand & tb)) if follow else hand

    def solve(self, hands: list[int], leader: int, trick: list[tuple[int, int, int]], first: bool,
              alpha: int = -1, beta: int = 99) -> int:
        """Points for NS from now on. ``trick``: (seat, card, extras) already played."""
        lay = self.lay
        pts = lay.points
        tb = lay.trump_block
        tpts = 0
        tmask = 0
        best_key, best_seat, lead_blk = -2, -1, -1
        for i, (seat, card, extras) in enumerate(trick):
            blk = card >> 4
            if i == 0:
                lead_blk = blk
            key = 100 + (card & 15) if blk == lay.trump else ((card & 15) if blk == lead_blk else -1)
            if key > best_key:
                best_key, best_seat = key, seat
            tpts += pts[card]
            tmask |= 1 << card
        rem = 0
        for n in _bits((hands[0] | hands[1] | hands[2] | hands[3]) & lay.counting):
            rem += pts[n]
        return self._node(hands, leader, len(trick), lead_blk, best_seat, best_key, tpts, tmask, rem,
                          first, alpha, beta)

    def _node(self, hands, leader, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta):
        self.nodes += 1
        lay = self.lay
        if n == 0:
            if rem == 0:
                return 0
            key = (hands[0], hands[1], hands[2], hands[3], leader)
            entry = self.tt.get(key)
            if entry is not None:
                lo, hi = entry
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                lo, hi = 0, rem
            a0, b0 = alpha, beta
            v = self._play(hands, leader, 0, -1, -1, -2, 0, 0, rem, first, alpha, beta)
            if v <= a0:
                hi = min(hi, v)
            elif v >= b0:
                lo = max(lo, v)
            else:
                lo = hi = v
            self.tt[key] = (lo, hi)
            return v
        return self._play(hands, leader, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta)

    def _play(self, hands, leader, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta):
        lay = self.lay
        pts = lay.points
        seat = (leader + n) & 3
        hand = hands[seat]
        # bounds: NS gets between 0 and everything still at stake
        hi_bound = rem + tpts
        if alpha >= hi_bound:
            return hi_bound
        if beta <= 0:
            return 0
        trump = lay.trump
        legal = self.legal(hand, lead_blk, n == 0)
        owed = hand.bit_count() - 6 if first and hand.bit_count() > 6 else 0
        moves: list[int]
        if owed:
            spare = hand & lay.noncounting_trumps
            moves = [c for c in _bits(legal) if (spare & ~(1 << c)).bit_count() >= owed]
        else:
            live = hands[0] | hands[1] | hands[2] | hands[3] | tmask
            below = lay.below
            moves = []
            for c in _bits(legal):
                x = live & below[c]
                if x:
                    nl = x.bit_length() - 1
                    if (legal >> nl) & 1 and pts[nl] == pts[c]:
                        continue
                moves.append(c)
        maximizing = not (seat & 1)
        if len(moves) > 1:
            moves = self._order(moves, seat, n, lead_blk, best_seat, best_key, tpts)
        best = -1 if maximizing else 99
        for c in moves:
            bit = 1 << c
            extras = 0
            if owed:
                spare = hand & lay.noncounting_trumps & ~bit
                for _ in range(owed):
                    low = spare & -spare
                    extras |= low
                    spare ^= low
            blk = c >> 4
            nlead = blk if n == 0 else lead_blk
            key = 100 + (c & 15) if blk == trump else ((c & 15) if blk == nlead else -1)
            if key > best_key:
                nbk, nbs = key, seat
            else:
                nbk, nbs = best_key, best_seat
            p = pts[c]
            hands[seat] = hand & ~(bit | extras)
            if n == 3:
                gained = (tpts + p) if not (nbs & 1) else 0
                v = gained + self._node(hands, nbs, 0, -1, -1, -2, 0, 0, rem - p, False,
                                        alpha - gained, beta - gained)
            else:
                v = self._play(hands, leader, n + 1, nlead, nbs, nbk, tpts + p, tmask | bit, rem - p, first,
                               alpha, beta)
            hands[seat] = hand
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        return best

    def _order(self, moves, seat, n, lead_blk, best_seat, best_key, tpts):
        """Try likely-best first: overtake cheaply or win big when it matters, else play low."""
        lay = self.lay
        pts = lay.points
        trump = lay.trump
        if n == 0:
            # lead: high trumps first, then low cards
            return sorted(moves, key=lambda c: -(c & 15) - 50 * ((c >> 4) == trump))
        partner_winning = best_seat == ((seat + 2) & 3)
        scored = []
        for c in moves:
            blk = c >> 4
            key = 100 + (c & 15) if blk == trump else ((c & 15) if blk == lead_blk else -1)
            if partner_winning:
                s = -pts[c] * 10 + (c & 15)        # give points, else play low
            elif key > best_key:
                s = -100 + key - pts[c] * 10 if n == 3 else -100 - key  # win: cheaply last, high otherwise
            else:
                s = pts[c] * 10 + (c & 15)          # lose: cheap cards
            scored.append((s, c))
        scored.sort()
        return [c for _, c in scored]
