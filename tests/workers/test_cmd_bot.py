"""Cmd entrants (``workers.cmd_bot``, ``sdk.line``): the checks of a command, and a line
program's seat through garbage, crashes, silence, restarts and the end of its job."""

import json
import os
import sys
import time
from pathlib import Path

import pytest

from sdk.line import LineError
from server.arena import dealsets, registry
from server.arena.duplicate import play_room
from server.arena.tournaments import plan_matches, validate
from server.engine import make_ruleset
from server.engine.boards import generate_board
from server.engine.hand import IllegalAction
from workers import jobs
from workers.bots import BUILTIN
from workers.cmd_bot import CmdAgent, CmdBotError, resolve
from workers.driver import local_roster
from workers.remote import DecisionTimeout

ROOT = str(Path(__file__).resolve().parents[2])
PY_BOT = f"{sys.executable} examples/line_bot.py"
OBSERVATION = {"seat": "N", "legal": [{"type": "pass"}, {"type": "bid", "amount": 7}]}


def gone(pid):
    """Neither running nor a zombie: reaped."""
    return not Path(f"/proc/{pid}").exists()


def seat(store, command, limits=None, name="cmd:test"):
    _, source = resolve(f"cmd:{command}", ROOT)
    return CmdAgent(store, source, name, {"id": "m1", "limits": limits})


@pytest.mark.parametrize(
    "reference, message",
    [
        ("cmd:", "the command is empty"),
        ("cmd:   ", "the command is empty"),
        ("cmd:no-such-program-anywhere --x", "no program 'no-such-program-anywhere' on PATH"),
        ("cmd:./examples/nowhere.sh", "is not an executable file"),
        ("cmd:python3 'unclosed", "No closing quotation"),
        ("cmd:python3 bot.py #2", "may not hold '#'"),
    ],
)
def test_a_bad_command_is_refused_with_its_reason(reference, message):
    with pytest.raises(CmdBotError, match=message):
        resolve(reference, ROOT)


def test_a_command_is_stored_with_the_directory_it_was_given_in(tmp_path):
    names, roster = local_roster(["rule", "cmd:  python3 line_bot.py "], ["rule"], cwd=str(tmp_path))
    assert names == ["rule", "cmd:python3 line_bot.py"]
    entry = roster["cmd:python3 line_bot.py"]
    assert entry["kind"] == "cmd" and entry["trusted"]
    assert entry["source"] == {"kind": "cmd", "command": "python3 line_bot.py", "cwd": str(tmp_path)}
    assert registry.reference_kind("cmd:bot") is registry.CMD, "cmd: before package.module:Class"
    assert registry.reference_kind("my_bot.py:MyBot") is registry.LOCAL
    assert registry.reference_kind("rule") is None


@pytest.mark.e2e
def test_the_example_answers_the_decision_a_remote_bot_is_served(store):
    agent = seat(store, PY_BOT)
    try:
        assert agent.decide(OBSERVATION) == {"type": "pass"}
        assert agent.decide({"seat": "N", "legal": [{"type": "bid", "amount": 7}]}) == {"type": "bid", "amount": 7}
        assert agent.program.starts == 1, "one program for the seat's decisions"
    finally:
        agent.close()


@pytest.mark.e2e
def test_garbage_is_a_fault_and_the_next_decision_has_a_fresh_program(store, tmp_path):
    """The first run of the program writes garbage, the second answers: the fault names the
    garbage and the same seat answers the next decision."""
    marker = tmp_path / "started"
    script = tmp_path / "flaky.py"
    script.write_text(
        "import json, os, sys\n"
        f"first = not os.path.exists({str(marker)!r})\n"
        f"open({str(marker)!r}, 'a').write('x')\n"
        "for line in sys.stdin:\n"
        "    print('not json' if first else json.dumps(json.loads(line)['legal'][0]), flush=True)\n"
    )
    agent = seat(store, f"{sys.executable} {script}")
    try:
        with pytest.raises(LineError, match="wrote a line that is not JSON: 'not json'"):
            agent.decide(OBSERVATION)
        assert agent.decide(OBSERVATION) == {"type": "pass"}
        assert agent.program.starts == 2
    finally:
        agent.close()


@pytest.mark.e2e
def test_a_crash_is_a_fault_with_its_exit_status(store):
    agent = seat(store, "sh -c 'read line; exit 3'")
    with pytest.raises(LineError, match="exit status 3"):
        agent.decide(OBSERVATION)
    with pytest.raises(LineError, match="exit status 3"):  # started again, crashed again
        agent.decide(OBSERVATION)
    assert agent.program.starts == 2 and agent.program.proc is None


@pytest.mark.e2e
def test_an_answer_that_is_not_legal_is_judged_like_the_apis(store):
    agent = seat(store, """sh -c 'while read l; do echo "{\\"type\\": \\"bid\\", \\"amount\\": 99}"; done'""")
    try:
        with pytest.raises(IllegalAction):
            agent.decide(OBSERVATION)
    finally:
        agent.close()


@pytest.mark.e2e
def test_silence_times_out_counts_and_makes_the_seat_faulty(store):
    """Past max_timeouts the seat is not asked any more, so a hung program cannot hold the
    match for the whole limit at every decision."""
    agent = seat(store, "sh -c 'while read l; do :; done'", {"decision_ms": 200, "max_timeouts": 1})
    for _ in range(2):
        began = time.monotonic()
        with pytest.raises(DecisionTimeout, match="did not answer within 0.2 s"):
            agent.decide(OBSERVATION)
        assert 0.15 < time.monotonic() - began < 2
    assert store.timeouts("m1") == {"cmd:test": 2} and store.is_faulty("m1", "cmd:test")
    began = time.monotonic()
    with pytest.raises(DecisionTimeout, match="faulty"):
        agent.decide(OBSERVATION)
    assert time.monotonic() - began < 0.1 and agent.program.starts == 2


@pytest.mark.e2e
def test_a_room_goes_on_with_the_default_action_and_records_each_fault(store):
    rules = make_ruleset("american62")
    crash = seat(store, "sh -c 'read line; exit 1'")
    good = seat(store, PY_BOT, name="cmd:good")
    try:
        record = play_room(rules, generate_board(1, 1), [crash, good, crash, good])
    finally:
        crash.close()
        good.close()
    crashed = {a["index"] for a in record["faults"]}
    assert record["result"]["points"] is not None
    assert {f["seat"] for f in record["faults"]} == {"N", "S"}
    assert all("exit status 1" in f["error"] for f in record["faults"])
    assert len(crashed) == sum(1 for i, a in enumerate(record["actions"]) if a.get("seat") in ("N", "S"))


@pytest.mark.e2e
def test_closing_kills_the_program_and_what_it_started(store, tmp_path):
    pids = tmp_path / "pids"
    agent = seat(
        store, f"""sh -c 'sleep 60 & echo $! > {pids}; while read l; do echo "{{\\"type\\": \\"pass\\"}}"; done'"""
    )
    assert agent.decide(OBSERVATION) == {"type": "pass"}
    child, grandchild = agent.program.pid, int(pids.read_text())
    assert not gone(child) and not gone(grandchild)
    agent.close()
    deadline = time.monotonic() + 5
    while not gone(grandchild) and time.monotonic() < deadline:  # init reaps the orphan
        time.sleep(0.05)
    assert gone(child) and gone(grandchild)


@pytest.mark.e2e
def test_a_job_keeps_one_program_per_seat_and_ends_them_with_it(store, tmp_path):
    """Every program a job started is reaped when the job ends: no process, no zombie."""
    pids = tmp_path / "pids"
    deals = dealsets.generate("cmd-job", 2)
    store.put_dealset(deals)
    names, own = local_roster(["rule", f"cmd:sh -c 'echo $$ >> {pids}; exec {PY_BOT}'"], BUILTIN, cwd=ROOT)
    spec = validate({"bots": names, "boards": 2, "deals": deals.name}, {**registry.builtin_roster(BUILTIN), **own})
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    mid = store.match_ids(tid)[0]
    assert jobs.play_chunk_with(store, mid, 1, 2) == 2
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 1, "one program for the seat, for every decision of the job"
    assert all(gone(pid) for pid in started)
    records = [store.pair(mid, n) for n in (1, 2)]
    assert all(room["faults"] == [] for r in records for room in r["rooms"])
    assert json.dumps(records).count('"type"') > 20


def test_the_child_gets_no_arena_variables(monkeypatch):
    from sdk.line import child_environment

    env = child_environment({"PATH": "/bin", "REDIS_URL": "redis://x", "CINCH_TOKEN": "t", "CINCH_ADMIN_TOKEN": "a"})
    assert env == {"PATH": "/bin"}
    assert os.environ is not env
