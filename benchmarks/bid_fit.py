"""A refit of ``search-play``'s bidding valuation with more than the trumps held, and a
bid-or-pass model, on many generated hands; and the measurement of ``search`` with either.

    python benchmarks/bid_fit.py generate --ruleset american62 --seed SEED --deals 6000 \
        [--playout-every 20] [--playout-suits 2] [--playout-samples 4] --out points.jsonl
    python benchmarks/bid_fit.py fit points.jsonl [--label played] [--calibrate] [--residual]
        [--keep-level] [--drop FEATURE ...] [--out fit.json]
    python benchmarks/bid_fit.py decisions --ruleset american62 --seed SEED --deals 2000 --out decisions.jsonl
    python benchmarks/bid_fit.py fit-decisions decisions.jsonl [--window 8] [--out fit.json]
    python benchmarks/bid_fit.py compare --ruleset american62 [--fit fit.json] --deals-seed SEED [--boards 400]

``generate``: deals of a deal set made from ``--seed`` (``generate_board``; never the
published ``standard`` boards). On each deal the auction is walked with ``search-play``'s
own decisions; at every bidding turn of every seat (the dealer's forced bid included), for
each of the four suits, a copy of the engine's state (``Hand.clone``) has that seat bid the
least legal amount, the seats after it pass, the seat name the suit, and the draw decided
by ``search-play`` (american62: the dealer's pick; foster51: the discards and the rob). At
the first lead the hands are solved double dummy by the compiled solver and scored as
``deal_search.rob_points`` scores them: one record per branch, the declaring side's points
(``points``), with what the bidder saw when he bid (his nine cards, his place to the
dealer, the high bid before him and whose it was). With ``--playout-every K`` the branches
of every K-th deal (of the ``--playout-suits`` suits search-play's valuation ranks first)
are also played to the end by ``search-play`` (``--playout-samples`` layouts a decision)
at every seat, on the engine (``played``): the check of what the solver's figure does to
the fit, and the data of the fits on played hands.

``fit``: least squares (numpy) of ``points`` or ``played`` on ``FEATURES``, with held-out
errors, the residual sd by trumps held, the solved figure against the played one;
``--calibrate`` scales a fit on solved points to the played ones, ``--residual`` fits only
a correction to search-play's valuation, ``--keep-level`` shifts the fit's mean to
search-play's (whose pass values were set for its level).

``decisions``: at every bidding turn offering pass or the least bid, both, each followed to
the end of the hand by ``search-play`` at every seat; the seat's side's net of each.
``fit-decisions``: least squares of the net of bidding over passing on search-play's margin
for bidding and the seat's place and the auction (``GAIN_FEATURES``), and the held-out gain
of deciding by it.

``compare``: ``FittedSearch`` (``search`` with a fit's valuation or bid-or-pass model)
against ``search-play`` on one seed, on a deal set made from ``--deals-seed``, boards on
which they decide alike before the play scoring 0 unplayed (``bots.agree_before_play``).

Deterministic: the deals come from the seeds, the bots' decisions from their seed and the
observation; nothing reads the clock. docs/bots.md has the runs and what they measured.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from server.engine import DONE, PLAY, make_ruleset, new_hand, observation
from server.engine.boards import generate_board
from server.engine.cards import CARD_INDEX, SUITS, TRUMP_TABLES, mask_of
from workers.bots.deal_search import GAIN_FEATURES, SearchBot, auction_context, gain_features, rob_points
from workers.bots.search_bot import WEIGHTS as SEARCH_PLAY_WEIGHTS
from workers.bots.search_bot import SearchPlayBot, Solver, View, layout_for, spread_net, suit_value, trump_holding

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
"""The refit's inputs: search-play's (``search_bot.WEIGHTS``: the trumps held, the dealer)
and the place to the dealer (second to bid: the dealer's partner), each with the trumps
held, and the high bid before the seat's turn by an opponent or the partner."""


def features(hand: int, suit: int, position: int, high: int, holder: str) -> list[float]:
    """The valuation's inputs, in ``FEATURES`` order, for declaring ``suit`` with ``hand`` (a mask)."""
    trumps, n, top, jt, ped = trump_holding(hand, suit)
    p2, p3, p4 = position == 2, position == 3, position == 4
    opp, partner = holder == "opponent", holder == "partner"
    return [
        1.0,
        (trumps >> (suit * 13 + 12)) & 1,
        (trumps >> (suit * 13 + 11)) & 1,
        (trumps >> (suit * 13 + 10)) & 1,
        jt,
        ped,
        (trumps >> TRUMP_TABLES[suit].low_card) & 1,
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


class FittedSearch(SearchBot):
    """``search`` deciding the bid and the trump by a fit: ``weights`` (of ``FEATURES``) and
    ``spreads`` (sd by trumps held 0-9) in place of search-play's valuation, and/or ``gain``
    (of ``GAIN_FEATURES``): bid the least when the fitted net of bidding over passing is
    above zero. Only the observation is read."""

    def __init__(self, seed: int, fitted: dict):
        super().__init__(seed)
        self.weights = fitted.get("weights")
        self.spreads = fitted.get("spreads")
        self.gain = fitted.get("gain")

    def _gain_weights(self, obs):
        return self.gain if self.gain is not None else super()._gain_weights(obs)

    def _suit_net(self, view, suit, bid):
        if self.weights is None:
            return super()._suit_net(view, suit, bid)
        x = features(view.hand, suit, *auction_context(view.obs["bids"], view.me, view.dealer))
        mean = sum(self.weights[f] * v for f, v in zip(FEATURES, x, strict=True))
        sd = self.spreads[min(int(x[FEATURES.index("n")]), 9)]
        return spread_net(view.rules, view.me & 1, mean, sd, bid), mean


class SearchBefore(SearchBot):
    """``search`` as it was before the fitted bid-or-pass model: search-play's bid."""

    def _gain_weights(self, obs):
        return None


def branch(state, seat: int, suit: int, bot: SearchPlayBot):
    """A copy of ``state`` (``seat`` to bid) in which ``seat`` declares ``suit`` at the least
    bid, the others pass, and the draw is ``bot``'s: the state at the first lead."""
    s = state.clone()
    legal = s.legal_actions()
    amounts = [a["amount"] for a in legal if a["type"] == "bid"]
    s.apply({"type": "bid", "amount": min(amounts)})
    while s.phase == "bidding":
        legal = s.legal_actions()
        s.apply({"type": "pass"} if any(a["type"] == "pass" for a in legal) else legal[0])
    s.apply({"type": "trump", "suit": SUITS[suit]})
    while s.phase not in (PLAY, DONE):
        s.apply(bot.decide(observation(s, s.seats[s.to_act])))
    return s


def solved_points(s) -> tuple[int, int]:
    """(NS, EW) points of the hand from its first lead, both sides playing double dummy."""
    lay = layout_for(s.trump, s.rules.low_to_holder)
    tab = TRUMP_TABLES[s.trump]
    hands = list(s.hands)
    ns = Solver(lay).solve([lay.remap(h) for h in hands], s.declarer, [], True)
    return rob_points(lay, tab, hands, ns, s.declarer)


def played_points(s, bot: SearchPlayBot) -> tuple[int, int]:
    s = s.clone()
    while s.phase != DONE:
        s.apply(bot.decide(observation(s, s.seats[s.to_act])))
    return s.points()


def generate(args) -> None:
    rules = make_ruleset(args.ruleset)
    bot = SearchPlayBot(seed=1, samples=4)
    player = SearchPlayBot(seed=1, samples=args.playout_samples)
    out = open(args.out, "w") if args.out else sys.stdout
    for number in range(args.first, args.first + args.deals):
        board = generate_board(args.seed, number)
        state = new_hand(rules, board)
        while state.phase == "bidding":
            me = state.to_act
            obs = observation(state, state.seats[me])
            position, high, holder = auction_context(obs["bids"], me, state.dealer)
            view = View(obs)
            ranked = sorted(range(4), key=lambda s: -suit_value(view, s))[: args.playout_suits]
            for suit in range(4):
                s = branch(state, me, suit, bot)
                pts = solved_points(s)
                rec = {
                    "ruleset": rules.name,
                    "deal": number,
                    "hand": obs["hand"],
                    "suit": SUITS[suit],
                    "position": position,
                    "high": high,
                    "holder": holder,
                    "points": pts[me & 1],
                }
                if args.playout_every and number % args.playout_every == 0 and suit in ranked:
                    rec["played"] = played_points(s, player)[me & 1]
                out.write(json.dumps(rec) + "\n")
            state.apply(bot.decide(obs))
        out.flush()
        if number % 100 == 0:
            print(f"  {rules.name}: deal {number}", file=sys.stderr, flush=True)


def decisions(args) -> None:
    """At every bidding turn with a choice of bidding the least or passing: both, each
    followed to the end of the hand by ``search-play`` (``--playout-samples``) for every
    seat and decision, and the seat's side's net of each (its score change minus the
    other's), with what the seat saw and ``search-play``'s margin for bidding."""
    rules = make_ruleset(args.ruleset)
    bot = SearchPlayBot(seed=1, samples=args.playout_samples)
    out = open(args.out, "w") if args.out else sys.stdout
    for number in range(args.first, args.first + args.deals):
        state = new_hand(rules, generate_board(args.seed, number))
        while state.phase == "bidding":
            me = state.to_act
            obs = observation(state, state.seats[me])
            legal = obs["legal"]
            if any(a["type"] == "pass" for a in legal) and any(a["type"] == "bid" for a in legal):
                margin, low = bot._bid_margin(obs, legal)
                position, high, holder = auction_context(obs["bids"], me, state.dealer)
                nets = []
                for first in ({"type": "bid", "amount": low}, {"type": "pass"}):
                    s = state.clone()
                    s.apply(first)
                    while s.phase != DONE:
                        s.apply(bot.decide(observation(s, s.seats[s.to_act])))
                    d = s.delta()
                    nets.append(d[me & 1] - d[1 - (me & 1)])
                rec = {
                    "ruleset": rules.name,
                    "deal": number,
                    "hand": obs["hand"],
                    "position": position,
                    "high": high,
                    "holder": holder,
                    "low": low,
                    "margin": round(margin, 3),
                    "bid_net": nets[0],
                    "pass_net": nets[1],
                }
                out.write(json.dumps(rec) + "\n")
            state.apply(bot.decide(obs))
        out.flush()
        if number % 100 == 0:
            print(f"  {rules.name}: deal {number}", file=sys.stderr, flush=True)


def load(paths: list[str]) -> dict[str, list[dict]]:
    by_rules: dict[str, list[dict]] = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                by_rules.setdefault(rec["ruleset"], []).append(rec)
    return by_rules


def design(recs: list[dict], label: str = "points"):
    import numpy as np

    x = np.array(
        [
            features(
                mask_of(CARD_INDEX[c] for c in r["hand"]), SUITS.index(r["suit"]), r["position"], r["high"], r["holder"]
            )
            for r in recs
        ],
        dtype=float,
    )
    y = np.array([r[label] for r in recs], dtype=float)
    return x, y


def old_weights(name: str):
    """``search-play``'s valuation (``search_bot.WEIGHTS``) as weights of ``FEATURES``: its
    features are a subset of them."""
    import numpy as np

    return np.array([SEARCH_PLAY_WEIGHTS[name].get(f, 0.0) for f in FEATURES])


def fit(args) -> None:
    """Least squares of the declaring side's points on ``FEATURES`` (and on the old subset,
    for comparison), held-out error on half the deals of a fit on the other half, the residual
    sd by trumps held, and the double-dummy figure against the played one."""
    import numpy as np

    out = {}
    old = [
        FEATURES.index(f)
        for f in ("bias", "A", "K", "Q", "JT", "ped", "low", "n", "top2", "ped_top", "dealer", "dealer_n")
    ]
    for name, recs in load(args.data).items():
        recs = [r for r in recs if args.label in r]
        x, y = design(recs, args.label)
        deal = np.array([r["deal"] for r in recs])
        fold = np.random.default_rng(0).integers(0, 2, deal.max() + 1)  # half the deals fit, half test
        train, test = fold[deal] == 0, fold[deal] == 1
        print(f"{name}: {len(recs)} records, {len(set(deal.tolist()))} deals, mean points {y.mean():.2f}")
        kept = [i for i, f in enumerate(FEATURES) if f not in (args.drop or ())]
        w_old = old_weights(name)
        cur = x @ w_old
        print(
            f"  search-play's valuation: rmse {np.sqrt(((y - cur) ** 2).mean()):.3f}, mean error {np.mean(y - cur):+.3f}"
        )
        for label, cols in (("old features", old), ("these features", kept)):
            w, *_ = np.linalg.lstsq(x[train][:, cols], y[train], rcond=None)
            err = y[test] - x[test][:, cols] @ w
            print(f"  {label}: held-out rmse {np.sqrt((err**2).mean()):.3f}")
        w = np.zeros(len(FEATURES))
        if args.residual:
            # search-play's valuation plus a fitted correction on the kept features
            w[kept] = np.linalg.lstsq(x[:, kept], y - cur, rcond=None)[0]
            err = (y - cur)[test] - x[test][:, kept] @ np.linalg.lstsq(x[train][:, kept], (y - cur)[train], rcond=None)[
                0
            ]
            print(f"  search-play's plus a correction: held-out rmse {np.sqrt((err**2).mean()):.3f}")
            w += w_old
        else:
            w[kept] = np.linalg.lstsq(x[:, kept], y, rcond=None)[0]
        resid = y - x @ w
        n = x[:, FEATURES.index("n")].astype(int)
        sds = [float(resid[n == k].std()) if (n == k).sum() >= 30 else float(resid.std()) for k in range(10)]
        print(f"  residual sd {resid.std():.3f}; by trumps held 0..9: " + " ".join(f"{v:.2f}" for v in sds))
        print(f"  counts by trumps held: {[int((n == k).sum()) for k in range(10)]}")
        played = np.array([r.get("played", -1) for r in recs], dtype=float)
        has = played >= 0
        if has.any():
            pred = x[has] @ w
            slope, icept = np.polyfit(pred, played[has], 1)
            print(
                f"  played out ({int(has.sum())} branches): played - solved {np.mean(played[has] - y[has]):+.3f} "
                f"(sd {np.std(played[has] - y[has]):.2f}); played on the fit: slope {slope:.3f}, "
                f"intercept {icept:+.3f}; residual sd played {np.std(played[has] - pred):.2f}, "
                f"solved {np.std(y[has] - pred):.2f}"
            )
            if args.calibrate:
                # the solved points, scaled to the played ones: played = icept + slope * fit
                w = w * slope
                w[0] += icept
                resid_p = played[has] - x[has] @ w
                n_p = n[has]
                sds = [
                    float(resid_p[n_p == k].std()) if (n_p == k).sum() >= 30 else float(resid_p.std())
                    for k in range(10)
                ]
                print(f"  calibrated to the played points: residual sd {resid_p.std():.3f}")
        if args.keep_level:
            # the same mean over these records as search-play's valuation: its pass values are set for its level
            shift = float(np.mean(cur) - np.mean(x @ w))
            w[0] += shift
            print(f"  level kept at search-play's: bias {shift:+.3f}")
        print(f'    "{name}": dict(' + ", ".join(f"{f}={v:.3f}" for f, v in zip(FEATURES, w, strict=True)) + "),")
        print(f'    "{name}": [' + ", ".join(f"{v:.2f}" for v in sds) + "],")
        if args.constant_spread:
            sds = [args.constant_spread] * 10
        out[name] = {"weights": {f: round(float(v), 3) for f, v in zip(FEATURES, w, strict=True)}, "spreads": sds}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


def fit_decisions(args) -> None:
    """Least squares of the net of bidding over passing on ``GAIN_FEATURES``, on the records
    whose margin is within ``--window`` of zero (where the decision may turn)."""
    import numpy as np

    out = {}
    for name, recs in load(args.data).items():
        recs = [r for r in recs if abs(r["margin"]) <= args.window]
        x = np.array([gain_features(r["margin"], (r["position"], r["high"], r["holder"])) for r in recs], dtype=float)
        y = np.array([r["bid_net"] - r["pass_net"] for r in recs], dtype=float)
        deal = np.array([r["deal"] for r in recs])
        fold = np.random.default_rng(0).integers(0, 2, deal.max() + 1)[deal]
        held_out = 0.0
        for k in (0, 1):  # each half's choices by a fit on the other half
            wk, *_ = np.linalg.lstsq(x[fold != k], y[fold != k], rcond=None)
            t = fold == k
            held_out += float(np.sum(np.where(x[t] @ wk > 0, y[t], 0) - np.where(x[t, 1] > 0, y[t], 0)))
        w, *_ = np.linalg.lstsq(x, y, rcond=None)
        resid = y - x @ w
        cov = np.linalg.pinv(x.T @ x) * resid.var()
        print(
            f"{name}: {len(recs)} decisions with |margin| <= {args.window}; gain mean {y.mean():+.2f}, sd {y.std():.2f}"
        )
        for f, v, se in zip(GAIN_FEATURES, w, np.sqrt(np.diag(cov)), strict=True):
            print(f"  {f:8} {v:+.3f} (se {se:.3f})")
        now = x[:, 1] > 0
        new = x @ w > 0
        print(
            f"  search-play bids on {int(now.sum())}, the fit on {int(new.sum())}; they differ on {int((now != new).sum())}; "
            f"in-sample gain of the fit's choices over search-play's: {np.mean(np.where(new, y, 0) - np.where(now, y, 0)):+.3f} "
            f"a decision; held out (two halves): {held_out / len(recs):+.3f}"
        )
        out[name] = {"gain": {f: round(float(v), 3) for f, v in zip(GAIN_FEATURES, w, strict=True)}}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


def compare(args) -> None:
    """``FittedSearch`` with a ``fit`` or ``fit-decisions`` file (or ``search`` as it is)
    against ``search-play``, one seed, on a deal set made from ``--deals-seed``."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bots import deal_set, match

    rules = make_ruleset(args.ruleset)
    x = SearchBot(seed=1)
    if args.fit:
        with open(args.fit) as f:
            fitted = json.load(f)[rules.name]
        if "spreads" in fitted:
            fitted["spreads"] = [round(v, 2) for v in fitted["spreads"]]
        x = FittedSearch(1, fitted)
    deals = deal_set(4, 52, args.deals_seed, args.first + args.boards - 1)
    boards = [(n, deals.board(n)) for n in range(args.first, args.first + args.boards)]
    y = {"search": SearchBot, "search-before": SearchBefore, "search-play": SearchPlayBot}[args.against](seed=1)
    label = f"search ({args.fit or 'as committed'}) vs {args.against}, one seed, {args.deals_seed}"
    match(label, rules, boards, x, y, skip_agreeing=True)


def deal_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of the commands that make records: which deals, where the records go."""
    parser.add_argument("--ruleset", default="american62", choices=["american62", "foster51"])
    parser.add_argument("--seed", required=True, help="deal set seed (never the published standard set's)")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--out")
    parser.add_argument("--playout-samples", type=int, default=4, help="search-play's layouts a decision in play-outs")
    return parser


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = deal_arguments(sub.add_parser("generate", help="training records, one JSON line each"))
    gen.add_argument("--playout-every", type=int, default=0, help="also play out every K-th deal's branches")
    gen.add_argument(
        "--playout-suits", type=int, default=4, help="play out only the N suits search-play's valuation ranks first"
    )
    deal_arguments(sub.add_parser("decisions", help="bid-or-pass records, both followed to the end of the hand"))
    fitp = sub.add_parser("fit", help="least-squares fits of the records")
    fitp.add_argument("data", nargs="+")
    fitp.add_argument("--label", default="points", choices=["points", "played"], help="solved or played points")
    fitp.add_argument(
        "--calibrate", action="store_true", help="scale the solved fit to the played points (and their spread)"
    )
    fitp.add_argument(
        "--residual", action="store_true", help="fit a correction to search-play's valuation (on the kept features)"
    )
    fitp.add_argument("--keep-level", action="store_true", help="shift the fit's mean to search-play's valuation's")
    fitp.add_argument("--drop", action="append", help="leave this feature out (repeatable)")
    fitp.add_argument("--constant-spread", type=float, help="write this spread for every trump count")
    fitp.add_argument("--out", help="write the weights and spreads here (JSON), for compare")
    fdec = sub.add_parser("fit-decisions", help="least squares of the gain of bidding over passing")
    fdec.add_argument("data", nargs="+")
    fdec.add_argument("--window", type=float, default=8.0, help="only decisions with |search-play's margin| <= this")
    fdec.add_argument("--out", help="write the model here (JSON), for compare")
    cmp = sub.add_parser("compare", help="search with a fit against search-play, one seed")
    cmp.add_argument("--ruleset", default="american62", choices=["american62", "foster51"])
    cmp.add_argument("--fit", help="a fit or fit-decisions --out file (default: search as committed)")
    cmp.add_argument("--deals-seed", required=True)
    cmp.add_argument(
        "--against",
        default="search-play",
        choices=["search-play", "search", "search-before"],
        help="Y (search: as committed; search-before: without its fitted bid)",
    )
    cmp.add_argument("--first", type=int, default=1)
    cmp.add_argument("--boards", type=int, default=400)
    args = parser.parse_args()
    {"generate": generate, "decisions": decisions, "fit": fit, "fit-decisions": fit_decisions, "compare": compare}[
        args.command
    ](args)


if __name__ == "__main__":
    main()
