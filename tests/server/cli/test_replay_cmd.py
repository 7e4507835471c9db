"""``cinch replay`` as a user runs it: a real subprocess, stdin or a file, exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

DATA = Path(__file__).parents[1] / "engine" / "data"
CASES = {c["id"]: c for f in DATA.glob("cases-*.jsonl") for c in map(json.loads, f.open())}


def cinch(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_complete_hand_from_stdin():
    case = CASES["american62/full/1"]
    run = cinch("replay", "-", stdin=json.dumps(case["input"]))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["complete"] is True
    assert out["delta"] == case["expect"]["output"]["delta"]


def test_file_argument(tmp_path):
    case = CASES["foster51/prefix/2"]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(case["input"]))
    run = cinch("replay", str(path))
    assert run.returncode == 0
    assert json.loads(run.stdout)["to_act"] == case["expect"]["output"]["to_act"]


@pytest.mark.parametrize("case_id", ["american62/illegal/revoke-trump-led/1", "foster51/illegal/discard-too-few/1"])
def test_illegal_action_exit_2_error_on_stderr_nothing_on_stdout(case_id):
    case = CASES[case_id]
    run = cinch("replay", "-", stdin=json.dumps(case["input"]))
    assert run.returncode == 2
    assert run.stdout == ""
    err = json.loads(run.stderr)
    assert err["index"] == case["expect"]["index"]
    assert err["error"]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"ruleset": "american62", "board": ', "not JSON"),
        ('{"ruleset": "pedro99", "board": {}, "actions": []}', "unknown ruleset"),
        (
            '{"ruleset": "american62", "board": {"dealer": "N", "deck": ["AS"], "seed": "ab"}, "actions": []}',
            "52 distinct cards",
        ),
        ("[1, 2]", "JSON object"),
        (
            json.dumps(
                {
                    "ruleset": "snoozer",
                    "board": {"dealer": "N", "deck": [r + s for s in "CDHS" for r in "23456789TJQKA"], "seed": "ab"},
                    "actions": [],
                }
            ),
            "not 52: a deal set is made for one",
        ),
    ],
)
def test_malformed_input_is_an_error_object_not_a_traceback(text, fragment):
    run = cinch("replay", "-", stdin=text)
    assert run.returncode == 2
    err = json.loads(run.stderr)
    assert fragment in err["error"] and err["index"] is None
    assert "Traceback" not in run.stderr


def test_missing_file_is_a_clean_message():
    run = cinch("replay", "/nonexistent/hand.json")
    assert run.returncode == 2
    assert "cannot read" in run.stderr and "Traceback" not in run.stderr


FAMILY = [json.loads(line) for f in sorted((DATA / "family").glob("cases-*.jsonl")) for line in f.open()]
BUILT = ("seven_up", "pitch", "all_fives", "blind_cinch", "sixty_three", "auction_cinch")


@pytest.mark.parametrize("ruleset", BUILT)
def test_every_family_ruleset_replays_through_the_command(ruleset):
    """One complete hand and one refusal per ruleset, as the command prints them."""
    cases = [c for c in FAMILY if c["ruleset"] == ruleset]
    full = next(c for c in cases if c["kind"] == "full")
    run = cinch("replay", "-", stdin=json.dumps(full["input"]))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["delta"] == full["expect"]["output"]["delta"] and out["seats"] == full["expect"]["output"]["seats"]
    bad = next(c for c in cases if c["expect"]["status"] == 2)
    run = cinch("replay", "-", stdin=json.dumps(bad["input"]))
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr
    assert json.loads(run.stderr)["index"] == bad["expect"]["index"]


@pytest.mark.slow
def test_snoozer_cases_through_the_command():
    """The family's snoozer cases (the joker on a trump lead, a sale, deal_all ...) through
    ``cinch replay`` as a user runs it: the exit status and the result of each."""
    family = DATA / "family" / "cases-snoozer.jsonl"
    cases = [json.loads(line) for line in family.open()]
    assert len(cases) >= 5
    for case in cases:
        run = cinch("replay", "-", stdin=json.dumps(case["input"]))
        assert run.returncode == case["expect"]["status"], (case["id"], run.stderr)
        if run.returncode == 0:
            out, expected = json.loads(run.stdout), case["expect"]["output"]
            assert {k: out[k] for k in ("complete", "to_act", "contract", "trump", "points", "delta")} == {
                k: expected[k] for k in ("complete", "to_act", "contract", "trump", "points", "delta")
            }, case["id"]
        else:
            assert json.loads(run.stderr)["index"] == case["expect"]["index"], case["id"]
