"""``search-play``, and the play of ``search``: determinized sampling with an exact double-dummy solver (PIMC).

Play: from the observation alone, sample layouts of the hidden cards consistent with
everything the seat knows -- its own hand and discards, every card played, voids shown
by play, face-up discards (foster51), what the dealer saw in the stock, and the public
draw counts: in american62 each player kept exactly the trumps he was dealt
(9 - discarded) and drew the rest, so the stock's trumps are placed at random in the
stock and counted to whoever drew that stretch of it (the dealer took those left).
Each layout is solved exactly by alpha-beta over the remaining tricks (``Solver``, on
a compact bitmask layout with a transposition table and equivalent-card pruning; the
inner search is compiled, ``_solver.c``, because exact first-trick layouts take tens of
thousands of positions each), for every distinct legal card, and the card with the best
average hand result for the seat's side (its score change minus the other side's,
through the ruleset's scoring) is played. ``samples`` layouts at most, and a
deterministic node budget: a decision searches at most ``NODES_PER_SAMPLE`` x samples
solver nodes in all (the layout that would pass it is dropped), a count and never the
clock, so a decision does not depend on the machine or its load. How strong the bot is
is measured by duplicate matches (``benchmarks/bots.py``, ``benchmarks/search_before.py``)
and how well it chooses by ``benchmarks/search_quality.py`` (regret against a reference
search of 48 exact layouts).

Blind Cinch plays as its base once the packets are taken up, so its play is searched the
same way (``PLAY_SOLVED``): there is no stock, so the sampler knows only the face-up
discards (foster51 base) or the discard counts (american62 base: a player who kept more
than six cards kept only trumps), and every other unseen card may be in any hand.

Bidding and trump: a fitted valuation of each suit (expected points of the declaring
side from the trumps held; see ``WEIGHTS``) with a spread of outcomes, scored through
the ruleset's scoring; the bot bids the least legal amount when declaring is worth
more than passing. Draw decisions keep trumps first (foster51 banking rules).

Every decision is a function of (seed, observation): the only randomness is
``decision_rng``, and nothing but the observation is read.
"""

from __future__ import annotations

from random import Random
from typing import Any

from server.engine.cards import CARD_INDEX, CARD_NAMES, SEATS, SUITS, TRUMP_TABLES, Tables, cards_of, mask_of
from server.engine.games.cinch_hand import counting_tables
from server.engine.rulesets import DRAW_AMERICAN, Ruleset, make_ruleset
from server.engine.scoring import hand_delta
from workers.bots.base import Action, Observation, decision_rng
from workers.bots.family_search import FamilySearch
from workers.bots.rule_bot import RuleBot

SOLVED = ("american62", "foster51")  # the rulesets this module decides in full
PLAY_SOLVED = (*SOLVED, "blind_cinch", "sixty_three")
"""The rulesets whose play the solver searches: Cinch's cards, each card's points to the
side that takes it (Low perhaps to its holder). Blind Cinch plays as its base once the
packets are taken up (docs/rules/blind_cinch.md#play); Sixty-three as foster51 with more
counting trumps (docs/rules/sixty_three.md#points). Their other decisions are the rule bot's."""

ALL52 = (1 << 52) - 1


# ====================================================================== search layout
class Layout:
    """Cards remapped for one trump suit so that each effective suit is a contiguous,
    strength-ordered block of 16 bits: block ``s`` holds effective suit ``s``.

    In the trump block the order is 2 3 4 5(left) 5 6 ... A; in a plain block it is the
    printed rank order (the same-colour five is missing from its printed suit). Then
    "the next lower card still out in this suit" is a bit operation.
    """

    __slots__ = (
        "trump",
        "to_new",
        "to_old",
        "points",
        "counting",
        "noncounting_trumps",
        "block",
        "below",
        "trump_block",
        "low_new",
    )

    def __init__(self, tab: Tables, low_to_holder: bool):
        trump = tab.trump
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
            pts[self.low_new] = 0  # Low's point is its holder's whatever happens: not at stake
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


_LAYOUTS: dict[tuple[int, bool, tuple[tuple[str, int], ...]], Layout] = {}


def layout_for(trump: int, low_to_holder: bool, extra_counts: tuple[tuple[str, int], ...] = ()) -> Layout:
    """The layout of a trump suit, with the ruleset's counting trumps (``Ruleset.extra_counts``:
    sixty_three's King, Three and Nine)."""
    key = (trump, low_to_holder, extra_counts)
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _LAYOUTS[key] = Layout(counting_tables(extra_counts)[trump], low_to_holder)
    return lay


class Exhausted(Exception):
    """The solver reached its node limit (``Solver.limit``)."""


class Solver:
    """Exact alpha-beta over the remaining tricks of one perfect-information layout.

    Hands are remapped masks (``Layout``); the value of a position is the points side
    NS takes from now on (the current trick included), NS maximizing and EW minimizing.
    Extras on the first trick are the lowest non-counting trumps the player may spare.
    A transposition table keyed at trick starts holds bounds; cards that are
    equivalent (adjacent among the cards still out, same points) are tried once; and
    at a trick start the trumps of one side above all of the other side's are that
    side's points already (only trumps count), which bounds the value before a search.
    ``nodes`` counts the positions ``search`` is asked (trick starts and the root); at
    ``limit`` the search raises ``Exhausted``, so the count never passes the limit.
    """

    def __init__(self, lay: Layout):
        self.lay = lay
        self.limit = 1 << 62
        # imported here, not with the module: the API and every other bot run on a build without the C extension
        from workers.bots import _solver

        self._search, self._nodes = _solver.search, _solver.nodes
        self._ctx = _solver.new(lay.points, lay.trump, lay.counting, lay.noncounting_trumps)

    @property
    def nodes(self) -> int:
        return self._nodes(self._ctx)

    def solve(
        self,
        hands: list[int],
        leader: int,
        trick: list[tuple[int, int, int]],
        first: bool,
        alpha: int = -1,
        beta: int = 99,
    ) -> int:
        """Points for NS from now on. ``trick``: (seat, card, extras) already played."""
        lead_blk, best_key, best_seat, tpts = self.trick_state(trick)
        tmask = 0
        for _seat, card, _extras in trick:
            tmask |= 1 << card
        pts = self.lay.points
        rem = sum(pts[n] for n in cards_of((hands[0] | hands[1] | hands[2] | hands[3]) & self.lay.counting))
        v = self._search(
            self._ctx,
            hands[0],
            hands[1],
            hands[2],
            hands[3],
            leader,
            len(trick),
            lead_blk,
            best_seat,
            best_key,
            tpts,
            tmask,
            rem,
            first,
            alpha,
            beta,
            self.limit,
        )
        if v is None:
            raise Exhausted
        return v

    # ------------------------------------------------------------------ fallback
    def greedy(self, hands, seat, leader, n, legal, lead_blk, best_key, best_seat, tpts) -> int:
        """A cheap perfect-information choice, the fallback when a decision's node cap is
        reached before one layout is solved: lead the boss trump or a card nobody can
        beat, else a low plain card; throw points on partner's safe trick; win a trick
        with points (or save a counting card) with the cheapest sure winner; otherwise
        play the cheapest card."""
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
                return min(cards_of(plain), key=lambda c: c & 15)
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
                return max(cards_of(give), key=lambda c: (pts[c], -(c & 15)))
            return self.cheapest(legal)
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
        return self.cheapest(legal)

    def cheapest(self, legal: int) -> int:
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

    # ------------------------------------------------------------------ root helpers
    def after(
        self,
        hands: list[int],
        leader: int,
        trick: list[tuple[int, int, int]],
        first: bool,
        seat: int,
        card: int,
        extras: int,
        guess: int = 7,
    ) -> int:
        """NS points from now if ``seat`` plays ``card`` (+ ``extras``) here, best play after.

        Exact, by MTD(f): null-window searches from ``guess`` (the value of a sibling is a
        good one) that close in on the value through the transposition table's bounds.
        """
        hands = list(hands)
        hands[seat] &= ~((1 << card) | extras)
        trick = trick + [(seat, card, extras)]
        gained = 0
        if len(trick) == 4:
            winner, tpts = self.trick_result(trick)
            gained = 0 if winner & 1 else tpts
            if not (hands[0] | hands[1] | hands[2] | hands[3]):
                return gained
            leader, trick, first = winner, [], False
            guess -= gained
        lo, hi = -1, 99
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.solve(hands, leader, trick, first, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return gained + g

    def trick_state(self, trick: list[tuple[int, int, int]]) -> tuple[int, int, int, int]:
        """(lead block, best key, seat winning so far, points) of a trick in progress."""
        lay = self.lay
        if not trick:
            return -1, -2, -1, 0
        lead_blk = trick[0][1] >> 4
        best_key, best_seat, tpts = -2, -1, 0
        for seat, c, _x in trick:
            b = c >> 4
            key = 100 + (c & 15) if b == lay.trump else ((c & 15) if b == lead_blk else -1)
            if key > best_key:
                best_key, best_seat = key, seat
            tpts += lay.points[c]
        return lead_blk, best_key, best_seat, tpts

    def trick_result(self, trick: list[tuple[int, int, int]]) -> tuple[int, int]:
        """(winner, points) of a complete trick."""
        _lead, _key, winner, tpts = self.trick_state(trick)
        return winner, tpts


# ====================================================================== what the seat knows
def ruleset_of(obs: Observation) -> Ruleset:
    return make_ruleset(obs["ruleset"], obs.get("options") or None)


def _mask(names: list[str] | None) -> int:
    m = 0
    for c in names or ():
        m |= 1 << CARD_INDEX[c]
    return m


class View:
    """The facts of one observation the search needs, parsed once per decision."""

    def trump_suit(self) -> int:
        """The trump suit's index, once named: the play's searches are only asked then."""
        if self.trump is None:
            raise ValueError("no trump has been named yet: the play search is asked only in the play")
        return self.trump

    def __init__(self, obs: Observation):
        self.obs = obs
        self.rules = rules = ruleset_of(obs)
        self.american = rules.draw == DRAW_AMERICAN
        self.me = SEATS.index(obs["seat"])
        self.dealer = SEATS.index(obs["dealer"])
        self.hand = _mask(obs["hand"])
        self.sizes = [obs["hand_sizes"][s] for s in SEATS]
        self.trump = SUITS.index(obs["trump"]) if obs.get("trump") else None
        self.declarer = SEATS.index(obs["declarer"]) if obs.get("declarer") else -1
        self.contract = obs["contract"]["amount"] if obs.get("contract") else None
        self.restocks = obs.get("restocks", 0)
        # american62's draw from a stock, whose public counts say how many trumps each
        # player drew; Blind Cinch has packets and no stock (docs/rules/blind_cinch.md#deal)
        self.stock_draw = self.american and not getattr(rules, "blind_packet", 0)

    # -------------------------------------------------------------- play phase
    def parse_play(self) -> None:
        """Played cards, voids, tricks, the draw's public counts (trump is known)."""
        obs = self.obs
        rules = self.rules
        tab = counting_tables(rules.extra_counts)[self.trump_suit()]
        self.tab = tab
        self.lay = layout_for(self.trump_suit(), rules.low_to_holder, rules.extra_counts)
        trumps = tab.trump_mask
        eff = tab.effective_suit
        played_by = [0, 0, 0, 0]
        void = [0, 0, 0, 0]  # bit s: shown out of effective suit s
        taken = [0, 0]
        gone = 0  # cards of completed tricks
        tricks = obs["tricks"]
        current: list[tuple[int, int, int]] = []
        leader = self.declarer
        n_done = 0
        low = tab.low_card
        low_side = -1
        for ti, trick in enumerate(tricks):
            plays = [(SEATS.index(p["seat"]), CARD_INDEX[p["card"]], _mask(p["extras"])) for p in trick["plays"]]
            lead_suit = eff[plays[0][1]]
            if ti == 0 and rules.first_lead_trump and lead_suit != self.trump:
                void[plays[0][0]] |= 1 << self.trump_suit()
            for seat, card, extras in plays:
                played_by[seat] |= (1 << card) | extras
                s = eff[card]
                if s != lead_suit and (lead_suit == self.trump or s != self.trump):
                    void[seat] |= 1 << lead_suit
                if card == low:
                    low_side = seat & 1
            if trick["winner"] is None:
                current = plays
                leader = plays[0][0]
            else:
                n_done += 1
                winner = SEATS.index(trick["winner"])
                won = 0
                for seat, card, extras in plays:
                    gone |= (1 << card) | extras
                    if card == low and rules.low_to_holder:
                        taken[seat & 1] += 1
                    else:
                        won += tab.points[card]
                taken[winner & 1] += won
                leader = winner
        self.played_by = played_by
        self.void = void
        self.taken = taken
        self.gone = gone
        self.current = current
        self.leader = leader
        self.first = n_done == 0
        self.tricks_done = n_done
        self.low_side_played = low_side
        # the draw
        known_out = 0
        shown = 0
        self.discarded = [0, 0, 0, 0]
        self.received = [0, 0, 0, 0]
        for d in obs["draws"]:
            s = SEATS.index(d["seat"])
            self.discarded[s] = d["discarded"]
            self.received[s] = d["received"]
            seen = _mask(d["shown"])
            shown |= seen
            discards = seen | _mask(d.get("cards"))
            robbed_last = s == self.dealer and not self.american and not rules.dealer_draws_blind
            if self.restocks and not robbed_last:
                # a rebuilt stock may have carried discarded non-trumps back into a hand
                discards &= trumps
            known_out |= discards | _mask(d.get("left_in_stock"))
        self.shown = shown
        all_played = 0
        for m in played_by:
            all_played |= m
        self.all_played = all_played
        self.unseen = ALL52 & ~self.hand & ~all_played & ~known_out
        self.live_mine = ALL52 & ~gone & ~known_out
        # counting cards banked with the discards (foster51): the declaring side's
        self.discard_points = 0 if self.american else sum(tab.points[c] for c in cards_of(shown & tab.counting_mask))
        self.trumps_in_hands = self.american or not rules.dealer_draws_blind
        self.post_sizes = [self.sizes[s] + played_by[s].bit_count() for s in range(4)]
        if self.stock_draw:
            # every player kept exactly the trumps he was dealt (9 - discarded) and drew
            # the rest; the stock's trumps went to whoever drew them, the rest to the dealer
            self.dealt_trumps = [9 - self.discarded[s] for s in range(4)]
            self.segments = seg = [0, 0, 0, 0]
            used = 0
            for i in range(3):
                s = (self.dealer + 1 + i) % 4
                seg[s] = min(self.received[s], 16 - used)
                used += seg[s]
            seg[self.dealer] = 16 - used

    def final_net(self, ns: int, ew: int) -> int:
        """The seat's side's score change minus the other side's, for final points (NS, EW)."""
        side = self.declarer & 1
        d = hand_delta(self.rules, side, self.contract, (ns, ew))
        return d[0] - d[1] if self.me % 2 == 0 else d[1] - d[0]


# ====================================================================== sampling hidden hands
def _fill(rng: Random, needs: list[tuple[int, int, int]], pool: int) -> dict[int, int] | None:
    """Give each (seat, count, eligible) ``count`` random cards of ``pool & eligible``,
    most constrained seat first; None if it cannot be done."""
    order = sorted(needs, key=lambda t: (pool & t[2]).bit_count() - t[1])
    out: dict[int, int] = {}
    for seat, count, eligible in order:
        avail = cards_of(pool & eligible)
        if len(avail) < count:
            return None
        got = mask_of(rng.sample(avail, count)) if count else 0
        out[seat] = got
        pool &= ~got
    return out


def sample_play_world(view: View, rng: Random, tries: int = 60) -> list[int] | None:
    """Current hands of all four seats, consistent with everything the seat knows."""
    me = view.me
    trumps = view.tab.trump_mask
    others = [s for s in range(4) if s != me]
    unseen = view.unseen
    u_trumps = unseen & trumps
    u_plain = unseen & ~trumps
    n_ut = u_trumps.bit_count()
    plain_masks = view.tab.plain_masks
    for attempt in range(tries):
        ct = view_trump_counts(view, rng, others, n_ut, relaxed=attempt >= tries // 2)
        if ct is None:
            continue
        hands = [0, 0, 0, 0]
        hands[me] = view.hand
        if view.trumps_in_hands:
            tl = cards_of(u_trumps)
            rng.shuffle(tl)
            i = 0
            for s in others:
                hands[s] = mask_of(tl[i : i + ct[s]])
                i += ct[s]
            needs = []
            for s in others:
                elig = 0
                for suit in range(4):
                    if suit != view.trump and not (view.void[s] >> suit) & 1:
                        elig |= plain_masks[suit]
                needs.append((s, view.sizes[s] - ct[s], elig))
            got = _fill(rng, needs, u_plain)
        else:
            needs = []
            for s in others:
                elig = 0
                for suit in range(4):
                    if not (view.void[s] >> suit) & 1:
                        elig |= trumps if suit == view.trump else plain_masks[suit]
                needs.append((s, view.sizes[s], elig))
            got = _fill(rng, needs, unseen)
        if got is None:
            continue
        for s, m in got.items():
            hands[s] |= m
        return hands
    return None


def view_trump_counts(view: View, rng: Random, others: list[int], n_ut: int, relaxed: bool) -> dict[int, int] | None:
    """How many trumps each other seat holds now, drawn from what the draw makes likely.

    american62: the trumps that were in the stock sit at uniformly random places in it;
    each non-dealer drew a known stretch of it and the dealer took the trumps left, so
    the counts follow from where they fall (the seat's own stretch is known). Otherwise,
    and as a fallback: uniform over the hand slots of the seats that may hold trumps.
    """
    sizes = view.sizes
    trumps = view.tab.trump_mask
    if not view.trumps_in_hands:
        return {s: 0 for s in others}
    ct: dict[int, int] = {}
    if view.stock_draw and not relaxed:
        dealer = view.dealer
        d = view.dealt_trumps
        seg = view.segments
        post = view.post_sizes
        mine = (view.hand | view.played_by[view.me]) & trumps
        left = 14 - sum(d) - (mine.bit_count() - d[view.me])
        positions = [s for s in others for _ in range(seg[s])]
        if left < 0 or left > len(positions):
            return None
        c = {s: 0 for s in others}
        for s in rng.sample(positions, left):
            c[s] += 1
        for s in others:
            t = d[s] + c[s]
            if s == dealer and post[s] > 6 and t != post[s]:
                return None
            now = t - (view.played_by[s] & trumps).bit_count()
            if now < 0 or now > sizes[s] or (now and (view.void[s] >> view.trump_suit()) & 1):
                return None
            ct[s] = now
        return ct
    # a player who kept more than six cards kept only trumps (american62's discard);
    # otherwise uniform over the slots of seats that may hold trumps
    c = {s: sizes[s] if view.american and view.post_sizes[s] > 6 else 0 for s in others}
    slots = [s for s in others if not c[s] and not (view.void[s] >> view.trump_suit()) & 1 for _ in range(sizes[s])]
    left = n_ut - sum(c.values())
    if not 0 <= left <= len(slots):
        return None
    for s in rng.sample(slots, left):
        c[s] += 1
    return c


def layout_fits(view: View, hands: list[int]) -> bool:
    """Whether ``hands`` (current cards of all four seats) breaks nothing the seat knows:
    its own hand, the sizes, cards seen elsewhere, shown voids, every hidden trump in a
    hand (when no trump can be out of play) and, in american62, the trump counts the
    draw allows. The true layout always fits; so must every sampled one."""
    trumps = view.tab.trump_mask
    if hands[view.me] != view.hand:
        return False
    seen = 0
    for s in range(4):
        if hands[s].bit_count() != view.sizes[s]:
            return False
        if s == view.me:
            continue
        if hands[s] & ~view.unseen or hands[s] & seen:
            return False
        seen |= hands[s]
        for suit in range(4):
            if (view.void[s] >> suit) & 1:
                if hands[s] & (trumps if suit == view.trump else view.tab.plain_masks[suit]):
                    return False
    if view.trumps_in_hands and view.unseen & trumps & ~seen:
        return False
    if view.american:
        for s in range(4):
            t = ((hands[s] | view.played_by[s]) & trumps).bit_count()
            if view.stock_draw and not 0 <= t - view.dealt_trumps[s] <= view.segments[s]:
                return False
            if view.post_sizes[s] > 6 and t != view.post_sizes[s]:
                return False
    return True


# ====================================================================== the draw
def _keep_order(cards: list[int], tab, declaring: bool, banking: bool) -> list[int]:
    """Cards best-to-keep first: trumps by strength, then plain cards by rank.

    ``banking`` (foster51 rob and discards): a trump thrown away is shown and its points
    go to the declaring side, so a declaring-side player sheds his surplus counting
    trumps (not the ace) first, and a defender keeps them.
    """
    trumps = tab.trump_mask
    strength = tab.strength
    points = tab.points

    def score(c: int) -> tuple[int, int]:
        if not (trumps >> c) & 1:
            return (0, c % 13)
        p = points[c]
        if banking and declaring and p and c % 13 != 12:
            return (1, -p)
        if not declaring and p:
            return (3, strength[c])
        return (2, strength[c])

    return sorted(cards, key=score, reverse=True)


# ====================================================================== the bot
DEFAULT_SAMPLES = 24
FAMILY_WORLDS = 3
"""Worlds per sample in the family's engine search (``FamilySearch``): a world there costs
about a third of a solved layout, so the same time bar buys three times as many, and they
are worth it: 96 worlds a decision against 24 were +1.00 [+0.06, +1.94] a board in pedro and
+1.32 [+0.22, +2.41] in snoozer (docs/bots.md); 72 keep the family's p99 under 80 ms."""
NODES_PER_SAMPLE = 40_000  # a play decision searches at most this x samples solver nodes in all
# (a count, not the clock: the same decision on any machine, under any
# load). 16 x 65,536 = 1,048,576 nodes, about 100-200 ms of the compiled
# solver on this project's machines at worst; boards 601-700 needed at
# most 940,631, so the cap is a guard that almost never decides
PASS_VALUE = {"partner": 3.0, "opponent": -1.0, "open": -1.0}


# Points the declaring side takes, by what the declarer holds in the suit he names
# (A, K, Q; J and T; the two Pedros; Low; trump length; interactions; the dealer's
# advantage in the draw). Least-squares fits on 3,200 hands per ruleset in which a
# development version of this bot (4 samples) played every seat, a random seat
# declaring each suit in turn (declarer's 9 cards -> his side's points); the
# residual is about 4 points either way, so a bid is valued over a spread of outcomes.
WEIGHTS = {
    "american62": dict(
        bias=4.75,
        A=2.01,
        K=1.07,
        Q=1.02,
        JT=0.35,
        ped=0.39,
        low=0.32,
        n=0.40,
        top2=0.11,
        ped_top=-0.71,
        dealer=-0.17,
        dealer_n=0.29,
    ),
    "foster51": dict(
        bias=4.63,
        A=1.96,
        K=1.03,
        Q=0.80,
        JT=0.70,
        ped=0.57,
        low=-0.35,
        n=0.43,
        top2=0.15,
        ped_top=-0.40,
        dealer=0.26,
        dealer_n=0.07,
    ),
}
SPREAD = 4.0


def trump_holding(hand: int, suit: int) -> tuple[int, int, int, int, int]:
    """(the trumps of ``hand`` if ``suit`` is named, as a mask; how many; of A K Q how many;
    of J T; of the two Pedros) -- what the valuation counts."""
    tab = TRUMP_TABLES[suit]
    trumps = hand & tab.trump_mask
    top = ped = jt = 0
    for c in cards_of(trumps):
        if c == tab.left_pedro:
            ped += 1
            continue
        r = c % 13
        if r >= 10:
            top += 1
        elif r in (8, 9):
            jt += 1
        elif r == 3:
            ped += 1
    return trumps, trumps.bit_count(), top, jt, ped


def suit_value(view: View, suit: int) -> float:
    """Expected points of the declaring side if the seat names ``suit`` (its nine cards)."""
    w = WEIGHTS.get(view.rules.name, WEIGHTS["american62"])
    trumps, n, top, jt, ped = trump_holding(view.hand, suit)
    low = (trumps >> TRUMP_TABLES[suit].low_card) & 1
    value = (
        w["bias"]
        + w["A"] * ((trumps >> (suit * 13 + 12)) & 1)
        + w["K"] * ((trumps >> (suit * 13 + 11)) & 1)
        + w["Q"] * ((trumps >> (suit * 13 + 10)) & 1)
        + w["JT"] * jt
        + w["ped"] * ped
        + w["low"] * low
        + w["n"] * n
        + w["top2"] * top * top
        + w["ped_top"] * ped * top
    )
    if view.me == view.dealer:
        value += w["dealer"] + w["dealer_n"] * n
    return value


_SPREAD_CACHE: dict[tuple[float, float], list[float]] = {}


def _outcomes(mean: float, sd: float = SPREAD) -> list[float]:
    """Probabilities of the declaring side taking 0..14 points: a normal spread, clipped."""
    key = (round(mean, 2), round(sd, 2))
    probs = _SPREAD_CACHE.get(key)
    if probs is None:
        from statistics import NormalDist

        dist = NormalDist(*key)
        cdf = [dist.cdf(k + 0.5) for k in range(15)]
        probs = [cdf[0]] + [cdf[k] - cdf[k - 1] for k in range(1, 14)] + [1 - cdf[13]]
        _SPREAD_CACHE[key] = probs
    return probs


def spread_net(rules: Ruleset, side: int, mean: float, sd: float, bid: int | None) -> float:
    """``side``'s expected net declaring at ``bid`` when its points are spread normally
    around ``mean`` with ``sd`` (``benchmarks/bid_fit.py`` tries other valuations through it)."""
    total = 0.0
    for pts, p in enumerate(_outcomes(mean, sd)):
        ours = [0, 0]
        ours[side], ours[1 - side] = pts, 14 - pts
        d = hand_delta(rules, side, bid, (ours[0], ours[1]))
        total += p * (d[side] - d[1 - side])
    return total


class SearchPlayBot:
    """Determinized search (PIMC) with an exact solver in the play; ``samples`` is the strength
    knob. Before the play it decides by the fitted valuation (``search-play``; ``search``,
    ``deal_search.SearchBot``, searches those decisions too)."""

    def __init__(self, seed: int | str = 0, samples: int = DEFAULT_SAMPLES):
        self.seed = seed
        self.samples = max(1, int(samples))
        self.last_nodes = 0  # solver nodes of the last play decision (benchmark, tests)
        self.last_values: dict[str, float] = {}  # its mean net per card tried (benchmarks/search_quality.py)

    def decide(self, observation: Observation) -> Action:
        legal = observation["legal"]
        if not legal:
            raise ValueError("this seat has no decision to make")
        if observation["ruleset"] not in SOLVED:
            return self._family(observation, legal)
        phase = observation["phase"]
        kind = legal[0]["type"]
        if phase == "bidding":
            if len(legal) == 1:
                return dict(legal[0])
            return self._bid(observation, legal)
        if kind == "trump":
            return self._trump(observation)
        if kind == "discard":
            return {"type": "discard", "cards": self._discard(observation, legal[0])}
        if kind == "rob":
            return {"type": "rob", "keep": self._rob(observation, legal[0])}
        return self._play(observation, legal)

    def _family(self, obs: Observation, legal: list[dict[str, Any]]) -> Action:
        """The rest of the family: the solver or the engine-based search plays, the rule bot
        decides the rest."""
        if obs["phase"] == "play":
            if obs["ruleset"] in PLAY_SOLVED:
                return self._play(obs, legal)
            action = FamilySearch(self.samples * FAMILY_WORLDS).play(self.seed, obs, legal)
            if action is not None:
                return action
        return RuleBot(self.seed).decide(obs)

    # -------------------------------------------------------------- bidding and trump
    def _bid(self, obs: Observation, legal: list[dict[str, Any]]) -> Action:
        """Bid the least that takes the contract when declaring is worth more than passing."""
        margin, low = self._bid_margin(obs, legal)
        if margin > 0 or not any(a["type"] == "pass" for a in legal):
            return {"type": "bid", "amount": low}
        return {"type": "pass"}

    def _bid_margin(self, obs: Observation, legal: list[dict[str, Any]]) -> tuple[float, int]:
        """(the best suit's expected net at the least bid minus the value put on passing, the least bid)."""
        view = View(obs)
        amounts = sorted(a["amount"] for a in legal if a["type"] == "bid")
        low = amounts[0]
        best = max(self._suit_net(view, s, low)[0] for s in range(4))
        high = max((b["amount"] for b in obs["bids"] if b["type"] == "bid"), default=0)
        high_seat = next(
            (SEATS.index(b["seat"]) for b in obs["bids"] if b["type"] == "bid" and b["amount"] == high), None
        )
        if high_seat is None:
            pass_value = PASS_VALUE["open"]
        elif (high_seat & 1) == (view.me & 1):
            pass_value = PASS_VALUE["partner"]
        else:
            pass_value = PASS_VALUE["opponent"]
        return best - pass_value, low

    def _trump(self, obs: Observation) -> Action:
        view = View(obs)
        values = [(*self._suit_net(view, s, view.contract), -s) for s in range(4)]
        suit = -max(values)[2]
        return {"type": "trump", "suit": SUITS[suit]}

    def _suit_net(self, view: View, suit: int, bid: int | None) -> tuple[float, float]:
        """(the side's expected net declaring ``suit`` at ``bid``, the expected points): the
        valuation the bid and the trump decide by (``benchmarks/bid_fit.py`` tries refits in its place)."""
        points = suit_value(view, suit)
        return spread_net(view.rules, view.me & 1, points, SPREAD, bid), points

    # -------------------------------------------------------------- the draw
    def _discard(self, obs: Observation, choice: dict[str, Any]) -> list[str]:
        """Keep the best trumps (at most six), throw the rest; fit the choice object."""
        view = View(obs)
        tab = TRUMP_TABLES[view.trump_suit()]
        declaring = (view.declarer & 1) == (view.me & 1)
        src = _mask(choice["from"])
        must = _mask(choice.get("must_include"))
        low_n = choice["min"]
        high_n = choice.get("max", src.bit_count())
        ranked = _keep_order(cards_of(view.hand), tab, declaring, True)  # best first
        kept_trumps = [c for c in ranked if (tab.trump_mask >> c) & 1][:6]
        want = (view.hand & ~mask_of(kept_trumps) & src) | must
        worst_first = [c for c in reversed(ranked) if (src >> c) & 1]
        out = [c for c in worst_first if (want >> c) & 1]
        rest = [c for c in worst_first if not (want >> c) & 1]
        while len(out) < low_n and rest:
            out.append(rest.pop(0))
        if len(out) > high_n:
            forced = [c for c in out if (must >> c) & 1]
            others = [c for c in out if not (must >> c) & 1]
            out = forced + others[: high_n - len(forced)]
        return [CARD_NAMES[c] for c in out]

    def _rob(self, obs: Observation, choice: dict[str, Any]) -> list[str]:
        view = View(obs)
        tab = TRUMP_TABLES[view.trump_suit()]
        must = _mask(choice["must_keep"])
        pool = _mask(choice["from"])
        size = choice["size"]
        need = size - must.bit_count()
        if need <= 0:
            return [CARD_NAMES[c] for c in cards_of(must)]
        declaring = (view.declarer & 1) == (view.me & 1)
        rest = cards_of(pool & ~must)
        banking = not view.american and not view.rules.dealer_draws_blind and (pool & tab.trump_mask).bit_count() > size
        ranked = _keep_order(rest, tab, declaring, banking)
        keep = cards_of(must) + ranked[:need]
        return [CARD_NAMES[c] for c in keep]

    # -------------------------------------------------------------- play
    def _play(self, obs: Observation, legal: list[dict[str, Any]]) -> Action:
        self.last_nodes = 0
        self.last_values = {}
        view = View(obs)
        view.parse_play()
        lay = view.lay
        pts = lay.points
        me = view.me
        owed = legal[0].get("extras_count", 0)
        cards = [CARD_INDEX[a["card"]] for a in legal]
        legal_new = lay.remap(mask_of(cards))
        live = lay.remap(view.live_mine)
        cands: list[int] = []
        for c in sorted(cards, key=lambda c: lay.to_new[c]):
            n = lay.to_new[c]
            if not owed:
                x = live & lay.below[n]
                if x:
                    nl = x.bit_length() - 1
                    if (legal_new >> nl) & 1 and pts[nl] == pts[n]:
                        continue  # same as the next lower card: try only one of them
            cands.append(c)
        # cheap-first order, so that ties go to the card that costs least
        cands.sort(key=lambda c: (pts[lay.to_new[c]], (lay.to_new[c] >> 4) == view.trump, lay.to_new[c] & 15))
        extras = {c: self._extras(view, c, owed) for c in cands}
        if len(cands) == 1:
            return self._play_action(cands[0], extras[cands[0]])
        rng = decision_rng(self.seed, obs)
        trick = [(s, lay.to_new[c], lay.remap(x)) for s, c, x in view.current]
        low = view.tab.low_card
        low_in_trick = next((s for s, c, _x in view.current if c == low), None)
        scores = [0.0] * len(cands)
        budget = NODES_PER_SAMPLE * self.samples
        nodes = 0
        done = 0
        first_layout = None
        for _ in range(self.samples):
            if nodes >= budget:
                break
            hands = sample_play_world(view, rng)
            if hands is None:
                break
            rh = [lay.remap(h) for h in hands]
            first_layout = first_layout or rh
            solver = Solver(lay)
            solver.limit = budget - nodes
            stake = sum(pts[n] for n in cards_of((rh[0] | rh[1] | rh[2] | rh[3]) & lay.counting))
            stake += sum(pts[c] for _s, c, _x in trick)
            base = list(view.taken)
            base[view.declarer & 1] += view.discard_points
            if view.rules.low_to_holder:
                if low_in_trick is not None:
                    base[low_in_trick & 1] += 1
                else:
                    for s in range(4):
                        if (hands[s] >> low) & 1:
                            base[s & 1] += 1
            try:
                values = []
                guess = stake // 2
                for c in cands:
                    guess = solver.after(
                        rh, view.leader, trick, view.first, me, lay.to_new[c], lay.remap(extras[c]), guess
                    )
                    values.append(guess)
            except Exhausted:
                break  # the budget ran out inside this layout: it is dropped, the solved ones decide
            finally:
                nodes += solver.nodes
                self.last_nodes = nodes
            for j, v in enumerate(values):
                scores[j] += view.final_net(base[0] + v, base[1] + stake - v)
            done += 1
        self.last_values = {CARD_NAMES[c]: scores[j] / done for j, c in enumerate(cands)} if done else {}
        if done:
            best = cands[max(range(len(cands)), key=lambda j: scores[j])]
        elif first_layout is not None:
            # not even one layout solved within the cap: a greedy choice on the first one
            solver = Solver(lay)
            lead_blk, best_key, best_seat, tpts = solver.trick_state(trick)
            pick = solver.greedy(
                first_layout,
                me,
                view.leader,
                len(trick),
                lay.remap(mask_of(cands)),
                lead_blk,
                best_key,
                best_seat,
                tpts,
            )
            best = next(c for c in cands if lay.to_new[c] == pick)
        else:
            best = cands[0]
        return self._play_action(best, extras[best])

    def _extras(self, view: View, card: int, owed: int) -> int:
        if not owed:
            return 0
        lay = view.lay
        spare = lay.remap(view.hand & view.tab.noncounting_trumps & ~(1 << card))
        got = 0
        for _ in range(owed):
            low = spare & -spare
            got |= low
            spare ^= low
        return lay.unmap(got)

    @staticmethod
    def _play_action(card: int, extras: int) -> Action:
        action: dict[str, Any] = {"type": "play", "card": CARD_NAMES[card]}
        if extras:
            action["extras"] = [CARD_NAMES[c] for c in cards_of(extras)]
        return action
