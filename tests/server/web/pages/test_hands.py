"""The hand timeline tells the engine's story: on every complete rule case of both
rulesets, its tricks, winners, points and score change are ``cinch replay``'s, every
card dealt appears once, the draw accounts for every card, and the counting cards it
says each side took add up to the engine's points."""

import json
from pathlib import Path
from random import Random

import pytest

from server.engine import DONE, ReplayError, generate_board, make_ruleset, replay
from server.engine.playout import random_action
from server.engine.replay import start_hand
from server.web.pages.hands import timeline

CASES = Path(__file__).parents[3] / "server" / "engine" / "data"  # shared/rule-cases, as copied into the repo


def full_cases(ruleset):
    path = CASES / f"cases-{ruleset}.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [row for row in rows if row["kind"] == "full"]


@pytest.fixture(params=["american62", "foster51"])
def cases(request):
    return full_cases(request.param)


def test_tricks_winners_and_points_are_the_engines(cases):
    for case in cases:
        t, expected = timeline(case["input"]), replay(case["input"])
        assert t["contract"] == expected["contract"] and t["trump"] == expected["trump"], case["id"]
        assert [{k: tr[k] for k in ("leader", "plays", "winner")} for tr in t["tricks"]] == expected["tricks"]
        assert t["points"] == expected["points"] and t["delta"] == expected["delta"], case["id"]
        assert t["hands_after_draw"] == expected["hands_after_draw"], case["id"]
        assert [tr["number"] for tr in t["tricks"]] == [1, 2, 3, 4, 5, 6]
        assert all(tr["side"] == ("NS" if tr["winner"] in "NS" else "EW") for tr in t["tricks"])


def test_every_dealt_card_appears_once_and_each_trick_starts_from_what_is_held(cases):
    for case in cases:
        t = timeline(case["input"])
        dealt = [c for seat in "NESW" for c in t["dealt"][seat]]
        assert len(dealt) == 36 and len(set(dealt)) == 36, case["id"]
        assert set(dealt) == set(case["input"]["board"]["deck"][:36])
        assert t["tricks"][0]["held"] == t["hands_after_draw"]
        for before, after in zip(t["tricks"], t["tricks"][1:]):
            played = {p["seat"]: {p["card"], *p["extras"]} for p in before["plays"]}
            assert {s: set(cards) - played[s] for s, cards in before["held"].items()} == {
                s: set(cards) for s, cards in after["held"].items()
            }, case["id"]


def test_the_draw_accounts_for_every_card_each_seat_ends_with(cases):
    for case in cases:
        t = timeline(case["input"])
        first = "NESW".index(t["dealer"]) + 1
        assert [d["seat"] for d in t["draws"]] == ["NESW"[(first + i) % 4] for i in range(4)], case["id"]
        for d in t["draws"]:
            assert set(d["kept"]) | set(d["discarded"]) == set(t["dealt"][d["seat"]]), case["id"]
            assert set(d["kept"]) | set(d["drawn"]) == set(t["hands_after_draw"][d["seat"]]), case["id"]
            assert d["rob"] == (d["seat"] == t["dealer"])  # no dealer_draws_blind among the cases


def test_counting_cards_add_up_to_the_engines_points(cases):
    for case in cases:
        t = timeline(case["input"])
        total = {"NS": 0, "EW": 0}
        for trick in t["tricks"]:
            for side in total:
                won = sum(c["points"] for c in trick["counting"] if c["to"] == side)
                assert won == trick["points"][side], (case["id"], trick)
                total[side] += won
            assert trick["running"] == total
            assert {c["card"] for c in trick["counting"]} <= {p["card"] for p in trick["plays"]}
        total[t["discard_points"]["to"]] += t["discard_points"]["points"]
        assert total == t["points"], case["id"]


def test_low_goes_to_its_holder_in_american62_and_to_the_trick_winner_in_foster51():
    for ruleset, to_holder in (("american62", True), ("foster51", False)):
        seen = 0
        for case in full_cases(ruleset):
            t = timeline(case["input"])
            for trick in t["tricks"]:
                for c in trick["counting"]:
                    if c["card"] == "2" + t["trump"]:
                        holder = "NS" if c["seat"] in "NS" else "EW"
                        seen += holder != trick["side"]
                        assert c["to"] == (holder if to_holder else trick["side"]), case["id"]
        assert seen, f"no {ruleset} case where Low fell to a trick the other side won"


def test_foster51_discarded_counting_trumps_are_the_declarers():
    shown = [timeline(c["input"]) for c in full_cases("foster51")]
    with_points = [t for t in shown if t["discard_points"]["points"]]
    assert with_points
    for t in with_points:
        declarer_side = "NS" if t["declarer"] in "NS" else "EW"
        assert t["discard_points"]["to"] == declarer_side and t["discard_points"]["cards"]
    for t in (timeline(c["input"]) for c in full_cases("american62")):
        assert t["discard_points"] == {"points": 0, "to": t["discard_points"]["to"], "cards": []}


@pytest.mark.parametrize(
    "ruleset, options",
    [
        ("american62", {}),
        ("foster51", {}),
        ("foster51", {"dealer_draws_blind": True}),
        ("foster51", {"trump_discard_over_six_only": True, "low_to_holder": True, "scoring": "eight_point_minimum"}),
    ],
)
def test_random_hands_under_every_option_agree_with_the_engine(ruleset, options):
    rng = Random(7)
    for number in range(1, 31):
        doc = {
            "ruleset": ruleset,
            "options": options,
            "board": generate_board("pages", number).to_dict(),
            "actions": [],
            "scores": {"NS": 56, "EW": 58},
        }
        state = start_hand(doc)
        while state.phase != DONE:
            state.apply(random_action(state.legal_actions(), rng))
        doc["actions"] = state.actions
        t, expected = timeline(doc), replay(doc)
        assert t["tricks"] and [tr["winner"] for tr in t["tricks"]] == [tr["winner"] for tr in expected["tricks"]]
        assert (t["points"], t["delta"]) == (expected["points"], expected["delta"])
        assert t["bidder_goes_out"] == make_ruleset(ruleset, options).bidder_goes_out
        total = {"NS": 0, "EW": 0}
        for trick in t["tricks"]:
            for c in trick["counting"]:
                total[c["to"]] += c["points"]
        total[t["discard_points"]["to"]] += t["discard_points"]["points"]
        assert total == t["points"], (number, t)
        robbed = [d["seat"] for d in t["draws"] if d["rob"]]
        assert robbed == ([] if options.get("dealer_draws_blind") else [t["dealer"]])
        for d in t["draws"]:
            assert set(d["kept"]) | set(d["drawn"]) == set(t["hands_after_draw"][d["seat"]])


def test_illegal_or_unfinished_hands_are_refused_with_the_index():
    case = full_cases("american62")[0]
    doc = case["input"]
    with pytest.raises(ReplayError) as refused:
        timeline({**doc, "actions": doc["actions"][:-1]})
    assert "not complete" in str(refused.value)
    bad = [*doc["actions"][:6], {"type": "play", "card": "1X"}]
    with pytest.raises(ReplayError) as refused:
        timeline({**doc, "actions": bad})
    assert refused.value.index == 6
