"""Random-hand properties of the auction pitch games (auction_pitch, pedro, snoozer), for
k = 4 ... 7.

test_auction_properties.py draws boards, options and a seed with hypothesis for each
ruleset and calls ``play_random_hand`` / ``play_random_game_hand`` here (the checks the
All Fours family shares are in allfours_checks.py). At every decision: the 52 cards are
where the deal puts them (hands, tricks, the rest out of play), refused actions change
nothing, no observation shows a card hidden from its seat. At the end: the replay of the
recorded actions is the live hand (wire layer), the auction went as 4.2 / 5.2 say, and the
trick winners, items, points and delta are those the rules give, re-derived here from card
strings (4.5-4.7, 5.3, 5.4; snoozer's joker, Three and 36 points, 6.2-6.4).
"""

from __future__ import annotations

from random import Random

from hypothesis import strategies as st

import support.allfours_checks as shared
from server.engine import ALL_NAMES, GAMES, make_ruleset, new_hand, replay, seats_for
from server.engine.games.pedro import deal_all_rounds
from support.allfours_checks import PIPS, RANKS, Family

KS = (4, 5, 6, 7)
PEDRO_CARDS = (("ten", "T", 1), ("five", "5", 5), ("nine", "9", 9))
SNOOZER_CARDS = (("ten", "T", 1), ("three", "3", 3), ("five", "5", 5), ("nine", "9", 9))
TARGETS = {"snoozer": st.sampled_from([50, 100])}  # 6.4; the others take any positive target


def options_for(name: str, k: int, data) -> dict:
    options = {"players": k}
    if name in ("pedro", "snoozer"):
        options["deal_all"] = data.draw(st.booleans())
    return options


def out_of_play(state) -> set[str]:
    """The undealt cards by the deal's positions (4.1; 5.1, 6.1 with deal_all)."""
    k = state.k
    end = 6 * k
    if getattr(state.rules, "deal_all", False):
        start, size = deal_all_rounds(k, len(state.board.deck))[-1]
        end = start + size * k
    return {ALL_NAMES[c] for c in state.board.deck[end:]}


def check_cards(state) -> None:
    shared.check_cards(state, out_of_play(state))


def check_views(state) -> None:
    """No seat sees another's hand or an undealt card; items name only played cards."""
    shared.check_views(state, out_of_play(state))


def refused(state, legal: list[dict], kinds: set[str]) -> list:
    """Bids out of range or not whole, a bid not above the highest (or once the auction is
    over), actions wanting a field, and a pitch of JK (6.2; elsewhere nobody holds it)."""
    bad = [
        {"type": "bid", "amount": state.rules.max_bid + 1},
        {"type": "bid", "amount": "1"},
        "stand",
        {"type": "play"},
        {"type": "trump", "suit": "H"},
    ]
    if "bid" in kinds or state.phase == "bidding":
        bad.append({"type": "bid", "amount": max(state.high_bid, state.rules.min_bid - 1)})
    else:
        bad.append({"type": "bid", "amount": state.rules.max_bid})
    if state.phase == "play" and state.trump is None:
        bad.append({"type": "play", "card": "JK"})  # never a pitch: not held, or names no suit
    return bad


def check_refusals(state, rng: Random) -> None:
    """Actions the rules refuse raise IllegalAction and leave the hand exactly as it was."""
    shared.check_refusals(state, rng, refused, ("stand", "beg", "give", "run", "pass", "sell", "pitch"))


def check_auction(state, out: dict) -> None:
    """The auction's course (4.2, 5.2): o_1 ... o_{k-1} first, the eldest never; bids rise;
    one round only in auction_pitch; in pedro nobody acts after his pass, the highest
    bidder is never asked, and the auction ends with every other bidder passed."""
    k, seats = state.k, list(state.seats)
    eldest = (seats.index(out["dealer"]) + 1) % k
    bids = [(seats.index(b["seat"]), b.get("amount", 0)) for b in state.public(None)["bids"]]
    assert [s for s, _ in bids[: k - 1]] == [(eldest + i) % k for i in range(1, k)]
    assert all(s != eldest for s, _ in bids)
    amounts = [a for _, a in bids if a]
    assert amounts == sorted(set(amounts)) and all(1 <= a <= state.rules.max_bid for a in amounts)
    if state.rules.name == "auction_pitch":
        assert len(bids) == k - 1
    passed, high, high_seat, bid_once = set(), 0, -1, set()
    for seat, amount in bids:
        assert seat not in passed and seat != high_seat
        if amount:
            high, high_seat = amount, seat
            bid_once.add(seat)
        else:
            passed.add(seat)
    if state.rules.raises:
        assert bid_once - passed <= {high_seat}
    contract = out["contract"]
    if high:
        assert contract["amount"] == high and contract["seat"] in (seats[high_seat], seats[eldest])
    else:
        assert contract is None and out["declarer"] == seats[eldest]


def expected_items(state, out: dict) -> tuple[list[tuple], dict[str, int]]:
    """The items in their order and the points won, re-derived from the hand's card strings."""
    trump, hands = out["trump"], out["hands_after_draw"]
    name = state.rules.name
    pedro = name in ("pedro", "snoozer")

    def suit(card: str) -> str:  # JK is a trump, the lowest (F4, 6.2)
        return trump if card == "JK" else card[1]

    def rank(card: str) -> int:
        return -1 if card == "JK" else RANKS.index(card[0])

    won: dict[str, list[str]] = {seat: [] for seat in state.seats}
    assert out["tricks"][0]["leader"] == out["declarer"] and out["tricks"][0]["plays"][0]["card"] != "JK"
    for trick in out["tricks"]:
        cards = [p["card"] for p in trick["plays"]]
        trumps = [c for c in cards if suit(c) == trump]
        best = max(trumps or [c for c in cards if suit(c) == suit(cards[0])], key=rank)
        winner = trick["plays"][cards.index(best)]["seat"]
        assert trick["winner"] == winner
        won[winner] += cards
    holder = {c: seat for seat, cards in hands.items() for c in cards}
    winner_of = {c: seat for seat, cards in won.items() for c in cards}
    owner = winner_of if pedro else holder
    in_play = sorted((c for c in holder if c != "JK" and c[1] == trump), key=rank)  # JK: neither (6.3)
    items = [("high", owner[in_play[-1]], 1, in_play[-1]), ("low", owner[in_play[0]], 1, in_play[0])]
    if "J" + trump in holder:
        items.append(("jack", winner_of["J" + trump], 1, "J" + trump))
    if pedro:
        counted = SNOOZER_CARDS if name == "snoozer" else PEDRO_CARDS
        items += [(item, winner_of[r + trump], value, r + trump) for item, r, value in counted if r + trump in holder]
        if "JK" in holder:
            items.append(("snoozer", winner_of["JK"], 15, "JK"))
    else:
        pips = {s: sum(PIPS.get(c[0], 0) for c in cards) for s, cards in won.items()}
        top = max(pips.values())
        if list(pips.values()).count(top) == 1:
            items.append(("game", next(s for s in pips if pips[s] == top), 1, None))
    points = {seat: sum(i[2] for i in items if i[1] == seat) for seat in state.seats}
    return items, points


def check_result(state, doc: dict | None) -> None:
    out = state.describe()
    if doc is not None:  # the fast layer keeps no action record
        assert replay(doc) == out
    check_auction(state, out)
    items, points = expected_items(state, out)
    assert out["points"] == points
    eldest = state.seats[(state.seats.index(out["dealer"]) + 1) % state.k]
    contract, pitcher = out["contract"], out["declarer"]
    want = []
    if contract and contract["seat"] != eldest:
        want.append(("sale", eldest, contract["amount"], None))
    failed = contract is not None and points[pitcher] < contract["amount"]
    if failed:
        want.append(("set-back", pitcher, -contract["amount"], None))
    want += [i for i in items if not (failed and i[1] == pitcher)]
    assert [(i["item"], i["side"], i["value"], i.get("card")) for i in out["items"]] == want
    sums = {seat: 0 for seat in state.seats}
    for item in out["items"]:
        sums[item["side"]] += item["value"]
    assert out["delta"] == sums
    sizes = {len(cards) for cards in out["hands_after_draw"].values()}
    assert sizes == {len(out["tricks"])}
    assert set(out["record"]["out_of_play"]) == out_of_play(state)


FAMILY = Family(options_for, check_cards, check_views, check_refusals, check_result)


def play_random_hand(name: str, k: int, data, seed: int, wire: bool) -> None:
    """A random board played by random legal actions (wire or fast layer), checked at
    every decision and at the end."""
    shared.play_random_hand(FAMILY, name, k, data, seed, wire)


def play_random_game_hand(name: str, k: int, data, seed: int) -> None:
    """A hand of a game at random scores: no sale puts the eldest out (4.3) and no item
    is applied once a player has reached the target (F9)."""
    options = {**options_for(name, k, data), "target": data.draw(TARGETS.get(name, st.integers(1, 20)))}
    rules = make_ruleset(name, options)
    board = data.draw(shared.boards(k, GAMES[name].deck))
    scores = tuple(data.draw(st.integers(-10, rules.target - 1)) for _ in range(k))
    state = new_hand(rules, board, scores)
    rng = Random(seed)
    while state.phase != "done":
        if state.phase == "sale" and {"type": "sell"} in state.legal_actions():
            assert scores[state.eldest] + state.high_bid < rules.target
        state.random_step(rng)
    totals = list(scores)
    for item in state.describe()["items"]:
        assert max(totals) < rules.target, "an item was applied after the target was reached"
        totals[state.seats.index(item["side"])] += item["value"]
    assert sum(t >= rules.target for t in totals) <= 1
    assert state.settle(scores)[0] == tuple(totals)


def play_random_game(name: str, k: int, seed: int) -> None:
    """A whole game of random hands (``Game``): the deal passes left every hand, and the
    game ends with exactly one player at or above the target, none before."""
    from server.engine import Game, generate_board

    rules = make_ruleset(name, {"players": k, "target": 50 if name == "snoozer" else 11})
    game = Game(rules, lambda n: generate_board(f"auction-game-{seed}", n, seats_for(k), GAMES[name].deck))
    rng = Random(seed)
    dealers = []
    while game.winner is None:
        assert max(game.scores) < rules.target
        hand = game.new_hand()
        dealers.append(hand.dealer)
        while hand.phase != "done":
            hand.random_step(rng)
        game.finish_hand(hand)
        assert game.hands_played < 500, "the game does not end"
    assert dealers == [i % k for i in range(len(dealers))]
    assert [s for s in game.sides if game.scores[game.sides.index(s)] >= rules.target] == [game.winner]
