"""The rule bot: always legal through the wire layer, deterministic, and clearly better than random.

The legality and strength tests play whole hands through ``HandState.apply`` (which
raises ``IllegalAction`` on anything the rules refuse), the way a tournament worker
does. The behaviour tests feed hand-made observations that carry only the fields the
bot reads, to pin down the rules of thumb one at a time.
"""

from __future__ import annotations

import math
import statistics
import time

import pytest
from support.botplay import play_hand

from server.engine import generate_board, make_ruleset
from workers.bots.random_bot import RandomBot
from workers.bots.rule_bot import RuleBot

CONFIGS = [
    ("american62", None),
    ("foster51", None),
    ("foster51", {"trump_discard_over_six_only": True}),
    ("foster51", {"dealer_draws_blind": True}),
]


# ---------------------------------------------------------------------- legality
@pytest.mark.parametrize("ruleset,options", CONFIGS)
def test_every_action_is_accepted(ruleset, options):
    rules = make_ruleset(ruleset, options)
    for n in range(1, 201):
        board = generate_board("rule-test", n)
        rule = RuleBot(n)
        play_hand(rules, board, {s: rule for s in "NESW"})
        rnd = RandomBot(n)
        if n % 2:
            mixed = {"N": rule, "S": rule, "E": rnd, "W": rnd}
        else:
            mixed = {"N": rnd, "S": rnd, "E": rule, "W": rule}
        play_hand(rules, board, mixed)


def test_legal_with_every_foster_option_at_once():
    rules = make_ruleset(
        "foster51",
        {
            "trump_discard_over_six_only": True,
            "dealer_draws_blind": True,
            "first_lead_trump": True,
            "low_to_holder": True,
            "min_bid": 6,
            "scoring": "set_back",
        },
    )
    for n in range(1, 101):
        play_hand(rules, generate_board("rule-test-all", n), {s: RuleBot(s) for s in "NESW"})


# ---------------------------------------------------------------------- determinism
def test_same_observation_same_decision():
    rules = make_ruleset("foster51")
    for n in range(1, 21):
        record: list = []
        play_hand(rules, generate_board("rule-det", n), {s: RuleBot(7) for s in "NESW"}, record)
        other = RuleBot(7)
        bot = RuleBot(7)
        for obs, action in record:
            assert bot.decide(obs) == action
            assert bot.decide(obs) == action
            assert other.decide(obs) == action


def _trump_choice_obs(hand: list[str]) -> dict:
    return {
        "ruleset": "american62",
        "options": {},
        "seat": "N",
        "dealer": "W",
        "phase": "trump",
        "hand": hand,
        "bids": [{"seat": "N", "type": "bid", "amount": 7}],
        "trump": None,
        "declarer": "N",
        "draws": [],
        "tricks": [],
        "legal": [{"type": "trump", "suit": s} for s in "CDHS"],
    }


def test_ties_are_broken_by_the_seed():
    # Clubs and diamonds are worth exactly the same: the seed decides, repeatably.
    obs = _trump_choice_obs(["AC", "KC", "AD", "KD", "7H", "8H", "7S", "8S", "9H"])
    picks = {RuleBot(seed).decide(obs)["suit"] for seed in range(20)}
    assert picks == {"C", "D"}
    for seed in range(5):
        assert RuleBot(seed).decide(obs) == RuleBot(seed).decide(obs)


# ---------------------------------------------------------------------- strength
def duplicate_scores(ruleset: str, boards: int, set_seed: str) -> list[int]:
    """Per board: the rule bot's side margin at N-S in room 1 plus at E-W in room 2."""
    rules = make_ruleset(ruleset)
    scores = []
    for n in range(1, boards + 1):
        board = generate_board(set_seed, n)
        rule, rnd = RuleBot(n), RandomBot(n)
        ns, ew = play_hand(rules, board, {"N": rule, "S": rule, "E": rnd, "W": rnd}).delta()
        room1 = ns - ew
        ns, ew = play_hand(rules, board, {"N": rnd, "S": rnd, "E": rule, "W": rule}).delta()
        room2 = ew - ns
        scores.append(room1 + room2)
    return scores


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_beats_random_at_duplicate(ruleset):
    scores = duplicate_scores(ruleset, 300, "rule-dup")
    mean = statistics.mean(scores)
    half_width = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
    assert mean > 0
    assert mean - half_width > 0, f"{ruleset}: {mean:.2f} +- {half_width:.2f}"


def test_decisions_are_fast():
    rules = make_ruleset("american62")
    record: list = []
    for n in range(1, 21):
        play_hand(rules, generate_board("rule-speed", n), {s: RuleBot(n) for s in "NESW"}, record)
    bot = RuleBot(0)
    times = []
    for obs, _ in record:
        start = time.perf_counter()
        bot.decide(obs)
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 1e-3


# ---------------------------------------------------------------------- rules of thumb
def play_obs(hand, tricks, seat="S", trump="H", declarer="N", ruleset="foster51", draws=()):
    """An observation of the play phase; legal cards follow the follow rules of docs/rules/common.md."""
    current = tricks[-1]["plays"] if tricks and tricks[-1]["winner"] is None else []
    left = "5" + {"C": "S", "S": "C", "D": "H", "H": "D"}[trump]

    def suit(card):
        return trump if card == left else card[1]

    legal = hand
    if current:
        led = suit(current[0]["card"])
        trumps = [c for c in hand if suit(c) == trump]
        follow = [c for c in hand if suit(c) == led]
        if led == trump:
            legal = trumps or hand
        elif follow:
            legal = follow + [c for c in trumps if c not in follow]
    return {
        "ruleset": ruleset,
        "options": {},
        "seat": seat,
        "dealer": "W",
        "phase": "play",
        "hand": hand,
        "bids": [],
        "trump": trump,
        "declarer": declarer,
        "draws": list(draws),
        "tricks": tricks,
        "legal": [{"type": "play", "card": c} for c in legal],
    }


def trick(leader, *cards, winner=None):
    seats = "NESW"
    i = seats.index(leader)
    return {
        "leader": leader,
        "winner": winner,
        "plays": [{"seat": seats[(i + k) % 4], "card": c, "extras": []} for k, c in enumerate(cards)],
    }


def test_leads_a_sure_winning_trump():
    obs = play_obs(["3C", "9H", "AH"], [], seat="N")
    assert RuleBot().decide(obs)["card"] == "AH"


def test_without_a_sure_trump_leads_a_small_plain_card():
    obs = play_obs(["KC", "3C", "9H", "KH"], [], seat="N")
    assert RuleBot().decide(obs)["card"] == "3C"


def test_gives_pedro_to_partners_sure_trick():
    # N (partner) leads the ace, E follows; S throws the Pedro on it.
    obs = play_obs(["5H", "9H", "4C"], [trick("N", "AH", "3H")], seat="S")
    assert RuleBot().decide(obs)["card"] == "5H"


def test_gives_left_pedro_too():
    obs = play_obs(["5D", "9H", "4C"], [trick("N", "AH", "3H")], seat="S")
    assert RuleBot().decide(obs)["card"] == "5D"


def test_never_gives_points_to_the_opponents_sure_trick():
    # E leads the ace: S must follow with a trump but keeps the Pedro and the Ten.
    obs = play_obs(["5H", "TH", "7H", "KC"], [trick("E", "AH")], seat="S")
    assert RuleBot().decide(obs)["card"] == "7H"


def test_saves_pedro_by_winning_as_last_player():
    # E leads Low, S 3, W 4: N, last, wins with the Five rather than the king.
    obs = play_obs(["5H", "KH", "8C"], [trick("E", "2H", "3H", "4H")], seat="N", declarer="E")
    assert RuleBot().decide(obs)["card"] == "5H"


def test_third_hand_cinches_above_the_five():
    # Partner N leads a small club, E follows: with the Pedros out, S trumps with a
    # small trump above the Five so W cannot win the trick with a Pedro.
    obs = play_obs(["3C", "8H", "KH"], [trick("N", "4C", "6C")], seat="S")
    assert RuleBot().decide(obs)["card"] == "8H"


def test_no_cinch_once_both_pedros_are_gone():
    played = trick("E", "5H", "5D", "QH", "KH", winner="N")
    obs = play_obs(["3C", "8H", "AH"], [played, trick("N", "4C", "6C")], seat="S")
    assert RuleBot().decide(obs)["card"] == "3C"


def test_american_low_is_a_free_card_to_throw():
    # In american62 Low scores for its holder: throwing it on the opponents' ace costs nothing.
    obs = play_obs(["2H", "7H", "KC"], [trick("E", "AH")], seat="S", ruleset="american62")
    assert RuleBot().decide(obs)["card"] == "2H"


def test_foster_low_is_kept_from_the_opponents():
    obs = play_obs(["2H", "7H", "KC"], [trick("E", "AH")], seat="S")
    assert RuleBot().decide(obs)["card"] == "7H"


def test_counts_face_up_discards_when_judging_a_sure_winner():
    # The ace was discarded face up, so partner's king is the best trump left: throw the Pedro.
    draws = [{"seat": "E", "discarded": 3, "received": 3, "shown": ["AH", "2C", "3D"], "cards": None}]
    obs = play_obs(["5H", "9H", "4C"], [trick("N", "KH", "3H")], seat="S", draws=draws)
    assert RuleBot().decide(obs)["card"] == "5H"
    obs = play_obs(["5H", "9H", "4C"], [trick("N", "KH", "3H")], seat="S")
    assert RuleBot().decide(obs)["card"] == "9H"


# ---------------------------------------------------------------------- draw and bidding
def discard_obs(hand, choice, trump="H", declarer="N", seat="E"):
    return {
        "ruleset": "foster51",
        "options": {},
        "seat": seat,
        "dealer": "W",
        "phase": "discard",
        "hand": hand,
        "bids": [],
        "trump": trump,
        "declarer": declarer,
        "draws": [],
        "tricks": [],
        "legal": [dict(choice, type="discard")],
    }


def test_discards_everything_but_trumps():
    hand = ["AH", "5D", "3H", "2C", "7C", "KS", "AS", "9D", "QD"]
    obs = discard_obs(hand, {"from": hand, "min": 3})
    assert sorted(RuleBot().decide(obs)["cards"]) == sorted(["2C", "7C", "KS", "AS", "9D", "QD"])


def test_with_more_than_six_trumps_keeps_the_best_six():
    hand = ["AH", "KH", "QH", "5H", "5D", "9H", "4H", "3H", "7C"]
    obs = discard_obs(hand, {"from": hand, "min": 3})  # a defender: gives no point away
    assert sorted(RuleBot().decide(obs)["cards"]) == ["3H", "4H", "7C"]


def test_katz_choice_object_is_respected():
    hand = ["AH", "KH", "QH", "5H", "5D", "9H", "4H", "2H", "7C"]
    choice = {"from": hand, "min": 3, "max": 3, "must_include": ["7C"]}
    cards = RuleBot().decide(discard_obs(hand, choice))["cards"]
    assert len(cards) == 3 and "7C" in cards
    assert not {"AH", "KH", "QH", "5H", "5D"} & set(cards)


def test_dealer_robs_the_best_trumps():
    pool = ["AH", "3H", "5D", "2C", "7C", "KS", "KH", "9D", "QD", "JH", "4S", "8H"]
    obs = {
        "ruleset": "foster51",
        "options": {},
        "seat": "W",
        "dealer": "W",
        "phase": "rob",
        "hand": pool[:9],
        "bids": [],
        "trump": "H",
        "declarer": "W",
        "draws": [],
        "tricks": [],
        "legal": [{"type": "rob", "from": pool, "must_keep": [], "size": 6}],
    }
    assert sorted(RuleBot().decide(obs)["keep"]) == sorted(["AH", "KH", "JH", "8H", "5D", "3H"])


def bid_obs(hand, bids=(), ruleset="american62", seat="E"):
    low = 7 if ruleset == "american62" else 1
    high = max([b["amount"] for b in bids if b["type"] == "bid"], default=0)
    legal = [{"type": "pass"}] + [{"type": "bid", "amount": a} for a in range(max(low, high + 1), 15)]
    return {
        "ruleset": ruleset,
        "options": {},
        "seat": seat,
        "dealer": "N",
        "phase": "bidding",
        "hand": hand,
        "bids": list(bids),
        "trump": None,
        "declarer": None,
        "draws": [],
        "tricks": [],
        "legal": legal,
    }


def test_bids_on_catching_cards_and_passes_without_them():
    strong = ["AH", "KH", "QH", "5H", "9H", "2C", "3D", "4S", "7S"]
    assert RuleBot().decide(bid_obs(strong)) == {"type": "bid", "amount": 7}
    # Two Pedros, Jack and Low but no catching card: Foster says it is worth little.
    points = ["5H", "5D", "JH", "2H", "3C", "4C", "8S", "9S", "7C"]
    assert RuleBot().decide(bid_obs(points)) == {"type": "pass"}


def test_overcalls_opponents_but_not_partner_lightly():
    hand = ["AH", "KH", "4H", "9H", "2C", "3D", "4S", "7S", "8C"]
    opponent_bid = [
        {"seat": "E", "type": "bid", "amount": 7},
        {"seat": "S", "type": "pass"},
        {"seat": "W", "type": "pass"},
    ]
    assert RuleBot().decide(bid_obs(hand, opponent_bid, seat="N")) == {"type": "bid", "amount": 8}
    partner_bid = [
        {"seat": "E", "type": "pass"},
        {"seat": "S", "type": "bid", "amount": 7},
        {"seat": "W", "type": "pass"},
    ]
    assert RuleBot().decide(bid_obs(hand, partner_bid, seat="N")) == {"type": "pass"}


def test_names_the_suit_counting_the_left_pedro():
    # Hearts: ace and both Pedros (5D is the left one); diamonds would be K Q and the same Pedros.
    obs = _trump_choice_obs(["AH", "5H", "5D", "KD", "QD", "3C", "7S", "8C", "9S"])
    assert RuleBot().decide(obs) == {"type": "trump", "suit": "H"}
