"""The SDK against a real API server: every operation, typed results and problem errors;
the runner in this process (illegal answers, crashing bots, lost responses, stopping);
tables; and the remote CLI's error messages.
"""

import re
import threading
import time

import pytest
from support.sdkharness import ADMIN, run_cli

import sdk
from examples.random_bot import RandomBot

pytestmark = pytest.mark.e2e

# every operation of the API -> the Client method for it
OPERATIONS = {
    ("GET", "/api/v1/health"): "health",
    ("GET", "/api/v1/ready"): "ready",
    ("GET", "/api/v1/bots"): "bots",
    ("POST", "/api/v1/bots"): "register_bot",
    ("GET", "/api/v1/bots/{name}"): "bot",
    ("GET", "/api/v1/bots/me"): "me",
    ("POST", "/api/v1/bots/{name}/token"): "rotate_token",
    ("POST", "/api/v1/bots/{name}/disable"): "disable_bot",
    ("POST", "/api/v1/bots/{name}/enable"): "enable_bot",
    ("POST", "/api/v1/bots/{name}/trust"): "trust_bot",
    ("GET", "/api/v1/ratings/{ruleset}/{bot}/history"): "rating_history",
    ("GET", "/api/v1/decisions"): "decisions",
    ("GET", "/api/v1/decisions/next"): "next_decision",
    ("POST", "/api/v1/decisions/{decision_id}"): "answer",
    ("GET", "/api/v1/tournaments"): "tournaments",
    ("POST", "/api/v1/tournaments"): "create_tournament",
    ("GET", "/api/v1/tournaments/{tid}"): "tournament",
    ("GET", "/api/v1/tournaments/{tid}/results"): "results",
    ("GET", "/api/v1/tournaments/{tid}/matches"): "matches",
    ("POST", "/api/v1/tournaments/{tid}/cancel"): "cancel_tournament",
    ("POST", "/api/v1/tournaments/{tid}/resume"): "resume_tournament",
    ("GET", "/api/v1/matches/{mid}/boards/{board}"): "board_pair",
    ("GET", "/api/v1/ratings/{ruleset}"): "ratings",
    ("GET", "/api/v1/tables"): "tables",
    ("POST", "/api/v1/tables"): "create_table",
    ("GET", "/api/v1/tables/{tid}"): "table",
    ("POST", "/api/v1/tables/{tid}/join"): "join_table",
    ("GET", "/api/v1/tables/{tid}/seat"): "human_seat",
    ("GET", "/api/v1/tables/{tid}/record"): "table_record",
}


def test_the_client_has_a_method_for_every_operation(admin):
    doc = admin.openapi()
    served = {(m.upper(), p) for p, item in doc["paths"].items() for m, op in item.items() if isinstance(op, dict)}
    assert served - set(OPERATIONS) == set(), "API operations without a Client method"
    assert all(callable(getattr(sdk.Client, name)) for name in OPERATIONS.values())


def test_operations_return_typed_results_and_problems(server, admin):
    assert admin.health().status == "ok" and admin.ready().status == "ready"
    issued = admin.register_bot("alice", "a test bot")
    assert isinstance(issued, sdk.BotToken) and issued.name == "alice" and issued.token not in repr(issued)
    with pytest.raises(sdk.ApiError) as err:
        admin.register_bot("alice")
    assert (err.value.status, err.value.title) == (409, "Conflict") and "alice" in err.value.detail
    with pytest.raises(sdk.ApiError) as err:
        admin.register_bot("No Capitals")
    assert err.value.status == 422 and "name" in str(err.value.errors)

    listed = {b.name: b for b in admin.bots()}
    assert listed["random"].kind == "builtin" and listed["alice"].kind == "remote" and listed["alice"].active
    assert admin.bot("alice").description == "a test bot"
    with pytest.raises(sdk.ApiError, match="404"):
        admin.bot("nobody")

    alice = sdk.Client(server.url + "/api/v1/", token=issued.token)  # a URL with the prefix works too
    assert alice.decisions() == [] and alice.next_decision(wait=0) is None
    with pytest.raises(sdk.ApiError) as err:
        alice.answer("0" * 32, {"type": "pass"})
    assert err.value.status == 404
    old = alice.token
    assert alice.rotate_token("alice").name == "alice" and alice.token != old  # the client follows
    assert alice.decisions() == []
    with pytest.raises(sdk.ApiError) as err:
        sdk.Client(server.url, token=old).decisions()
    assert err.value.status == 401
    with pytest.raises(sdk.ApiError) as err:
        sdk.Client(server.url, admin_token=alice.token).create_tournament(["random", "rule"])
    assert err.value.status == 403

    with pytest.raises(sdk.ApiError) as err:
        admin.create_tournament(["random", "ghost"], boards=1)
    assert err.value.status == 422 and "ghost" in err.value.detail
    with pytest.raises(sdk.ApiError, match="404"):
        admin.tournament("t999")
    assert admin.ratings("american62").ruleset == "american62"
    history = admin.rating_history("random")
    assert history.bot == "random" and all(isinstance(p, sdk.RatingPoint) for p in history.points)
    with pytest.raises(sdk.ApiError, match="404"):
        admin.ratings("whist")
    assert admin.disable_bot("alice").status == "disabled"
    with pytest.raises(sdk.ApiError) as err:
        alice.decisions()
    assert err.value.status == 401
    assert admin.enable_bot("alice").status == "active"
    assert alice.decisions() == []


class Awkward(sdk.Bot):
    """Answers some decisions illegally, crashes on others, plays randomly otherwise."""

    def __init__(self):
        super().__init__(seed=3)
        self.calls = 0
        self.lock = threading.Lock()

    def act(self, obs):
        with self.lock:
            self.calls += 1
            n = self.calls
        if n % 7 == 1:
            return {"type": "play", "card": "1X"}  # not even a card: 422
        if n % 7 == 2:
            return {"type": "bid", "amount": 99}  # well formed, not legal: 422
        if n % 7 == 3:
            raise RuntimeError("a bug in the bot")
        return obs.random_action(self.rng)


class LosingClient(sdk.Client):
    """Loses the response to every 5th answer after the server has accepted it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.posted = 0
        self.lost = set()

    def answer_and_next(self, decision, action, **kwargs):
        found = super().answer_and_next(decision, action, **kwargs)
        self.posted += 1
        if self.posted % 5 == 0 and decision not in self.lost:
            self.lost.add(decision)
            raise sdk.NetworkError("connection reset (simulated lost response)")
        return found


def test_runner_replaces_illegal_answers_and_counts_lost_responses_once(server, rq_workers, admin):
    token = admin.register_bot("awkward").token
    client = LosingClient(server.url, token=token, backoff=0.01)
    answers = []
    runner = sdk.Runner(
        Awkward(),
        client,
        threads=4,
        wait=20,
        follow_wait=0.5,
        on_answer=lambda d, action, outcome: answers.append((d.id, action, outcome)),
    ).start()
    tid = admin.create_tournament(["awkward", "random"], boards=2, chunk=1)
    admin.wait_for_tournament(tid, poll=0.2, timeout=90)
    match = admin.matches(tid)[0]
    assert match.timeouts == {} and match.faulty == []  # nothing dropped, nothing late
    time.sleep(1.5)  # the last answer's wait for a next decision ends, and a lost response is re-posted
    start = time.monotonic()
    runner.stop()
    runner.join(timeout=10)
    assert time.monotonic() - start < 3  # although the poller sits in a 20 s long-poll
    stats = runner.stats
    ids = [a[0] for a in answers]
    assert len(ids) == len(set(ids)) == stats["decisions"]  # each decision handed to the bot once
    assert stats["illegal"] >= 2 and stats["bot_errors"] >= 1 and stats["already_answered"] == len(client.lost) > 0
    assert stats["answered"] + stats["already_answered"] == stats["decisions"]
    assert {outcome for _, _, outcome in answers} == {"answered", "already_answered"}
    for n in (1, 2):  # every room's actions are what was sent
        for room in admin.board_pair(match.id, n).rooms:
            assert room.faults == []


def test_a_sequential_tournament_and_its_luck_corrected_means_through_the_sdk(server, rq_workers, admin):
    tid = admin.create_tournament(["rule", "random"], boards=80, deals="standard", sprt={"delta1": 5})
    admin.wait_for_tournament(tid, poll=0.2, timeout=120)
    (match,) = admin.matches(tid)
    assert match.sprt["decision"] == "H1" and 1 <= match.sprt["boards"] <= 20  # the betting test stops early
    assert match.stats.boards < 80 and match.corrected is not None
    assert match.corrected.boards == match.stats.boards
    pair = admin.board_pair(match.id, 1)
    assert pair.luck == round(pair.rooms[0].luck - pair.rooms[1].luck, 4)


def test_runner_stops_when_the_token_is_refused(server):
    runner = sdk.Runner(RandomBot(), sdk.Client(server.url, token="not-a-token"))
    start = time.monotonic()
    with pytest.raises(sdk.ApiError) as err:
        runner.run()
    assert err.value.status == 401 and time.monotonic() - start < 5


def test_a_runner_plays_a_whole_game_at_a_table(server, rq_workers, admin):
    token = admin.register_bot("sitter").token
    sitter = sdk.Client(server.url, token=token)
    tid = sitter.create_table({"N": "rule", "E": "rule", "S": "rule"}, ruleset="foster51")
    table = admin.table(tid)
    assert table.status == "open" and table.open_seats == ["W"]
    with pytest.raises(sdk.ApiError) as err:
        admin.table_record(tid)
    assert err.value.status == 409
    runner = sdk.Runner(RandomBot(seed=1), sitter, wait=5).start()
    assert sitter.join_table(tid).seats["W"] == "sitter"
    views = []
    final = sitter.wait_for_table(tid, poll=0.1, timeout=120, on_progress=lambda t: views.append(t.live_view))
    runner.stop()
    runner.join(timeout=10)
    assert final.winner in ("NS", "EW") and max(final.scores.values()) >= 51 and final.hands_played > 0
    assert any(v is not None and v.hand == [] and v.legal == [] for v in views)  # spectators see no hand
    record = admin.table_record(tid)
    assert record.winner == final.winner and len(record.hands) == final.hands_played
    assert all(h["faults"] == [] for h in record.hands)
    assert tid in {t.id for t in admin.tables()}
    assert runner.stats["answered"] > 0 and runner.stats.get("undelivered", 0) == 0


@pytest.mark.slow
def test_remote_cli_commands_and_their_errors(server, rq_workers, tmp_path):
    url = ["--server", server.url]
    out = run_cli("bot", "register", "Bad Name", *url)
    assert out.returncode == 2 and out.stderr.startswith("cinch bot: 422") and not out.stdout
    token = run_cli("bot", "register", "cli-bot", *url).stdout.strip()
    again = run_cli("bot", "register", "cli-bot", *url)
    assert again.returncode == 2 and "409 Conflict" in again.stderr
    assert "cli-bot" in run_cli("bot", "list", *url).stdout
    rotated = run_cli("bot", "rotate", "cli-bot", "--token", token, *url)
    assert rotated.returncode == 0 and rotated.stdout.strip() != token
    # a token kept off the command line: written to a file only its owner can read
    saved = tmp_path / "filed.token"
    filed = run_cli("bot", "register", "filed-bot", "--token-file", str(saved), *url)
    assert filed.returncode == 0 and not filed.stdout and str(saved) in filed.stderr, filed.stderr
    assert saved.stat().st_mode & 0o777 == 0o600 and saved.read_text().strip().startswith("cinch_")
    twice = run_cli("bot", "register", "filed-bot-2", "--token-file", str(saved), *url)
    assert twice.returncode == 2 and "exists" in twice.stderr
    assert "filed-bot-2" not in run_cli("bot", "list", *url).stdout  # refused before registering
    bad = tmp_path / "bad.token"
    bad.write_text("not-a-token\n")
    bad.chmod(0o644)
    read = run_cli("bot", "run", "examples.random_bot:RandomBot", "--token-file", str(bad), *url)
    assert read.returncode == 2 and "401" in read.stderr and "chmod 600" in read.stderr, read.stderr
    loud = run_cli("bot", "run", "examples.random_bot:RandomBot", "--token", "bad", *url)
    assert "can be read by every user of this machine" in loud.stderr
    for args, message in [
        (["bot", "run", "nosuch.module:Bot", "--token", "x"], "cannot import nosuch.module"),
        (["bot", "run", "examples.random_bot:Nope", "--token", "x"], "has no 'Nope'"),
        (["bot", "run", "examples.random_bot:RandomBot"], "a bot token is needed"),
        (["bot", "run", "examples.random_bot:RandomBot", "--token", "bad"], "401"),
        (["bot", "run", "examples.random_bot:RandomBot", "--token-file", "/nonexistent"], "cannot read /nonexistent"),
        (["bot", "run", "examples.random_bot:RandomBot", "--token-file", "/dev/null"], "holds no token"),
        (["remote", "tournament", "create", "--bots", "random", "rule"], "admin token"),
        (["remote", "tournament", "create", "--admin-token", ADMIN], "name the bots"),
        (["remote", "tournament", "create", "--admin-token", ADMIN, "--bots", "random", "ghost"], "ghost"),
        (["remote", "standings", "t404"], "404 Not Found: no tournament"),
        (["remote", "compare", "random", "rule"], "no match of random and rule"),
    ]:
        out = run_cli(*args, *url)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert message in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)
    created = run_cli(
        "remote",
        "tournament",
        "create",
        "--admin-token",
        ADMIN,
        "--bots",
        "random",
        "rule",
        "--boards",
        "2",
        "--chunk",
        "1",
        "--watch",
        *url,
    )
    assert created.returncode == 0, created.stderr
    tid = created.stdout.split()[0]
    assert re.match(r"t\d+$", tid) and "Standings" in created.stdout and "100%" in created.stderr
    compared = run_cli("remote", "compare", "rule", "random", "--tournament", tid, *url)
    assert compared.returncode == 0 and "over 2 boards" in compared.stdout, compared.stderr
    listed = run_cli("remote", "tournament", "list", *url)
    assert re.search(rf"{tid}\s+finished\s+round_robin", listed.stdout), listed.stdout
    ratings = run_cli("remote", "ratings", *url)
    assert "rule" in ratings.stdout and "random" in ratings.stdout
    down = run_cli("remote", "standings", tid, "--server", "http://127.0.0.1:9")
    assert down.returncode == 2 and "cannot reach" in down.stderr


class CountingClient(sdk.Client):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = []

    def request(self, method, path, **kwargs):
        self.calls.append((method, path))
        return super().request(method, path, **kwargs)


def test_in_steady_play_the_runner_makes_one_request_per_decision(server, rq_workers, admin):
    token = admin.register_bot("frugal").token
    client = CountingClient(server.url, token=token)
    runner = sdk.Runner(RandomBot(seed=3), client, wait=5).start()
    tid = admin.create_tournament(["frugal", "random"], boards=4, chunk=4)  # the blind movement
    admin.wait_for_tournament(tid, poll=0.2, timeout=90)
    runner.stop()
    runner.join(timeout=10)
    answers = [c for c in client.calls if c[0] == "POST"]
    polls = [c for c in client.calls if c[0] == "GET"]
    assert len(answers) == runner.stats["decisions"] == runner.stats["answered"] > 50
    assert len(polls) <= 10, polls  # the answers' responses brought the next decisions
