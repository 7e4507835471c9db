"""Fair play against a bot that remembers: the memory attack, in its own process, through
the real API, against the blind movement on a secret deal set and against the two-room
match on the public set (which it must beat, or the test proves nothing).

The attacker (``memory_attack.py``) fingerprints every hand it is dealt by a
relabeling-proof pattern, looks it up in every published deal set, and links a room to
an earlier one when the hands it holds now are the other hands of a remembered deal.
"""

import json
import sys

import pytest
from support.sdkharness import BotProcess

from server.arena import dealsets

pytestmark = pytest.mark.e2e


def run_attacker(server, admin, bot_processes, tmp_path, trusted):
    token = admin.register_bot("attacker").token
    if trusted:
        assert admin.trust_bot("attacker").trusted
    report = tmp_path / "attack.json"
    bot = BotProcess(
        "attacker",
        [
            sys.executable,
            "tests/support/memory_attack.py",
            "--server",
            server.url,
            "--token",
            token,
            "--max-backoff",
            "1",
            "--wait",
            "5",
        ],
        tmp_path,
        env={"MEMORY_ATTACK_REPORT": str(report)},
    )
    bot_processes.append(bot)
    bot.wait_for_log("serving decisions", timeout=60)
    return bot, report


def findings(bot, report):
    assert bot.interrupt() == 0, bot.log()[-3000:]
    found = json.loads(report.read_text())
    print("memory attack:", found)  # shown with pytest -s
    return found


@pytest.mark.slow
def test_the_blind_movement_on_a_secret_set_defeats_the_memory_attack(
    server, rq_workers, admin, bot_processes, tmp_path
):
    bot, report = run_attacker(server, admin, bot_processes, tmp_path, trusted=False)
    tid = admin.create_tournament(["attacker", "random"], boards=40, chunk=40, limits={"decision_ms": 20_000})
    t = admin.tournament(tid)
    assert t.format == "blind" and t.deals.startswith("secret-") and t.commitment and t.deals_seed is None
    finished = admin.wait_for_tournament(tid, poll=0.25, timeout=300)
    found = findings(bot, report)
    assert found["rooms"] == 40, found  # every board once, in one room
    assert found["linked"] == 0 and found["found"] == 0, found

    # the published seed regenerates exactly the boards that were played, and the commitment
    regenerated = dealsets.check_reveal(finished.deals_seed, finished.commitment)
    for match in admin.matches(tid):
        for n in range(1, 41):
            for room in admin.board_pair(match.id, n).rooms:
                assert room.replay["board"] == regenerated.board(n).to_dict()


def test_the_two_room_match_on_the_public_set_is_open_to_it(server, rq_workers, admin, bot_processes, tmp_path):
    bot, report = run_attacker(server, admin, bot_processes, tmp_path, trusted=True)
    tid = admin.create_tournament(
        ["attacker", "rule"],
        format="round_robin",
        deals="standard",
        practice=True,
        boards=12,
        chunk=12,
        limits={"decision_ms": 20_000},
    )
    assert admin.tournament(tid).practice
    admin.wait_for_tournament(tid, poll=0.25, timeout=300)
    found = findings(bot, report)
    assert found["rooms"] == 24, found
    assert found["found"] >= 20, found  # its hands are in deals/standard.jsonl
    assert found["linked"] >= 9, found  # most second rooms recognised from memory alone
