"""``search``: the play search of ``search_bot``, and foster51's rob searched the same way,
by sampling what the seat cannot see and solving what follows exactly.

``search-play`` (``search_bot.SearchPlayBot``) robs by a fixed keep order. Here the dealer
tries that keep and its neighbours (each of the ``ROB_SWAPS`` best cards it leaves for
each of the ``ROB_SWAPS`` weakest it keeps), each solved double dummy by the compiled
solver over sampled hands of the other three (six each of the cards nobody has shown: at
the rob every other hand is final) and scored through ``hand_delta`` with the counting
trumps left out of the hands, which the rules show and give the declaring side. Another
keep replaces search-play's only when it is better by more than ``MARGIN`` net a sample:
the mean of ten layouts is noisy, and a switch on noise costs.

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
from server.engine.cards import CARD_INDEX, CARD_NAMES, TRUMP_TABLES, cards_of, mask_of
from server.engine.scoring import hand_delta
from workers.bots import bid_value
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

DEAL_SAMPLES = 10  # layouts of the others' hands per rob at the default level
DEAL_NODES = 60_000  # solver nodes per layout on average, for the whole decision
ROB_SWAPS = 2  # the best cards left out x the weakest kept, each swap a candidate
MARGIN = 2.0  # search-play's keep stands unless another beats it by this much net a layout


def side_net(rules, declarer: int, contract: int | None, points: tuple[int, int], me: int) -> int:
    """The seat's side's score change minus the other side's, through the ruleset's scoring."""
    d = hand_delta(rules, declarer & 1, contract, points)
    return d[me & 1] - d[1 - (me & 1)]


class SearchBot(SearchPlayBot):
    """``search-play`` with foster51's rob searched."""

    def __init__(
        self, seed: int | str = 0, samples: int | None = None, deal_samples: int | None = None, strength: int = 1
    ):
        super().__init__(seed, samples or DEFAULT_SAMPLES * strength)
        self.deal_samples = max(1, int(deal_samples or DEAL_SAMPLES * strength))

    def decide(self, observation: Observation) -> Action:
        legal = observation["legal"]
        if observation["ruleset"] == "foster51" and observation["phase"] == ROB and not observation["restocks"]:
            choice = legal[0]
            if len(choice["from"]) > choice["size"]:
                return self._search_rob(observation, choice)
        return super().decide(observation)

    def _bid(self, obs: Observation, legal: list[dict[str, Any]]) -> Action:
        """Bid the least when the fitted gain of bidding over passing is above zero."""
        name = obs["ruleset"]
        if name not in bid_value.BID_GAIN or not any(a["type"] == "pass" for a in legal):
            return super()._bid(obs, legal)
        margin, low = self._bid_margin(obs, legal)
        if bid_value.bid_gain(name, margin, bid_value.observation_context(obs)) > 0:
            return {"type": "bid", "amount": low}
        return {"type": "pass"}

    def _suit_net(self, view: View, suit: int, bid: int | None) -> tuple[float, float]:
        """The refitted valuation (``bid_value``): the trumps held, the place to the dealer and
        the auction before the seat, with a spread by trumps held."""
        name = view.rules.name
        if name not in bid_value.WEIGHTS:
            return super()._suit_net(view, suit, bid)
        ctx = bid_value.observation_context(view.obs)
        mean, sd = bid_value.suit_value(name, view.hand, suit, ctx)
        return bid_value.expected_net(view.rules, view.me, mean, sd, bid), mean

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
