"""``cinch bot run --cmd COMMAND``: a line program (the Python example, no SDK in it) plays
a tournament through the real API server, each decision forwarded as the server sent it."""

import re
import shutil
import sys

import pytest
from support.sdkharness import BotProcess, cinch_command, run_cli

pytestmark = pytest.mark.e2e


def line_bot(name, command, server, admin, bot_processes, tmp_path):
    """``cinch bot run --cmd COMMAND`` for a newly registered bot, serving."""
    token = admin.register_bot(name).token
    bot = BotProcess(
        name,
        [
            *cinch_command(),
            *("bot", "run", "--cmd", command),
            *("--server", server.url, "--max-backoff", "1", "--wait", "5"),
        ],
        tmp_path,
        env={"CINCH_TOKEN": token},
    )
    bot_processes.append(bot)
    bot.wait_for_log("serving decisions")
    return bot


def test_a_line_program_plays_through_the_server(server, rq_workers, admin, bot_processes, tmp_path):
    bot = line_bot("line-py", f"{sys.executable} examples/line_bot.py", server, admin, bot_processes, tmp_path)
    assert admin.trust_bot("line-py").trusted
    tid = admin.create_tournament(["line-py", "rule"], boards=2, chunk=2)
    assert admin.wait_for_tournament(tid, poll=0.25, timeout=120).is_finished
    for match in admin.matches(tid):
        assert match.timeouts == {} and match.faulty == [], match
        for n in (1, 2):
            assert all(room.faults == [] for room in admin.board_pair(match.id, n).rooms)
    assert bot.interrupt() == 0, bot.log()[-3000:]
    found = re.search(r"(\d+) decisions answered, (\d+) illegal replaced, (\d+) bot errors", bot.log())
    assert found, bot.log()[-3000:]
    answered, illegal, errors = map(int, found.groups())
    assert answered >= 2 * 2 * 4 and illegal == 0 and errors == 0, bot.log()[-3000:]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("ruleset, options", [("american62", {}), ("snoozer", {"players": 5})])
def test_the_javascript_example_plays_a_blind_movement_as_an_untrusted_remote_bot(
    server, rq_workers, admin, bot_processes, tmp_path, ruleset, options
):
    """The JavaScript line program, connected by ``cinch bot run --cmd``, untrusted: a blind
    movement among the rule bot's copies on a secret deal set, sides of two and single seats,
    every decision answered, none replaced."""
    bot = line_bot("line-js", "node examples/line_bot.js", server, admin, bot_processes, tmp_path)
    tid = admin.create_tournament(
        ["line-js"], format="blind", references=["rule"], boards=3, ruleset=ruleset, options=options
    )
    t = admin.wait_for_tournament(tid, poll=0.25, timeout=180)
    assert t.is_finished and t.format == "blind" and t.commitment is not None, t
    [match] = admin.matches(tid)
    assert match.timeouts == {} and match.faulty == [], match
    for n in range(1, 4):
        pair = admin.board_pair(match.id, n)
        assert pair.rooms[0].faults == [], pair.rooms[0].faults
    assert bot.interrupt() == 0, bot.log()[-3000:]
    answered, illegal, errors = map(
        int, re.search(r"(\d+) decisions answered, (\d+) illegal replaced, (\d+) bot errors", bot.log()).groups()
    )
    assert answered >= 3 and illegal == 0 and errors == 0, bot.log()[-3000:]


@pytest.mark.parametrize(
    "args, message",
    [
        (("--cmd", ""), "the command is empty"),
        (("--cmd", "no-such-program-anywhere"), "no program 'no-such-program-anywhere' on PATH"),
        (("examples.random_bot:RandomBot", "--cmd", "python3 x.py"), "not both"),
        ((), "name the bot"),
    ],
)
def test_a_bad_bot_is_a_clear_error(args, message):
    run = run_cli("bot", "run", *args, "--server", "http://127.0.0.1:9", "--token", "t")
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
