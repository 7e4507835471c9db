"""Training data for the bidding valuation of ``search-play`` (``search_bot.WEIGHTS``), and its fit.

    python benchmarks/bid_fit.py generate --ruleset american62 --seed bidfit-train --deals 2000 --out data.jsonl
    python benchmarks/bid_fit.py generate ... --playout-every 10   # also play some branches out (bias check)
    python benchmarks/bid_fit.py fit data.jsonl [more.jsonl ...]

``generate``: deals of a deal set made from ``--seed`` (``generate_board``, never the
published ``standard`` boards). On each deal the auction is walked with ``search-play``'s
own decisions; at every bidding turn of every seat (the dealer's forced bid included), for
each of the four suits, a branch of the engine's state (``Hand.clone``) has that seat bid
the least legal amount, the seats after it pass, the seat name the suit, and the draw
decided by ``search-play`` (american62: the dealer's pick; foster51: the discards and the
rob). At the first lead the hands are solved double dummy by the compiled solver and
scored as ``deal_search.rob_points`` scores them (Low to its holder in american62, the
counting trumps out of the hands to the declaring side in foster51): one record per branch,
the declaring side's points, with what the bidder could see when he bid (his nine cards,
his place to the dealer, the high bid before him and whose it was). With
``--playout-every K`` every K-th deal's branches are also played out to the end by
``search-play`` (``--playout-samples`` layouts a decision) for every seat, on the engine,
and the points it took are recorded beside the double-dummy figure: the check that the
solver's value does not bias the fit.

Deterministic: the deals come from the seed, the bots' decisions from their seed and the
observation; nothing reads the clock. ``fit`` prints the least-squares fits (numpy) of
the features ``search_bot.bid_features`` computes, per ruleset, and the residual spread.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from server.engine import DONE, PLAY, make_ruleset, new_hand, observation
from server.engine.boards import generate_board
from server.engine.cards import CARD_INDEX, SUITS, TRUMP_TABLES, mask_of
from workers.bots.bid_value import FEATURES, GAIN_FEATURES, context, features, gain_features
from workers.bots.deal_search import rob_points
from workers.bots.search_bot import WEIGHTS as SEARCH_PLAY_WEIGHTS
from workers.bots.search_bot import SearchPlayBot, Solver, View, layout_for, suit_value


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
            position, high, holder = context(obs["bids"], me, state.dealer)
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
                position, high, holder = context(obs["bids"], me, state.dealer)
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
    """``search`` with the valuation of a ``fit --out`` file against ``search-play``, one seed,
    on a deal set made from ``--deals-seed`` (boards on which they agree before the play tie)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bots import deal_set, match

    from workers.bots import bid_value
    from workers.bots.deal_search import SearchBot

    rules = make_ruleset(args.ruleset)
    if args.fit:
        with open(args.fit) as f:
            fitted = json.load(f)[rules.name]
        if "weights" in fitted:
            bid_value.WEIGHTS[rules.name] = fitted["weights"]
            bid_value.SPREADS[rules.name] = [round(v, 2) for v in fitted["spreads"]]
        if "gain" in fitted:
            bid_value.BID_GAIN[rules.name] = fitted["gain"]
    deals = deal_set(4, 52, args.deals_seed, args.first + args.boards - 1)
    boards = [(n, deals.board(n)) for n in range(args.first, args.first + args.boards)]
    label = f"search ({args.fit or 'as committed'}) vs search-play, one seed, {args.deals_seed}"
    match(label, rules, boards, SearchBot(seed=1), SearchPlayBot(seed=1), skip_agreeing=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="training records, one JSON line each")
    gen.add_argument("--ruleset", default="american62", choices=["american62", "foster51"])
    gen.add_argument("--seed", required=True, help="deal set seed (never the published standard set's)")
    gen.add_argument("--first", type=int, default=1)
    gen.add_argument("--deals", type=int, default=1000)
    gen.add_argument("--out")
    gen.add_argument("--playout-every", type=int, default=0, help="also play out every K-th deal's branches")
    gen.add_argument("--playout-samples", type=int, default=4)
    gen.add_argument(
        "--playout-suits", type=int, default=4, help="play out only the N suits search-play's valuation ranks first"
    )
    dec = sub.add_parser("decisions", help="bid-or-pass records, both followed to the end of the hand")
    dec.add_argument("--ruleset", default="american62", choices=["american62", "foster51"])
    dec.add_argument("--seed", required=True, help="deal set seed (never the published standard set's)")
    dec.add_argument("--first", type=int, default=1)
    dec.add_argument("--deals", type=int, default=1000)
    dec.add_argument("--out")
    dec.add_argument("--playout-samples", type=int, default=4)
    fitp = sub.add_parser("fit", help="least-squares fits of the records")
    fitp.add_argument("data", nargs="+")
    fitp.add_argument("--label", default="points", choices=["points", "played"], help="solved or played points")
    fitp.add_argument(
        "--calibrate", action="store_true", help="scale the solved fit to the played points (and their spread)"
    )
    fitp.add_argument(
        "--residual", action="store_true", help="fit a correction to search-play's valuation (on the kept features)"
    )
    fitp.add_argument("--drop", action="append", help="leave this feature out (repeatable)")
    fitp.add_argument("--constant-spread", type=float, help="write this spread for every trump count")
    fitp.add_argument("--out", help="write the weights and spreads here (JSON), for compare")
    fdec = sub.add_parser("fit-decisions", help="least squares of the gain of bidding over passing")
    fdec.add_argument("data", nargs="+")
    fdec.add_argument("--window", type=float, default=8.0, help="only decisions with |search-play's margin| <= this")
    fdec.add_argument("--out", help="write the model here (JSON), for compare")
    cmp = sub.add_parser("compare", help="search with a fit against search-play, one seed")
    cmp.add_argument("--ruleset", default="american62", choices=["american62", "foster51"])
    cmp.add_argument("--fit", help="a fit --out file (default: bid_value's committed weights)")
    cmp.add_argument("--deals-seed", required=True)
    cmp.add_argument("--first", type=int, default=1)
    cmp.add_argument("--boards", type=int, default=400)
    args = parser.parse_args()
    {"generate": generate, "decisions": decisions, "fit": fit, "fit-decisions": fit_decisions, "compare": compare}[
        args.command
    ](args)


if __name__ == "__main__":
    main()
