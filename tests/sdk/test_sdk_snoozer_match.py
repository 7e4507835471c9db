"""A snoozer match of five entrants end to end: two remote SDK bots in their own processes
(one run by ``cinch bot run``, one as a script calling ``sdk.main``) and the three built-in
bots, through gunicorn, Redis, the supervisor and real RQ worker processes, dealt from a
fresh secret 53-card set whose revealed seed rebuilds every board played."""

import re
import sys

import pytest
from rq.registry import FinishedJobRegistry
from support.sdkharness import BotProcess, cinch_command, run_cli
from test_sdk_end_to_end import check_no_decision_missed, stop_bots

from server.arena import dealsets
from server.arena.tournaments import results as server_results

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOARDS = 2
ENTRANTS = ["sdk-a", "sdk-b", "random", "rule", "search"]


def test_a_snoozer_match_of_five_entrants_two_of_them_remote_sdk_bots(
    server, rq_workers, admin, bot_processes, store, queue, tmp_path
):
    registered = run_cli("bot", "register", "sdk-a", "--server", server.url)
    assert registered.returncode == 0, registered.stderr
    token_b = admin.register_bot("sdk-b", "the example smart bot").token
    bots = [
        BotProcess(
            "sdk-a",
            [
                *cinch_command(),
                "bot",
                "run",
                "examples.random_bot:RandomBot",
                "--server",
                server.url,
                "--token",
                registered.stdout.strip(),
                "--max-backoff",
                "1",
                "--wait",
                "5",
                "--seed",
                "5",
            ],
            tmp_path,
        ),
        BotProcess(
            "sdk-b",
            [
                sys.executable,
                "examples/smart_bot.py",
                "--server",
                server.url,
                "--token",
                token_b,
                "--max-backoff",
                "1",
                "--wait",
                "5",
            ],
            tmp_path,
        ),
    ]
    bot_processes += bots
    for bot in bots:
        bot.wait_for_log("serving decisions")
        assert admin.trust_bot(bot.name).trusted

    created = admin.create_tournament(ENTRANTS, ruleset="snoozer", options={"players": 5}, boards=BOARDS, chunk=BOARDS)
    t = admin.tournament(created)
    commitment = store.tournament(created)["commitment"]
    assert t.format == "round_robin" and commitment["players"] == 5 and commitment["deck"] == 53
    assert t.commitment == commitment  # served whole: the set's shape too
    finished = admin.wait_for_tournament(created, poll=0.25, timeout=240)
    assert finished.is_finished and finished.pairs_done == finished.pairs_total == BOARDS
    check_no_decision_missed(admin, created)
    answered = stop_bots(bots)
    # each remote bot holds every seat once a board: 5 rooms x 2 boards, at least the sale or a bid and six cards
    assert all(n >= 5 * BOARDS * 7 for n in answered.values()), answered
    names = {queue.fetch_job(j).worker_name for j in FinishedJobRegistry(queue=queue).get_job_ids()}
    assert names and names <= set(rq_workers.procs), "the boards are played by the rq worker processes"

    # one match of the five, each board in five rooms (docs/rules/duplicate.md#single-seats), its nets summing to zero
    [mid] = store.match_ids(created)
    match = store.match(mid)
    assert match["entrants"] == ENTRANTS and match["ruleset"] == "snoozer"
    seed = admin.tournament(created).raw["deals_seed"]
    revealed = dealsets.check_reveal(seed, commitment)
    assert revealed.deck == 53
    verified = run_cli(
        "deals",
        "verify",
        "--seed",
        seed,
        "--commitment",
        commitment["seed_sha256"],
        "--boards",
        str(BOARDS),
        "--server",
        server.url,
        "--tournament",
        created,
    )
    assert verified.returncode == 0 and f"{BOARDS} finished boards checked" in verified.stdout, verified.stderr
    for n in range(1, BOARDS + 1):
        pair = admin.board_pair(mid, n).to_dict()
        assert len(pair["rooms"]) == 5
        seatings = {tuple(room["units"]) for room in pair["rooms"]}
        assert len(seatings) == 5  # every entrant at every seat once
        for room in pair["rooms"]:
            assert room["ruleset"] == "snoozer" and room["board"] == revealed.board(n).to_dict()
            assert len(room["board"]["deck"]) == 53 and room["faults"] == []
            played = any(a.get("card") == "JK" for a in room["actions"])
            assert played == ("JK" in room["board"]["deck"][:30])  # dealt (six each to five), it is played
        assert abs(sum(store.entrant_scores(mid)[n])) < 1e-9

    results = admin.results(created)
    assert results.to_dict() == store.results(created) == server_results(store, created)
    assert {s.bot for s in results.standings} == set(ENTRANTS)
    assert abs(sum(e["total"] for e in store.results(created)["matches"][0]["entrant_stats"])) < 1e-6
    board = admin.ratings("snoozer")
    assert {row.bot for row in board.bots} == set(ENTRANTS)
    shown = run_cli("remote", "standings", created, "--server", server.url)
    assert shown.returncode == 0 and all(re.search(rf"\b{name}\b", shown.stdout) for name in ENTRANTS), shown.stderr
