"""The bidding valuation of ``search``: the declaring side's points from the bidder's trumps,
his place to the dealer and the auction before him, with a spread that depends on them.

``search-play`` values a suit by a least-squares fit on 3,200 hands of the trumps held
alone, with a normal spread of 4 points (``search_bot.WEIGHTS``). This is the refit
``benchmarks/bid_fit.py`` makes on many more hands (docs/bots.md says how many and how it
measured): at every bidding turn of every seat of its deals, each suit declared at the
least bid, the draw decided by ``search-play`` and the play solved double dummy. Its
features (``features``) add to the trumps held the bidder's place (first, second, third to
bid, the dealer: the second is the dealer's partner, and in american62 the dealer takes
every trump left in the stock, in foster51 he robs the pack) and the high bid before his
turn and whose it is; the spread is the fit's residual sd by the number of trumps held.

Only the observation is read: the seat's cards, the dealer, the public bids.
"""

from __future__ import annotations

from statistics import NormalDist

from server.engine.cards import SEATS, TRUMP_TABLES, cards_of
from server.engine.scoring import hand_delta
from workers.bots.base import Observation

FEATURES = (
    "bias",
    "A",
    "K",
    "Q",
    "JT",
    "ped",
    "low",
    "n",
    "top2",
    "ped_top",
    "pos2",
    "pos3",
    "dealer",
    "pos2_n",
    "pos3_n",
    "dealer_n",
    "opp",
    "opp_high",
    "partner",
    "partner_high",
)


def context(bids: list[dict], me: int, dealer: int) -> tuple[int, int, str]:
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


def features(hand: int, suit: int, position: int, high: int, holder: str) -> list[float]:
    """The valuation's inputs, in ``FEATURES`` order, for declaring ``suit`` with ``hand`` (a mask)."""
    tab = TRUMP_TABLES[suit]
    trumps = hand & tab.trump_mask
    n = trumps.bit_count()
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
    p2, p3, p4 = position == 2, position == 3, position == 4
    opp, partner = holder == "opponent", holder == "partner"
    return [
        1.0,
        (trumps >> (suit * 13 + 12)) & 1,
        (trumps >> (suit * 13 + 11)) & 1,
        (trumps >> (suit * 13 + 10)) & 1,
        jt,
        ped,
        (trumps >> tab.low_card) & 1,
        n,
        top * top,
        ped * top,
        p2,
        p3,
        p4,
        p2 * n,
        p3 * n,
        p4 * n,
        opp,
        opp * high,
        partner,
        partner * high,
    ]


# Fitted by ``benchmarks/bid_fit.py fit`` (docs/bots.md gives the command and the data).
WEIGHTS: dict[str, dict[str, float]] = {}
SPREADS: dict[str, list[float]] = {}  # residual sd by trumps held, 0..9


def suit_value(rules_name: str, hand: int, suit: int, ctx: tuple[int, int, str]) -> tuple[float, float]:
    """(expected points of the declaring side, their sd) if the seat names ``suit``."""
    w = WEIGHTS[rules_name]
    x = features(hand, suit, *ctx)
    mean = sum(w[name] * v for name, v in zip(FEATURES, x, strict=True))
    n = int(x[FEATURES.index("n")])
    return mean, SPREADS[rules_name][min(n, 9)]


_CACHE: dict[tuple[float, float], list[float]] = {}


def outcomes(mean: float, sd: float) -> list[float]:
    """Probabilities of the declaring side taking 0..14 points: a normal spread, clipped."""
    key = (round(mean, 2), round(sd, 2))
    probs = _CACHE.get(key)
    if probs is None:
        dist = NormalDist(*key)
        cdf = [dist.cdf(k + 0.5) for k in range(15)]
        probs = [cdf[0]] + [cdf[k] - cdf[k - 1] for k in range(1, 14)] + [1 - cdf[13]]
        _CACHE[key] = probs
    return probs


def expected_net(rules, me: int, mean: float, sd: float, bid: int | None) -> float:
    """The seat's side's expected net (its score change minus the other's) declaring at ``bid``."""
    side = me & 1
    total = 0.0
    for pts, p in enumerate(outcomes(mean, sd)):
        ours = [0, 0]
        ours[side], ours[1 - side] = pts, 14 - pts
        d = hand_delta(rules, side, bid, (ours[0], ours[1]))
        total += p * (d[side] - d[1 - side])
    return total


GAIN_FEATURES = ("bias", "margin", "pos2", "pos3", "dealer", "opp", "partner")


def gain_features(margin: float, ctx: tuple[int, int, str]) -> list[float]:
    """The bid-or-pass model's inputs, in ``GAIN_FEATURES`` order: ``search-play``'s margin
    for bidding (its valuation's best net at the least bid minus its value of passing), the
    place to the dealer, whose the high bid is."""
    position, _high, holder = ctx
    return [1.0, margin, position == 2, position == 3, position == 4, holder == "opponent", holder == "partner"]


# The side's net of bidding the least over passing, fitted by ``benchmarks/bid_fit.py fit-decisions``.
BID_GAIN: dict[str, dict[str, float]] = {}


def bid_gain(rules_name: str, margin: float, ctx: tuple[int, int, str]) -> float:
    w = BID_GAIN[rules_name]
    return sum(w[name] * v for name, v in zip(GAIN_FEATURES, gain_features(margin, ctx), strict=True))


def observation_context(obs: Observation) -> tuple[int, int, str]:
    return context(obs["bids"], SEATS.index(obs["seat"]), SEATS.index(obs["dealer"]))
