"""``cinch tournament --sprt`` as a user runs it: each match stops when its test decides,
and the report says how each test stands."""

import json
import re

import pytest
from support.cliharness import cinch

pytestmark = pytest.mark.e2e


def test_a_gauntlet_with_sprt_reports_each_matchs_test(tmp_path):
    run = cinch(
        "tournament",
        "--format",
        "gauntlet",
        "--candidates",
        "rule",
        "--references",
        "random",
        "--boards",
        "300",
        "--chunk",
        "10",
        "--sprt",
        "--delta1",
        "10",
        home=tmp_path,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    line = re.search(
        r"t1\.m1 +rule vs random: (\d+) boards.*\n +sequential test: H1, boards \d+, "
        r"LLR \+[\d.]+ \(bounds -3\.00, \+3\.00\), luck-corrected mean \+[\d.]+ anytime 95% \[",
        run.stdout,
    )
    assert line, run.stdout
    assert int(line.group(1)) < 100, "stopped well before --boards"
    shown = cinch("tournament", "list", home=tmp_path, timeout=60)
    assert re.search(r"t1 +finished .* +\d+/300 ", shown.stdout), shown.stdout


def test_json_results_carry_the_test_and_the_blind_movement_refuses_it(tmp_path):
    run = cinch(
        "tournament", "--bots", "rule", "random", "--boards", "60", "--sprt", "--json", home=tmp_path, timeout=300
    )
    assert run.returncode == 0, run.stderr
    [match] = json.loads(run.stdout)["matches"]
    assert match["sprt"]["decision"] == "H1" and match["sprt"]["upper"] <= match["sprt"]["llr"]
    blind = cinch("tournament", "--format", "blind", "--bots", "random", "--sprt", home=tmp_path, timeout=60)
    assert blind.returncode == 2 and "sprt: the sequential test stops a two-room match" in blind.stderr
    assert "Traceback" not in blind.stderr
    bad = cinch("tournament", "--bots", "rule", "random", "--sprt", "--alpha", "0.7", home=tmp_path, timeout=60)
    assert bad.returncode == 2 and "sprt: alpha must be between 0 and 0.5" in bad.stderr
