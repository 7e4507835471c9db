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
        self._search = self._make_search()

    def solve(self, hands: list[int], leader: int, trick: list[tuple[int, int, int]], first: bool,
              alpha: int = -1, beta: int = 99) -> int:
        """Points for NS from now on. ``trick``: (seat, card, extras) already played."""
        lay = self.lay
        pts = lay.points
        tpts = 0
        tmask = 0
        best_key, best_seat, lead_blk = -2, -1, -1
        for i, (seat, card, _extras) in enumerate(trick):
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
        hands = list(hands)
        return self._search(hands, leader, len(trick), lead_blk, best_seat, best_key, tpts, tmask, rem,
                            first, alpha, beta)

    def _make_search(self):
        lay = self.lay
        pts = lay.points
        below = lay.below
        trump = lay.trump
        tb = lay.trump_block
        blocks = lay.block
        nct = lay.noncounting_trumps
        counting = lay.counting
        tt = self.tt
        solver = self

        def search(hands, leader, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta):
            solver.nodes += 1
            if n == 0:
                if rem == 0:
                    return 0
                h0, h1, h2, h3 = hands
                if not first and (h0 & (h0 - 1)) == 0:
                    # last trick: one card each, no choice
                    lead = hands[leader]
                    c = lead.bit_length() - 1
                    lb = c >> 4
                    bk = 100 + (c & 15) if lb == trump else (c & 15)
                    bs = leader
                    tot = pts[c]
                    for k in (1, 2, 3):
                        s = (leader + k) & 3
                        c = hands[s].bit_length() - 1
                        b = c >> 4
                        key = 100 + (c & 15) if b == trump else ((c & 15) if b == lb else -1)
                        if key > bk:
                            bk, bs = key, s
                        tot += pts[c]
                    return 0 if bs & 1 else tot
                key = (h0, h1, h2, h3, leader)
                entry = tt.get(key)
                if entry is not None:
                    lo, hi, hint = entry
                    if lo >= beta or lo == hi:
                        return lo
                    if hi <= alpha:
                        return hi
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
                else:
                    lo, hi, hint = 0, rem, -1
                    if alpha >= rem:
                        return rem
                    if beta <= 0:
                        return 0
                a0, b0 = alpha, beta
                v = play(hands, leader, 0, -1, -1, -2, 0, 0, rem, first, alpha, beta, hint)
                if v <= a0:
                    if v < hi:
                        hi = v
                elif v >= b0:
                    if v > lo:
                        lo = v
                else:
                    lo = hi = v
                tt[key] = (lo, hi, last_best[0])
                return v
            return play(hands, leader, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta, -1)

        last_best = [-1]

        def play(hands, leader, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta, hint):
            hi_bound = rem + tpts
            if alpha >= hi_bound:
                return hi_bound
            if beta <= 0:
                return 0
            seat = (leader + n) & 3
            hand = hands[seat]
            # the follow rules
            if n == 0:
                legal = hand
            elif lead_blk == trump:
                legal = hand & tb or hand
            else:
                legal = hand & blocks[lead_blk]
                legal = (legal | (hand & tb)) if legal else hand
            owed = 0
            if first:
                size = hand.bit_count()
                if size > 6:
                    owed = size - 6
            moves = []
            if owed:
                spare = hand & nct
                m = legal
                while m:
                    low = m & -m
                    m ^= low
                    if (spare & ~low).bit_count() >= owed:
                        moves.append(low.bit_length() - 1)
            else:
                live = hands[0] | hands[1] | hands[2] | hands[3] | tmask
                m = legal
                while m:
                    low = m & -m
                    m ^= low
                    c = low.bit_length() - 1
                    x = live & below[c]
                    if x:
                        nl = x.bit_length() - 1
                        if (legal >> nl) & 1 and pts[nl] == pts[c]:
                            continue
                    moves.append(c)
            maximizing = not (seat & 1)
            if len(moves) > 1:
                # move ordering: likely-best first
                scored = []
                if n == 0:
                    for c in moves:
                        r = c & 15
                        scored.append((-r - 50 if (c >> 4) == trump else r - 20 - pts[c], c))
                else:
                    partner_winning = best_seat == ((seat + 2) & 3)
                    for c in moves:
                        b = c >> 4
                        key = 100 + (c & 15) if b == trump else ((c & 15) if b == lead_blk else -1)
                        p = pts[c]
                        if partner_winning:
                            s = -p * 10 + (c & 15)
                        elif key > best_key:
                            s = (-200 + key + p * 10) if n == 3 else (-200 - key)
                        else:
                            s = p * 10 + (c & 15)
                        scored.append((s, c))
                scored.sort()
                moves = [c for _, c in scored]
                if hint >= 0 and hint in moves and moves[0] != hint:
                    moves.remove(hint)
                    moves.insert(0, hint)
            best = -1 if maximizing else 99
            best_move = moves[0]
            nxt = n + 1
            for c in moves:
                bit = 1 << c
                extras = 0
                if owed:
                    spare = hand & nct & ~bit
                    for _ in range(owed):
                        low = spare & -spare
                        extras |= low
                        spare ^= low
                b = c >> 4
                if n == 0:
                    nlead = b
                    nbk = 100 + (c & 15) if b == trump else (c & 15)
                    nbs = seat
                else:
                    nlead = lead_blk
                    key = 100 + (c & 15) if b == trump else ((c & 15) if b == lead_blk else -1)
                    if key > best_key:
                        nbk, nbs = key, seat
                    else:
                        nbk, nbs = best_key, best_seat
                p = pts[c]
                hands[seat] = hand & ~(bit | extras)
                if nxt == 4:
                    if nbs & 1:
                        v = search(hands, nbs, 0, -1, -1, -2, 0, 0, rem - p, False, alpha, beta)
                    else:
                        g = tpts + p
                        v = g + search(hands, nbs, 0, -1, -1, -2, 0, 0, rem - p, False, alpha - g, beta - g)
                else:
                    v = play(hands, leader, nxt, nlead, nbs, nbk, tpts + p, tmask | bit, rem - p, first,
                             alpha, beta, -1)
                hands[seat] = hand
                if maximizing:
                    if v > best:
                        best = v
                        best_move = c
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                else:
                    if v < best:
                        best = v
                        best_move = c
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            last_best[0] = best_move
            return best

        return search

    # ------------------------------------------------------------------ greedy rollouts
    def rollout(self, hands: list[int], leader: int, trick: list[tuple[int, int, int]], first: bool) -> int:
        """Points NS takes from now when all four play a greedy perfect-information policy.

        Cheap (tens of microseconds a hand): it values sampled deals for bidding and trump,
        and the first trick's cards, where the exact search is too slow. The policy: lead
        the boss trump or a card nobody can beat, else a low plain card; when partner's
        trick is safe, throw it the most points; win a trick with points (or save a
        counting card) with the cheapest sure winner; otherwise play the cheapest card.
        """
        lay = self.lay
        pts = lay.points
        trump = lay.trump
        tb = lay.trump_block
        blocks = lay.block
        nct = lay.noncounting_trumps
        hands = list(hands)
        ns = 0
        plays = [(s, c) for s, c, _x in trick]
        n_tricks_left = 7  # safety
        while n_tricks_left:
            n = len(plays)
            if n == 0:
                lead_blk, best_key, best_seat, tpts = -1, -2, -1, 0
            else:
                lead_blk = plays[0][1] >> 4
                best_key, best_seat, tpts = -2, -1, 0
                for s, c in plays:
                    b = c >> 4
                    key = 100 + (c & 15) if b == trump else ((c & 15) if b == lead_blk else -1)
                    if key > best_key:
                        best_key, best_seat = key, s
                    tpts += pts[c]
            while n < 4:
                seat = (leader + n) & 3
                hand = hands[seat]
                if not hand:
                    return ns
                if n == 0:
                    legal = hand
                elif lead_blk == trump:
                    legal = hand & tb or hand
                else:
                    legal = hand & blocks[lead_blk]
                    legal = (legal | (hand & tb)) if legal else hand
                owed = 0
                if first:
                    size = hand.bit_count()
                    if size > 6:
                        owed = size - 6
                        spare = hand & nct
                        ok = 0
                        m = legal
                        while m:
                            low = m & -m
                            m ^= low
                            if (spare & ~low).bit_count() >= owed:
                                ok |= low
                        legal = ok
                card = self._greedy(hands, seat, leader, n, legal, lead_blk, best_key, best_seat, tpts)
                bit = 1 << card
                extras = 0
                if owed:
                    spare = hand & nct & ~bit
                    for _ in range(owed):
                        low = spare & -spare
                        extras |= low
                        spare ^= low
                hands[seat] = hand & ~(bit | extras)
                b = card >> 4
                if n == 0:
                    lead_blk = b
                key = 100 + (card & 15) if b == trump else ((card & 15) if b == lead_blk else -1)
                if key > best_key:
                    best_key, best_seat = key, seat
                tpts += pts[card]
                n += 1
            if not (best_seat & 1):
                ns += tpts
            leader = best_seat
            plays = []
            first = False
            n_tricks_left -= 1
            if not hands[leader]:
                return ns
        return ns

    def _greedy(self, hands, seat, leader, n, legal, lead_blk, best_key, best_seat, tpts) -> int:
        lay = self.lay
        pts = lay.points
        trump = lay.trump
        tb = lay.trump_block
        blocks = lay.block
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        partner = (seat + 2) & 3
        later_opp = [(leader + k) & 3 for k in range(n + 1, 4) if ((leader + k) & 1) != (seat & 1)]
        if n == 0:
            live_trumps = (hands[0] | hands[1] | hands[2] | hands[3]) & tb
            if live_trumps:
                top = live_trumps.bit_length() - 1
                if (legal >> top) & 1:
                    return top
            opp = [(seat + 1) & 3, (seat + 3) & 3]
            # a plain card nobody can beat or trump
            plain = legal & ~tb
            best_safe = -1
            m = plain
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                blk = blocks[c >> 4]
                safe = True
                for o in opp:
                    h = hands[o]
                    if h & tb or (h & blk).bit_length() - 1 > c:
                        safe = False
                        break
                if safe:
                    best_safe = c
                    break
            if best_safe >= 0:
                return best_safe
            if plain:
                return min(_bits(plain), key=lambda c: c & 15)
            cheap = legal & ~lay.counting
            m = cheap or legal
            return (m & -m).bit_length() - 1
        # what each later opponent could beat
        opp_max = -2
        for o in later_opp:
            h = hands[o]
            t = h & tb
            k = 100 + ((t.bit_length() - 1) & 15) if t else -2
            if lead_blk != trump:
                f = h & blocks[lead_blk]
                if f:
                    k2 = (f.bit_length() - 1) & 15
                    if k2 > k:
                        k = k2
            if k > opp_max:
                opp_max = k
        if best_seat == partner and best_key > opp_max:
            # partner's trick is safe: give it the most points, else the cheapest card
            give = legal & lay.counting
            if give:
                return max(_bits(give), key=lambda c: (pts[c], -(c & 15)))
            return self._cheapest(legal)
        winners = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            b = c >> 4
            key = 100 + (c & 15) if b == trump else ((c & 15) if b == lead_blk else -1)
            if key > best_key and key > opp_max:
                winners.append(c)
        if winners:
            saving = [c for c in winners if pts[c]]
            if saving:
                return max(saving, key=lambda c: (pts[c], c & 15))
            if tpts or n < 3:
                return min(winners, key=lambda c: (c >> 4 == trump, c & 15))
            c = min(winners, key=lambda c: (c >> 4 == trump, c & 15))
            if c >> 4 != trump:
                return c
        return self._cheapest(legal)

    def _cheapest(self, legal: int) -> int:
        lay = self.lay
        pts = lay.points
        trump = lay.trump
        best, best_cost = -1, 1 << 30
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            cost = pts[c] * 100 + (c & 15) + (30 if c >> 4 == trump else 0)
            if cost < best_cost:
                best, best_cost = c, cost
        return best
