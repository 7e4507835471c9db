"""``search``: the play search of ``search_bot``, and the trump suit and foster51's rob
searched the same way: by sampling what the seat cannot see and solving what follows.

``search-play`` (``search_bot.SearchPlayBot``) searches only the cards; it names trump by a
fitted valuation of its nine cards and robs by a fixed keep order. Here, in american62 and
foster51:

* trump: a *deal* is a guess of the whole board, the seat's own nine cards where the deal
  put them and every other card shuffled into the other hands and the stock; the auction
  is evidence about the other hands, so a deal in which the model of the others (the rule
  bot, ``MODEL``) would not have passed or bid as they did is drawn again (``TRIES``
  times, then the last one is kept). Each of the ``SUITS_TRIED`` best suits by the fitted
  valuation is named in every deal and played forward on the engine's own state (the
  model discards for the others, this seat draws as ``search-play``), so the draw and its
  restocks are exactly the rules'; the start of the play is solved double dummy by the
  compiled solver and scored through ``hand_delta`` (a set bidder loses his bid);
* foster51's rob: ``search-play``'s six cards and its neighbours (``ROB_SWAPS``), each
  solved over sampled hands of the other three (six each of the cards nobody has shown),
  the counting trumps left out scored for the declaring side as the rules show them;
* the candidate with the best mean net for the seat's side over the samples is chosen.

The bid stays ``search-play``'s: the same deal search for the auction (pass, or one of
the three least bids, each followed by the model's rest of the auction) was measured worse
(docs/bots.md): double-dummy values of a whole deal are noisy (about 4 points either way
per deal) and ten deals cannot beat a valuation fitted on 3,200 hands; it overbid.

Budgets are counts: ``deal_samples`` deals or layouts (``DEAL_SAMPLES`` at the default
level, ten times as many for ``search:strong``) and at most ``DEAL_NODES`` solver nodes a
sample on average for the whole decision, so a decision is the same on any machine. Only
``decision_rng`` draws the samples, and only the observation is read, so two observations
that differ only in cards this seat cannot see decide alike.
"""

from __future__ import annotations

from random import Random
from typing import Any

from server.engine import PLAY, ROB, TRUMP, Board, HandState, make_ruleset, observation
from server.engine.cards import CARD_INDEX, CARD_NAMES, SEATS, SUITS, TRUMP_TABLES, cards_of, mask_of
from server.engine.scoring import hand_delta

from .base import Action, Observation, decision_rng
from .rule_bot import RuleBot
from .search_bot import (
    DEFAULT_SAMPLES,
    SOLVED,
    Exhausted,
    SearchPlayBot,
    Solver,
    View,
    _keep_order,
    layout_for,
    suit_value,
)

DEAL_SAMPLES = 10  # deals (trump) or layouts (rob) per decision at the default level
DEAL_NODES = 60_000  # solver nodes per deal on average, for the whole decision
TRIES = 30  # draws of a deal until one fits the auction so far
SUITS_TRIED = 3  # trump suits searched: the best by the fitted valuation (the rest are never close)
ROB_SWAPS = 2  # foster51's rob: the best cards left out x the weakest kept, each swap a candidate
MODEL = RuleBot("model")  # how the other seats are expected to decide


def dealt_slots(dealer: int, seat: int) -> list[int]:
    """Where in the deck ``seat``'s nine cards are dealt (RULES.md 2: three rounds of three)."""
    i = (seat - dealer - 1) % 4
    return [rnd * 12 + i * 3 + k for rnd in range(3) for k in range(3)]


def _bid_kind(action: dict[str, Any]) -> bool:
    return action["type"] == "bid"


class DealSampler:
    """Boards that fit one observation before the draw: the seat's nine cards, the auction."""

    def __init__(self, obs: Observation, rng: Random):
        self.obs = obs
        self.rng = rng
        self.rules = make_ruleset(obs["ruleset"], obs.get("options") or None)
        self.me = SEATS.index(obs["seat"])
        self.dealer = SEATS.index(obs["dealer"])
        self.mine = [CARD_INDEX[c] for c in obs["hand"]]
        self.slots = dealt_slots(self.dealer, self.me)
        taken = set(self.mine)
        self.pool = [c for c in range(52) if c not in taken]
        self.history = [(SEATS.index(b["seat"]), b.get("amount", 0)) for b in obs["bids"]]

    def deal(self) -> HandState | None:
        """The state after the auction so far of a sampled board that fits it, or None."""
        state = None
        for _ in range(TRIES):
            state = self._draw()
            if state is not None:
                return state
        return self._replay(self._board(), check=False)

    def _board(self) -> Board:
        rng = self.rng
        pool = self.pool[:]
        rng.shuffle(pool)
        deck: list[int] = [-1] * 52
        for slot, card in zip(self.slots, self.mine, strict=True):
            deck[slot] = card
        it = iter(pool)
        for i in range(52):
            if deck[i] < 0:
                deck[i] = next(it)
        return Board(SEATS[self.dealer], tuple(deck), f"{rng.getrandbits(64):016x}")

    def _draw(self) -> HandState | None:
        return self._replay(self._board(), check=True)

    def _replay(self, board: Board, check: bool) -> HandState | None:
        state = HandState(self.rules, board)
        for seat, amount in self.history:
            if check and seat != self.me:
                said = MODEL.decide(observation(state, SEATS[seat]))
                if _bid_kind(said) != bool(amount):
                    return None
            state.do_bid(amount)
        return state


def play_forward(state: HandState, me: int, my_trump: int, bot: SearchPlayBot) -> HandState:
    """The state at the start of the play: this seat names ``my_trump`` and draws as
    ``search-play`` does, the model decides for the others."""
    while state.phase != PLAY:
        seat = state.to_act
        if seat != me:
            state.apply(MODEL.decide(observation(state, SEATS[seat])))
        elif state.phase == TRUMP:
            state.do_trump(my_trump)
        else:
            state.apply(bot.draw_decision(observation(state, SEATS[seat])))
    return state


def solved_points(state: HandState, limit: int) -> tuple[tuple[int, int], int]:
    """((NS, EW) points of the hand, solver nodes) from the start of the play, both sides
    playing double dummy; raises ``Exhausted`` past ``limit`` nodes."""
    rules = state.rules
    lay = layout_for(state.trump, rules.low_to_holder)
    solver = Solver(lay)
    solver.limit = limit
    hands = [lay.remap(h) for h in state.hands]
    try:
        ns = solver.solve(hands, state.declarer, [], True)
    finally:
        nodes = solver.nodes
    stake = sum(lay.points[n] for n in cards_of((hands[0] | hands[1] | hands[2] | hands[3]) & lay.counting))
    points = [ns, stake - ns]
    if rules.low_to_holder:
        low = state.tables.low_card
        for s in range(4):
            if (state.hands[s] >> low) & 1:
                points[s & 1] += 1
    points[state.declarer & 1] += state.discard_points()
    return (points[0], points[1]), nodes


def contract_of(state: HandState) -> int | None:
    return state.contract[1] if state.contract else None


def side_net(rules, declarer: int, contract: int | None, points: tuple[int, int], me: int) -> int:
    """The seat's side's score change minus the other side's, through the ruleset's scoring."""
    d = hand_delta(rules, declarer & 1, contract, points)
    return d[me & 1] - d[1 - (me & 1)]


class SearchBot(SearchPlayBot):
    """``search-play`` with the trump suit (american62, foster51) and foster51's rob searched."""

    def __init__(
        self, seed: int | str = 0, samples: int | None = None, deal_samples: int | None = None, strength: int = 1
    ):
        super().__init__(seed, samples or DEFAULT_SAMPLES * strength)
        self.deal_samples = max(1, int(deal_samples or DEAL_SAMPLES * strength))

    def decide(self, observation: Observation) -> Action:
        legal = observation["legal"]
        if observation["ruleset"] in SOLVED and len(legal) > 1:
            if observation["phase"] == TRUMP:
                return self._search_trump(observation)
        if observation["ruleset"] == "foster51" and observation["phase"] == ROB and not observation["restocks"]:
            choice = legal[0]
            if len(choice["from"]) > choice["size"]:
                return self._search_rob(observation, choice)
        return super().decide(observation)

    def draw_decision(self, obs: Observation) -> Action:
        """This seat's discard or rob in a searched deal: ``search-play``'s choice."""
        return SearchPlayBot.decide(self, obs)

    # -------------------------------------------------------------- shared
    def _suits(self, obs: Observation) -> list[int]:
        view = View(obs)
        return sorted(range(4), key=lambda s: (-suit_value(view, s), s))[:SUITS_TRIED]

    def _deals(self, obs: Observation) -> tuple[DealSampler, list[HandState]]:
        sampler = DealSampler(obs, decision_rng(self.seed, obs))
        deals = []
        for _ in range(self.deal_samples):
            state = sampler.deal()
            if state is not None:
                deals.append(state)
        return sampler, deals

    # -------------------------------------------------------------- trump
    def _search_trump(self, obs: Observation) -> Action:
        me = SEATS.index(obs["seat"])
        suits = self._suits(obs)
        _sampler, deals = self._deals(obs)
        totals = {s: 0.0 for s in suits}
        budget = DEAL_NODES * self.deal_samples
        used = 0
        solved = 0
        for deal in deals:
            values = {}
            try:
                for s in suits:
                    start = play_forward(deal.clone(), me, s, self)
                    points, nodes = solved_points(start, budget - used)
                    used += nodes
                    values[s] = side_net(start.rules, me, contract_of(start), points, me)
            except Exhausted:
                used = budget  # the solver stopped at the limit it was given
                break
            for s in suits:
                totals[s] += values[s]
            solved += 1
        self.last_nodes = used
        if not solved:
            return super().decide(obs)
        best = max(suits, key=lambda s: (totals[s], -suits.index(s)))
        return {"type": "trump", "suit": SUITS[best]}

    # -------------------------------------------------------------- foster51's rob
    def _search_rob(self, obs: Observation, choice: dict[str, Any]) -> Action:
        """The dealer's six cards out of his nine and the stock: ``search-play``'s keep and
        its neighbours (each of the best cards it leaves for each of the weakest it
        keeps), solved double dummy over sampled hands of the others (everything is drawn:
        they hold six each of the cards nobody has shown). Every counting trump left out
        of the hands is shown and scores for the declaring side, so the keep is scored
        with them."""
        view = View(obs)
        tab = TRUMP_TABLES[view.trump]
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
        lay = layout_for(view.trump, view.rules.low_to_holder)
        totals = [0.0] * len(cands)
        budget = DEAL_NODES * self.deal_samples
        used = 0
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
        self.last_nodes = used
        best = max(range(len(cands)), key=lambda j: (totals[j], -j))  # nothing solved: search-play's keep
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
