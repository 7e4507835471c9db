"""SDK bots in their own processes play real tournaments through the real API server.

Two bot processes (one started by ``cinch bot run``, one as a script calling
``sdk.main``) play a round robin with the built-in bots, through gunicorn, Redis and RQ
workers; the results read back through ``sdk.Client`` must be what the server stored.
A second test crashes the API server twice (SIGKILL of its process group), once while
the bots sit in a long-poll and once in the middle of a tournament, and restarts it on
the same port: the bots must reconnect by themselves and miss no decision.
"""

import re
import sys

import pytest
from support.sdkharness import BotProcess, cinch_command, run_cli
from support.waiting import wait_for

from server.arena.tournaments import results as server_results

pytestmark = pytest.mark.e2e

BOARDS = 3


def start_bots(server, admin, bot_processes, tmp_path):
    """sdk-a registered and run through the CLI; sdk-b registered through the SDK, run as a script."""
    registered = run_cli("bot", "register", "sdk-a", "--server", server.url)
    assert registered.returncode == 0, registered.stderr
    token_a = registered.stdout.strip()
    assert re.fullmatch(r"[A-Za-z0-9_-]{20,}", token_a) and "shown this once" in registered.stderr
    token_b = admin.register_bot("sdk-b", "the example smart bot").token
    a = BotProcess(
        "sdk-a",
        [
            *cinch_command(),
            "bot",
            "run",
            "examples.random_bot:RandomBot",
            "--server",
            server.url,
            "--token",
            token_a,
            "--max-backoff",
            "1",
            "--wait",
            "5",
            "--seed",
            "7",
        ],
        tmp_path,
    )
    b = BotProcess(
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
    )
    bot_processes += [a, b]
    for bot in (a, b):
        bot.wait_for_log("serving decisions")
    return a, b


def stop_bots(bots):
    """Ctrl-C each bot: it must exit 0 and report every decision answered, none missed."""
    answered = {}
    for bot in bots:
        status = bot.interrupt()
        log = bot.log()
        assert status == 0, log[-3000:]
        found = re.search(r"(\d+) decisions answered, (\d+) illegal replaced, (\d+) bot errors, (\d+) missed", log)
        assert found, log[-3000:]
        count, illegal, errors, missed = map(int, found.groups())
        assert count > 0 and illegal == 0 and errors == 0 and missed == 0, log[-3000:]
        assert "Traceback" not in log, log[-3000:]
        answered[bot.name] = count
    return answered


def check_no_decision_missed(client, tid):
    for match in client.matches(tid):
        assert match.status == "complete"
        assert match.timeouts == {} and match.faulty == [], match
        t = client.tournament(tid)
        for n in range(t.first, t.first + t.boards):
            for room in client.board_pair(match.id, n).rooms:
                assert room.faults == [], room.faults


@pytest.mark.slow
def test_two_sdk_bot_processes_play_a_round_robin_and_results_match_the_store(
    server, rq_workers, admin, bot_processes, store, tmp_path
):
    bots = start_bots(server, admin, bot_processes, tmp_path)
    for name in ("sdk-a", "sdk-b"):  # trusted: they may play the two-room round robin
        assert admin.trust_bot(name).trusted
    tid = admin.create_tournament(["sdk-a", "sdk-b", "random", "rule"], boards=BOARDS, chunk=BOARDS)
    assert admin.tournament(tid).format == "round_robin"
    finished = admin.wait_for_tournament(tid, poll=0.25, timeout=150)
    assert finished.is_finished and finished.pairs_done == finished.pairs_total == 6 * BOARDS
    check_no_decision_missed(admin, tid)
    answered = stop_bots(bots)
    # every decision a bot answered is an action in a stored room: 2 seats x 2 rooms x boards x 3 matches
    assert all(n >= 3 * BOARDS * 2 * 4 for n in answered.values()), answered

    # results through the SDK == what the server stored == recomputed from the board pairs
    results = admin.results(tid)
    assert results.to_dict() == store.results(tid) == server_results(store, tid)
    assert [s.bot for s in results.standings] == [r["bot"] for r in store.results(tid)["standings"]]
    for standing, row in zip(results.standings, store.results(tid)["standings"]):
        assert {k: getattr(standing, k) for k in row} == row
    assert {s.bot for s in results.standings} == {"sdk-a", "sdk-b", "random", "rule"}
    for me, row in store.results(tid)["crosstable"].items():
        for other, stats in row.items():
            assert {k: getattr(results.crosstable[me][other], k) for k in stats} == stats
    assert results.standing("rule").mean > results.standing("sdk-a").mean  # the random bot is no match

    # matches and every board pair through the SDK == the store's records
    matches = admin.matches(tid)
    assert [m.id for m in matches] == store.match_ids(tid) == [m.id for m in results.matches]
    for match in matches:
        stored = store.match(match.id)
        assert (match.x, match.y) == (stored["x"], stored["y"])
        assert match.stats == results.match_of(match.x, match.y).stats
        for n in range(1, BOARDS + 1):
            pair = admin.board_pair(match.id, n)
            assert pair.to_dict() == store.pair(match.id, n)
            assert pair.board == n and pair.score == pair.rooms[0].net("NS") + pair.rooms[1].net("EW")
        assert sum(admin.board_pair(match.id, n).score for n in range(1, BOARDS + 1)) == match.stats.total

    board = admin.ratings("american62")
    assert {"sdk-a", "sdk-b", "random", "rule"} <= {row.bot for row in board.bots}
    assert admin.bot("sdk-b").ratings["american62"].matches == 3
    served = store.ratings("american62")
    for row in board.bots:  # the SDK's model of a rating: the estimate inside its 95% interval
        assert row.low <= row.rating <= row.high and row.boards == served[row.bot]["boards"] > 0
    assert [row.rating for row in board.bots] == sorted((row.rating for row in board.bots), reverse=True)
    assert admin.bot("sdk-b").description == "the example smart bot"

    # the remote CLI reads the same results
    shown = run_cli("remote", "standings", tid, "--server", server.url)
    assert shown.returncode == 0, shown.stderr
    for row in results.standings:
        assert re.search(rf"{row.bot}\s+{re.escape(f'{row.mean:+.3f}')}", shown.stdout), shown.stdout
    as_json = run_cli("remote", "standings", tid, "--server", server.url, "--json")
    assert __import__("json").loads(as_json.stdout) == store.results(tid)
    compared = run_cli("remote", "compare", "random", "sdk-b", "--server", server.url)
    assert compared.returncode == 0, compared.stderr
    match = results.match_of("random", "sdk-b")
    sign = 1 if match.x == "random" else -1
    scores = [int(line.split()[-1]) for line in compared.stdout.splitlines() if re.match(r"\s+\d+\s", line)]
    assert scores == [sign * admin.board_pair(match.id, n).score for n in range(1, BOARDS + 1)]
    assert f"over {BOARDS} boards" in compared.stdout
    watched = run_cli("remote", "tournament", "watch", tid, "--server", server.url)
    assert watched.returncode == 0 and "Standings" in watched.stdout, watched.stderr


@pytest.mark.slow
def test_bots_ride_out_api_server_crashes_and_the_tournament_completes(
    server, rq_workers, admin, bot_processes, tmp_path
):
    bots = start_bots(server, admin, bot_processes, tmp_path)

    # crash 1: both bots are idle in a long-poll
    server.kill()
    wait_for(lambda: all("cannot poll" in b.log() for b in bots), "the bots to notice the crash")
    server.start()
    # a bot with nothing to do is back once its first long-poll (5 s) returns
    wait_for(lambda: all("reconnected to" in b.log() for b in bots), "the bots to reconnect")
    # one job per entrant: the two SDK bots have decisions open at once on the two workers
    tid = admin.create_tournament(["sdk-a", "sdk-b", "random"], boards=4, chunk=4)
    assert admin.tournament(tid).format == "blind"
    # crash 2: in the middle of the tournament, decisions open and answers in flight
    wait_for(lambda: admin.tournament(tid).pairs_done >= 2, "some progress")
    assert not admin.tournament(tid).is_finished
    server.kill()
    try:
        wait_for(lambda: all(b.log().count("cannot poll") >= 2 for b in bots), "the bots to notice again")
    except AssertionError:
        for b in bots:
            print(b.name, b.log()[-3000:])
        raise
    for bot in bots:
        assert bot.proc.poll() is None, bot.log()[-3000:]
    server.start()

    finished = admin.wait_for_tournament(tid, poll=0.25, timeout=150)
    assert finished.pairs_done == finished.pairs_total == 3 * 4
    check_no_decision_missed(admin, tid)
    # a bot that rode the second crash out on its answers' responses logs the reconnect at its next
    # successful poll, which may be a long-poll (5 s) after the tournament ended
    wait_for(lambda: all(b.log().count("reconnected to") >= 2 for b in bots), "the bots to reconnect again")
    stop_bots(bots)


def test_a_bot_run_until_done_exits_by_itself_once_its_tournament_ends(
    server, rq_workers, admin, bot_processes, tmp_path
):
    token = admin.register_bot("sdk-done").token
    bot = BotProcess(
        "sdk-done",
        [
            *cinch_command(),
            "bot",
            "run",
            "examples.random_bot:RandomBot",
            "--server",
            server.url,
            "--token",
            token,
            "--until-done",
            "--progress",
            "0.5",
            "--wait",
            "5",
        ],
        tmp_path,
    )
    bot_processes.append(bot)
    bot.wait_for_log("no tournaments yet")
    tid = admin.create_tournament(["sdk-done", "random"], boards=1)
    assert bot.proc.wait(timeout=150) == 0, bot.log()[-3000:]
    log = bot.log()
    assert admin.tournament(tid).is_finished
    assert f"| {tid} " in log and "every tournament it is entered in has ended; stopping" in log
    assert re.search(r"sdk-done: [1-9]\d* answered, 0 defaulted, 0 missed", log), log[-3000:]
    assert "Traceback" not in log
