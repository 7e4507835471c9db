"""What the auction says about the hidden hands, for ``search``'s play: layouts are drawn
as ``search-play`` draws them and kept with the probability that their seats would have
bid as they did.

A bid or a pass was made on the nine cards dealt, before trump was named, so only the
trumps a layout gives a seat can be judged: the bot's own valuation (``holding_value``,
the fitted ``WEIGHTS``) of the seat's dealt trumps in the suit that became trump, against
the value at which the bot itself would have bid that amount (``mean_net`` equal to its
``pass_value``). The declarer's winning bid (unless forced: the dealer's 7 after three
passes) makes a strong holding likely, a pass makes it unlikely; a bid that was overcalled
says nothing of the trump suit. The others are not this bot, so the step is soft: the
probability of the bid is a normal curve of width ``SOFTNESS`` points around that value.

A layout says which cards a seat holds now and played; its dealt cards are those it kept
(a random choice of ``9 - discarded`` of them: which ones it drew is not known) and, in
foster51, the ones it discarded face up. In american62 every card kept is a trump. The
foster51 dealer (who robbed from the stock) and hands after a rebuilt stock are not judged.
At most ``TRIES`` layouts are drawn for one sample; if none is kept, the likeliest is used.
Everything read is the observation, and the only randomness the decision's generator.
"""

from __future__ import annotations

from random import Random
from statistics import NormalDist

from server.engine.cards import SEATS, cards_of, mask_of
from server.engine.rulesets import Ruleset
from workers.bots.search_bot import View, holding_value, mean_net, pass_value, sample_play_world

SOFTNESS = 1.5  # points of the valuation: how sharply a bid or pass is taken to reveal a holding
TRIES = 8  # layouts drawn at most for one sample of the play
_NORMAL = NormalDist()
_THRESHOLDS: dict[tuple[str, int, float], float] = {}


def bid_threshold(rules: Ruleset, amount: int, worth_of_passing: float) -> float:
    """The holding value at which bidding ``amount`` is worth ``worth_of_passing`` (bisection)."""
    key = (rules.name, amount, worth_of_passing)
    if key not in _THRESHOLDS:
        lo, hi = 0.0, 14.0
        for _ in range(30):
            mid = (lo + hi) / 2
            if mean_net(rules, mid, amount) < worth_of_passing:
                lo = mid
            else:
                hi = mid
        _THRESHOLDS[key] = (lo + hi) / 2
    return _THRESHOLDS[key]


def auction_clues(view: View) -> list[tuple[int, float, bool]]:
    """(seat, threshold, bid) for each other seat whose call speaks of the trump suit:
    the declarer's winning bid (``bid`` True) and every pass (False)."""
    if view.restocks and not view.american:
        return []
    clues = []
    high, high_seat = 0, None
    bids = view.obs["bids"]
    passes_before = 0
    for call in bids:
        seat = SEATS.index(call["seat"])
        low = max(high + 1, view.rules.min_bid)
        judged = seat != view.me and (view.american or seat != view.dealer)
        if call["type"] == "pass":
            if judged:
                clues.append((seat, bid_threshold(view.rules, low, pass_value(seat, high_seat)), False))
            passes_before += 1
        else:
            forced = seat == view.dealer and passes_before == len(bids) - 1
            if judged and seat == view.declarer and not forced:
                clues.append((seat, bid_threshold(view.rules, low, pass_value(seat, high_seat)), True))
            high, high_seat = call["amount"], seat
    return clues


def likelihood(view: View, hands: list[int], clues: list[tuple[int, float, bool]], rng: Random) -> float:
    """The probability, under the clues, that the seats holding ``hands`` called as they did."""
    p = 1.0
    trumps = view.tab.trump_mask
    for seat, threshold, bid in clues:
        held = hands[seat] | view.played_by[seat]
        kept = 9 - view.discarded[seat]
        if view.american:
            held &= trumps
        pool = cards_of(held)
        dealt = mask_of(rng.sample(pool, kept)) if 0 < kept < len(pool) else (held if kept > 0 else 0)
        dealt |= view.shown_by[seat]
        z = (holding_value(view.rules.name, dealt, view.trump_suit(), seat == view.dealer) - threshold) / SOFTNESS
        p *= _NORMAL.cdf(z if bid else -z)
    return p


def inferred_world(view: View, rng: Random) -> list[int] | None:
    """One layout for the play's search, kept by the auction's likelihood (module doc)."""
    clues = auction_clues(view)
    if not clues:
        return sample_play_world(view, rng)
    best, best_p = None, -1.0
    for _ in range(TRIES):
        hands = sample_play_world(view, rng)
        if hands is None:
            break
        p = likelihood(view, hands, clues, rng)
        if rng.random() < p:
            return hands
        if p > best_p:
            best, best_p = hands, p
    return best
