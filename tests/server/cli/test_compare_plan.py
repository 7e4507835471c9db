"""``cinch compare --plan``: how many boards, from a pilot played once and then reused."""

import re

import pytest
from support.cliharness import cinch

from server.arena.planning import plan

pytestmark = pytest.mark.e2e


def test_a_plan_plays_a_pilot_once_and_prints_boards_for_each_way(tmp_path):
    run = cinch("compare", "rule", "random", "--plan", "--pilot", "24", home=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "pilot of boards 1-24 (from match t1.m1)" in run.stdout
    edge = float(re.search(r"edge ([\d.]+) points per board \(the pilot mean, luck-corrected\)", run.stdout).group(1))
    assert edge > 20  # rule beats random by about 40 a board
    fixed = {way: int(n) for way, n in re.findall(r"fixed length, (raw|luck-corrected) +(\d+)", run.stdout)}
    assert set(fixed) == {"raw", "luck-corrected"} and all(2 <= n < 10 for n in fixed.values())
    assert re.search(r"--sprt \(H0 \+0 vs H1 \+5\), on average \d+ .*pilot boards: \d+ to ", run.stdout)

    given = cinch("compare", "random", "rule", "--plan", "--pilot", "24", "--edge", "3", home=tmp_path, timeout=60)
    assert given.returncode == 0, given.stderr
    assert "(from match t1.m1)" in given.stdout and "tournament t2" not in given.stdout  # the stored pilot
    assert "edge 3.00 points per board (given)" in given.stdout
    raw = int(re.search(r"fixed length, raw +(\d+)", given.stdout).group(1))
    assert raw > 50  # a small edge against that spread needs many boards


def test_the_printed_plan_is_the_planning_module_s_on_the_stored_boards(tmp_path):
    from redis import Redis

    from server.arena.store import Store
    from workers.embedded import EmbeddedRedis

    run = cinch("compare", "rule", "random", "--plan", "--pilot", "12", home=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    with EmbeddedRedis(tmp_path) as url, Redis.from_url(url) as redis:
        store = Store(redis)
        records = [store.pair("t1.m1", n) for n in range(1, 13)]
    scores, lucks = [r["score"] for r in records], [r["luck"] for r in records]
    expected = plan(scores, lucks)
    assert f"luck-corrected {expected.sd_corrected:.2f}" in run.stdout
    assert re.search(rf"fixed length, raw +{expected.fixed_raw}\n", run.stdout)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--sprt"], "--plan estimates the boards a test needs; run --sprt separately"),
        (["--pilot", "1"], "--pilot must be 2 or more, not 1"),
        (["--alpha", "0.7"], "--plan: alpha must be between 0 and 0.5"),
    ],
)
def test_bad_plans_are_refused_cleanly(tmp_path, args, message):
    run = cinch("compare", "rule", "random", "--plan", *args, home=tmp_path, timeout=60)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
