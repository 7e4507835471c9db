"""``search``: the play search of ``search_bot``, foster51's rob searched the same way, by
sampling what the seat cannot see and solving what follows exactly, foster51's bid by
a fitted bid-or-pass model, and the family's auction games' calls by play-outs on sampled
deals (``family_bid``).

``search-play`` (``search_bot.SearchPlayBot``) robs by a fixed keep order. Here the dealer
tries that keep and its neighbours (each of the ``ROB_SWAPS`` best cards it leaves for
each of the ``ROB_SWAPS`` weakest it keeps), each solved double dummy by the compiled
solver over sampled hands of the other three (six each of the cards nobody has shown: at
the rob every other hand is final) and scored through ``hand_delta`` with the counting
trumps left out of the hands, which the rules show and give the declaring side. Another
keep replaces search-play's only when it is better by more than ``MARGIN`` net a sample:
the mean of ten layouts is noisy, and a switch on noise costs.

foster51's bid (``BID_GAIN``): bid the least when a least-squares fit of the net of bidding
over passing is above zero. Its inputs are ``search-play``'s margin for bidding (its
valuation's best net at the least bid minus its value of passing), the seat's place to the
dealer and whose the high bid is (``auction_context``, from the public bids); it was fitted
on foster51 bidding turns at which both choices were followed to the end of the hand by
``search-play`` (``benchmarks/bid_fit.py``). Its main change: the dealer's partner
overcalls the opening bid only with a margin above about 5.7 (search-play: above 0; the
dealer, who robs the pack, may still bid), the third seat and the dealer overcall an
opponent with margins down to about -3.6 and -8.5.

The other decisions before the play are ``search-play``'s. A search of the bid and of the
trump suit over whole sampled deals (each candidate played forward on the engine, the
start of the play solved) was built and measured even or worse against the fitted
valuation (docs/bots.md; the code is in this module's history, commit 07f7557): a whole
deal's double-dummy value varies by about 4 points, so ten deals say less than a
valuation fitted on 3,200 hands.

Budgets are counts: ``deal_samples`` layouts (``DEAL_SAMPLES`` at the default level, ten
times as many for ``search:strong``) and at most ``DEAL_NODES`` solver nodes a layout on
average for the whole decision, so a decision is the same on any machine. Only
``decision_rng`` draws the layouts, and only the observation is read, so two observations
that differ only in cards this seat cannot see decide alike.
"""

from __future__ import annotations

from typing import Any

from server.engine import ROB
from server.engine.cards import CARD_INDEX, CARD_NAMES, SEATS, TRUMP_TABLES, cards_of, mask_of
from server.engine.scoring import hand_delta
from workers.bots import family_bid
from workers.bots.base import Action, Observation, decision_rng
from workers.bots.search_bot import (
    DEFAULT_SAMPLES,
    Exhausted,
    SearchPlayBot,
    Solver,
    View,
    _keep_order,
    layout_for,
)

BID_GAIN = {
    "foster51": dict(bias=-0.045, margin=0.202, pos2=-4.485, pos3=-2.595, dealer=-1.615, opp=3.376, partner=1.788),
}
"""The side's net of bidding the least over passing, by ``GAIN_FEATURES``: least squares on
3,543 foster51 bidding turns (``benchmarks/bid_fit.py fit-decisions --window 4``, deal set
``bidfit-dec``) where both were followed to the end of the hand by ``search-play``; only
for the rules' defaults. american62's fit measured even (docs/bots.md), so it has none."""
GAIN_FEATURES = ("bias", "margin", "pos2", "pos3", "dealer", "opp", "partner")

DEAL_SAMPLES = 10  # layouts of the others' hands per rob at the default level
DEAL_NODES = 60_000  # solver nodes per layout on average, for the whole decision
ROB_SWAPS = 2  # the best cards left out x the weakest kept, each swap a candidate
MARGIN = 2.0  # search-play's keep stands unless another beats it by this much net a layout


def side_net(rules, declarer: int, contract: int | None, points: tuple[int, int], me: int) -> int:
    """The seat's side's score change minus the other side's, through the ruleset's scoring."""
    d = hand_delta(rules, declarer & 1, contract, points)
    return d[me & 1] - d[1 - (me & 1)]


def auction_context(bids: list[dict], me: int, dealer: int) -> tuple[int, int, str]:
    """(place to the dealer 1-4, the highest bid of another seat, whose: "none", "partner",
    "opponent"). In these one-round auctions every other seat's bid came before the seat's
    last turn or was a pass, so the same figures serve the bid and the trump decision."""
    high, holder = 0, "none"
    for b in bids:
        seat = SEATS.index(b["seat"])
        if b["type"] == "bid" and seat != me and b["amount"] > high:
            high = b["amount"]
            holder = "partner" if (seat & 1) == (me & 1) else "opponent"
    return (me - dealer - 1) % 4 + 1, high, holder


def gain_features(margin: float, ctx: tuple[int, int, str]) -> list[float]:
    """The bid-or-pass model's inputs, in ``GAIN_FEATURES`` order: search-play's margin for
    bidding (its best suit's expected net at the least bid minus its value of passing), the
    place to the dealer (2: the dealer's partner, 4: the dealer), whose the high bid is."""
    position, _high, holder = ctx
    return [1.0, margin, position == 2, position == 3, position == 4, holder == "opponent", holder == "partner"]


class SearchBot(SearchPlayBot):
    """``search-play`` with foster51's rob searched, its bid by the fitted bid-or-pass model, and
    the family's auction calls searched (``family_bid``)."""

    def __init__(
        self, seed: int | str = 0, samples: int | None = None, deal_samples: int | None = None, strength: int = 1
    ):
        super().__init__(seed, samples or DEFAULT_SAMPLES * strength)
        self.deal_samples = max(1, int(deal_samples or DEAL_SAMPLES * strength))
        self.strength = strength

    def decide(self, observation: Observation) -> Action:
        legal = observation["legal"]
        deals = family_bid.deals_for(observation)
        if deals:
            return family_bid.search_call(self.seed, observation, deals * self.strength)
        if observation["ruleset"] == "foster51" and observation["phase"] == ROB and not observation["restocks"]:
            choice = legal[0]
            if len(choice["from"]) > choice["size"]:
                return self._search_rob(observation, choice)
        return super().decide(observation)

    # -------------------------------------------------------------- the bid
    def _bid(self, obs: Observation, legal: list[dict[str, Any]]) -> Action:
        """search-play's bid, except where a bid-or-pass fit exists (``BID_GAIN``): bid the
        least when its net of bidding over passing is above zero."""
        weights = self._gain_weights(obs)
        if weights is None or not any(a["type"] == "pass" for a in legal):
            return super()._bid(obs, legal)
        margin, low = self._bid_margin(obs, legal)
        ctx = auction_context(obs["bids"], SEATS.index(obs["seat"]), SEATS.index(obs["dealer"]))
        if sum(weights[f] * v for f, v in zip(GAIN_FEATURES, gain_features(margin, ctx), strict=True)) > 0:
            return {"type": "bid", "amount": low}
        return {"type": "pass"}

    def _gain_weights(self, obs: Observation) -> dict[str, float] | None:
        return None if obs.get("options") else BID_GAIN.get(obs["ruleset"])

    # -------------------------------------------------------------- foster51's rob
    def _search_rob(self, obs: Observation, choice: dict[str, Any]) -> Action:
        """The dealer's six of his nine and the stock (the module says how and why)."""
        view = View(obs)
        tab = TRUMP_TABLES[view.trump_suit()]
        me, declarer = view.me, view.declarer
        base = [CARD_INDEX[c] for c in SearchPlayBot.decide(self, obs)["keep"]]
        pool = [CARD_INDEX[c] for c in choice["from"]]
        must = {CARD_INDEX[c] for c in choice["must_keep"]}
        ranked = _keep_order(pool, tab, (declarer & 1) == (me & 1), True)
        left = [c for c in ranked if c not in base][:ROB_SWAPS]
        weakest = [c for c in reversed(ranked) if c in base and c not in must][:ROB_SWAPS]
        cands = [mask_of(base)] + [mask_of(base) & ~(1 << k) | (1 << e) for e in left for k in weakest]
        seen = mask_of(pool)
        for d in obs["draws"]:
            seen |= mask_of(CARD_INDEX[c] for c in d["shown"])
        unseen = [c for c in range(52) if not (seen >> c) & 1]
        others = [s for s in range(4) if s != me]
        rng = decision_rng(self.seed, obs)
        lay = layout_for(view.trump_suit(), view.rules.low_to_holder)
        totals = [0.0] * len(cands)
        budget = DEAL_NODES * self.deal_samples
        used = solved = 0
        for _ in range(self.deal_samples):
            rng.shuffle(unseen)
            hands = [0, 0, 0, 0]
            at = 0
            for s in others:
                hands[s] = mask_of(unseen[at : at + view.sizes[s]])
                at += view.sizes[s]
            values = []
            try:
                for keep in cands:
                    hands[me] = keep
                    solver = Solver(lay)
                    solver.limit = budget - used
                    remapped = [lay.remap(h) for h in hands]
                    try:
                        ns = solver.solve(remapped, declarer, [], True)
                    finally:
                        used += solver.nodes
                    values.append(
                        side_net(view.rules, declarer, view.contract, rob_points(lay, tab, hands, ns, declarer), me)
                    )
            except Exhausted:
                break
            for j, v in enumerate(values):
                totals[j] += v
            solved += 1
        self.last_nodes = used
        best = max(range(len(cands)), key=lambda j: (totals[j], -j))  # nothing solved: search-play's keep
        if totals[best] - totals[0] <= MARGIN * solved:
            best = 0
        return {"type": "rob", "keep": [CARD_NAMES[c] for c in cards_of(cands[best])]}


def rob_points(lay, tab, hands: list[int], ns: int, declarer: int) -> tuple[int, int]:
    """(NS, EW) points of a foster51 hand after the rob: ``ns`` of the cards in play to NS
    (the solver's), Low to its holder when it goes so, every counting trump out of the hands
    (discarded or left in the stock: shown) to the declaring side."""
    held = hands[0] | hands[1] | hands[2] | hands[3]
    stake = sum(lay.points[n] for n in cards_of(lay.remap(held) & lay.counting))
    points = [ns, stake - ns]
    low = tab.low_card
    if lay.points[lay.low_new] == 0 and (held >> low) & 1:
        holder = next(s for s in range(4) if (hands[s] >> low) & 1)
        points[holder & 1] += 1
    points[declarer & 1] += sum(tab.points[c] for c in cards_of(tab.counting_mask & ~held))
    return points[0], points[1]
