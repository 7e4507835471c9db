"""The SDK without a server: observation helpers, actions, the Bot class, loading bots,
and the client's error handling, retries and timeouts against a scripted HTTP server.

The engine (server.engine) is used here as the reference the SDK must agree with; the
SDK itself never imports it.
"""

import io
import json
import pickle
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from random import Random

import pytest

import sdk
from examples.random_bot import RandomBot
from sdk import cards as C
from sdk.progress import Progress
from server.arena.duplicate import play_match
from server.arena.stats import summarize
from server.engine import DONE, HandState, generate_board, make_ruleset, new_hand, observation, seats_for
from server.engine.games.cinch_hand import IllegalAction as ServerIllegal
from server.engine.legality import check as server_check
from server.engine.playout import default_action, random_step
from workers.bots import make_bot


def observations(ruleset, boards, seed=0):
    """(state, observation for the seat to act) over random playouts of ``boards`` boards."""
    rng = Random(seed)
    for n in range(1, boards + 1):
        state = HandState(make_ruleset(ruleset), generate_board("sdk-offline", n))
        while state.phase != DONE:
            yield state, observation(state, state.seat_to_act())
            random_step(state, rng)


def mutations(action, rng):
    yield action
    card = C.ALL_CARDS[rng.randrange(52)]
    for key in ("cards", "keep", "extras"):
        if key in action:
            yield {**action, key: action[key][:-1]}
            yield {**action, key: action[key] + [card]}
    if "card" in action:
        yield {**action, "card": card}
    if "amount" in action:
        yield {**action, "amount": action["amount"] + 1}
    yield {**action, "type": rng.choice(["pass", "bid", "trump", "discard", "rob", "play"])}
    yield {**action, "seat": "N"}
    yield {**action, "bogus": 1}


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_actions_and_legality_agree_with_the_engine(ruleset):
    rng = Random(3)
    for _, obs in observations(ruleset, 12):
        legal, seat = obs["legal"], obs["seat"]
        assert sdk.first_action(legal) == default_action(legal)
        for action in mutations(sdk.random_action(legal, rng), rng):
            try:
                server_check(action, legal, seat)
                expected = True
            except ServerIllegal:
                expected = False
            assert sdk.is_legal(action, legal, seat) is expected, (action, legal)


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_observation_helpers_match_the_state(ruleset):
    for state, raw in observations(ruleset, 10, seed=5):
        obs = sdk.Observation(raw)
        assert obs == raw and obs.seat == raw["seat"] and obs.my_turn
        assert C.partner(obs.partner) == obs.seat and obs.side == ("NS" if obs.seat in "NS" else "EW")
        assert set(obs.opponents) | {obs.seat, obs.partner} == set(C.SEATS)
        assert obs.decision == {"bidding": "bid"}.get(obs.phase, obs.phase)
        assert obs.hand == raw["hand"] and obs.trump == raw["trump"]
        assert obs.legal_cards == [a["card"] for a in raw["legal"] if a["type"] == "play"]
        assert obs.can_pass == ({"type": "pass"} in raw["legal"])
        played = [p for t in raw["tricks"] for p in t["plays"]]
        assert len(obs.cards_played) == len(played) + sum(len(p["extras"]) for p in played)
        assert set(obs.hand) <= obs.seen_cards and not set(obs.unseen_trumps) & obs.seen_cards
        for trick in obs.completed_tricks:  # the SDK finds every trick's winner as the engine did
            i = C.winning_index([p["card"] for p in trick["plays"]], obs.trump)
            assert trick["plays"][i]["seat"] == trick["winner"]
        if obs.phase == "play":
            current = [p for p in state.trick_dicts()[-1]["plays"]] if state.tricks[-1].plays else []
            assert obs.current_trick == current and obs.leading == (not current)
            if current:
                assert obs.winning_play["seat"] == C.SEATS[state.tricks[-1].best_seat]
                assert obs.partner_winning == (obs.winning_play["seat"] == obs.partner)
        if obs.trump:
            assert obs.my_trumps == [c for c in C.all_trumps(obs.trump) if c in obs.hand]
            assert len(C.all_trumps(obs.trump)) == 14 and C.is_pedro(C.left_pedro(obs.trump), obs.trump)


@pytest.mark.parametrize(
    "ruleset, players",
    [("seven_up", 3), ("pitch", 2), ("all_fives", 4), ("sixty_three", 4), ("auction_pitch", 5), ("pedro", 4)],
)
def test_trump_helpers_follow_the_ruleset_s_trumps(ruleset, players):
    """Plain trumps in the All Fours games, Cinch's elsewhere: the SDK finds every trick's
    winner and the player's trumps as the engine does, from the observation alone."""
    rng, checked = Random(9), 0
    rules = make_ruleset(ruleset, {"players": players} if players != 4 else None)
    for n in range(1, 13):
        state = new_hand(rules, generate_board("sdk-trumps", n, seats_for(players)))
        while state.phase != DONE:
            obs = sdk.Observation(observation(state, state.seat_to_act()))
            assert obs.plain_trumps == (ruleset != "sixty_three")
            for trick in obs.completed_tricks:
                i = C.winning_index([p["card"] for p in trick["plays"]], obs.trump, obs.plain_trumps)
                assert trick["plays"][i]["seat"] == trick["winner"]
                checked += 1
            if obs.trump and state.tables is not None:
                engine_trumps = {c for c in obs.hand if state.tables.trump_mask >> C.ALL_CARDS.index(c) & 1}
                assert set(obs.my_trumps) == engine_trumps
                assert len(C.all_trumps(obs.trump, obs.plain_trumps)) == (13 if obs.plain_trumps else 14)
            state.random_step(rng)
    assert checked > 50


def test_bot_short_answers_become_actions():
    class Short(sdk.Bot):
        def bid(self, obs):
            return obs.legal_bids[0] if obs.legal_bids else None

        def trump(self, obs):
            return "H"

        def play(self, obs):
            return obs.legal_cards[-1]

    bot = Short(seed=1)
    bidding = sdk.Observation(seat="N", phase="bidding", legal=[{"type": "pass"}, {"type": "bid", "amount": 7}])
    assert bot.act(bidding) == {"type": "bid", "amount": 7}
    assert bot.to_action(bidding, None) == {"type": "pass"}
    naming = sdk.Observation(seat="N", phase="trump", legal=[{"type": "trump", "suit": s} for s in "CDHS"])
    assert bot.act(naming) == {"type": "trump", "suit": "H"}
    owed = sdk.Observation(
        seat="E",
        phase="play",
        trump="H",
        hand=["AH", "3H", "4H", "7H", "8H", "9H", "KC"],
        legal=[{"type": "play", "card": c, "extras_count": 1, "extras_from": ["3H", "4H", "7H"]} for c in ("AH", "KC")],
    )
    assert bot.act(owed) == {"type": "play", "card": "KC", "extras": ["3H"]}  # the lowest trump by default
    assert bot.to_action(owed, ("AH", ["7H"])) == {"type": "play", "card": "AH", "extras": ["7H"]}
    assert owed.extras_for("AH") == (1, ["3H", "4H", "7H"])
    rob = sdk.Observation(
        seat="S", phase="rob", legal=[{"type": "rob", "from": ["AH", "2C", "3D"], "must_keep": ["AH"], "size": 2}]
    )
    assert bot.to_action(rob, ["AH", "3D"]) == {"type": "rob", "keep": ["AH", "3D"]}
    action = sdk.Bot(seed=4).act(rob)  # not overridden: a random legal action
    assert rob.is_legal(action) and Short(seed=9).rng.random() == Short(seed=9).rng.random()
    with pytest.raises(sdk.SdkError):
        bot.act(sdk.Observation(seat="N", phase="done", legal=None))


class Agent:
    """An SDK bot as the match runner's agent, refusing to let an illegal answer through."""

    def __init__(self, bot):
        self.bot = sdk.as_bot(bot)

    def decide(self, raw):
        obs = sdk.Observation(raw)
        action = self.bot.act(obs)
        obs.check(action)
        return action


@pytest.mark.parametrize("ruleset", ["american62", "foster51"])
def test_example_bots_play_legally_and_the_smart_one_beats_random(ruleset):
    from examples.smart_bot import SmartBot

    boards = [(n, generate_board("sdk-examples", n)) for n in range(1, 41)]
    rules = make_ruleset(ruleset)
    smart = play_match(rules, boards, Agent(SmartBot()), make_bot("random", 1))
    assert all(not room["faults"] for record in smart for room in record["rooms"])
    stats = summarize([r["score"] for r in smart])
    assert stats.significant and stats.mean > 10, stats
    rand = play_match(rules, boards[:10], Agent(RandomBot(seed=2)), make_bot("rule", 1))
    assert all(not room["faults"] for record in rand for room in record["rooms"])


def test_load_bot_forms(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybots.py").write_text(
        "import sdk\n"
        "class Only(sdk.Bot):\n    def act(self, obs):\n        return obs.first_action()\n"
        "def policy(obs):\n    return obs.first_action()\n"
        "class Agent:\n    def decide(self, obs):\n        return obs['legal'][0]\n"
        "broken = 1\n"
    )
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "bot.txt").write_text("not python\n")
    for spec in (
        "mybots:Only",
        "mybots",
        "mybots.py:Only",
        str(tmp_path / "mybots.py"),
        "mybots:policy",
        "mybots:Agent",
    ):
        bot = sdk.load_bot(spec)
        assert isinstance(bot, sdk.Bot)
        assert bot.act(sdk.Observation(seat="N", legal=[{"type": "pass"}])) == {"type": "pass"}, spec
    from workers.bots import RuleBot  # any decide() agent runs as a remote bot

    assert isinstance(sdk.as_bot(RuleBot), sdk.Bot)
    for spec, message in (
        ("nosuchmodule:X", "cannot import"),
        ("mybots:Nope", "has no 'Nope'"),
        ("mybots:broken", "is not a bot"),
        ("missing.py:X", "no file"),
        (str(Path("notes") / "bot.txt"), "is not a Python module"),
        (":X", "expected"),
    ):
        with pytest.raises(sdk.SdkError, match=message):
            sdk.load_bot(spec)


# ---------------------------------------------------------------------- the client against a scripted server
class Scripted(BaseHTTPRequestHandler):
    """Answers each request with the next scripted (status, content type, body, delay[, headers])."""

    script: list = []
    seen: list = []

    def _answer(self):
        self.seen.append((self.command, self.path, dict(self.headers)))
        status, ctype, body, delay, *headers = self.script.pop(0) if self.script else (200, "application/json", "{}", 0)
        time.sleep(delay)
        data = body.encode()
        try:
            self.send_response(status)
            for name, value in (headers[0] if headers else {}).items():
                self.send_header(name, value)
            if ctype:
                self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up (the timeout test)
            pass

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


@pytest.fixture
def scripted():
    Scripted.script, Scripted.seen = [], []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    httpd.daemon_threads = True
    httpd.block_on_close = False
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", Scripted
    httpd.shutdown()
    httpd.server_close()


PROBLEM = "application/problem+json"


def problem(status, detail, **extra):
    return json.dumps(
        {
            "type": "about:blank",
            "title": {409: "Conflict", 422: "Unprocessable Entity", 503: "Service Unavailable"}.get(status, "Error"),
            "status": status,
            "detail": detail,
            **extra,
        }
    )


def test_gets_are_retried_on_5xx_posts_never(scripted):
    url, handler = scripted
    client = sdk.Client(url + "/api/v1/", token="tok", admin_token="adm", backoff=0.01)
    handler.script = [
        (503, PROBLEM, problem(503, "Redis is not reachable"), 0),
        (502, "text/html", "<h1>bad gateway</h1>", 0),
        (200, "application/json", json.dumps({"status": "ok"}), 0),
    ]
    assert client.health().status == "ok" and len(handler.seen) == 3
    assert handler.seen[0][1] == "/api/v1/health"
    handler.seen.clear()
    handler.script = [(503, PROBLEM, problem(503, "try later"), 0)]
    with pytest.raises(sdk.ApiError) as err:
        client.answer("abc", {"type": "pass"})
    assert err.value.status == 503 and err.value.detail == "try later" and len(handler.seen) == 1
    assert handler.seen[0][2]["Authorization"] == "Bearer tok"
    handler.seen.clear()
    handler.script = [(422, PROBLEM, problem(422, "name: bad", errors={"json": {"name": ["bad"]}}), 0)]
    with pytest.raises(sdk.ApiError) as err:
        client.register_bot("X")
    e = err.value
    assert (e.status, e.title, e.detail) == (422, "Unprocessable Entity", "name: bad")
    assert e.errors == {"json": {"name": ["bad"]}}
    assert "Authorization" not in handler.seen[0][2] and str(e) == "422 Unprocessable Entity: name: bad"
    assert pickle.loads(pickle.dumps(e)).errors == e.errors
    handler.script = [(502, "text/html", "<h1>bad gateway</h1>", 0)] * 5
    with pytest.raises(sdk.ApiError) as err:
        client.tournaments()
    assert err.value.status == 502 and "bad gateway" in err.value.detail
    handler.script = [(201, "application/json", json.dumps({"id": "t7"}), 0)]
    assert client.create_tournament(["a", "b"], boards=2) == "t7"
    assert handler.seen[-1][2]["Authorization"] == "Bearer adm"


def test_every_call_has_a_timeout_and_unreachable_servers_raise_network_error(scripted):
    url, handler = scripted
    client = sdk.Client(url, token="tok", timeout=0.3, retries=1, backoff=0.01)
    handler.script = [(200, "application/json", "[]", 2.0)] * 2
    start = time.monotonic()
    with pytest.raises(sdk.NetworkError, match="timed out"):
        client.decisions()
    assert time.monotonic() - start < 1.5
    handler.script = [(204, None, "", 0.5)]  # a long-poll may take its wait on top of the timeout
    assert client.next_decision(wait=1) is None
    closed = sdk.Client("http://127.0.0.1:9", retries=2, backoff=0.01)
    with pytest.raises(sdk.NetworkError, match="cannot reach"):
        closed.bots()
    with pytest.raises(sdk.SdkError, match="bot token"):
        sdk.Client(url).decisions()
    with pytest.raises(sdk.SdkError, match="admin token"):
        sdk.Client(url, token="tok").create_tournament(["a", "b"])


def test_decision_parsing_and_local_deadline(scripted):
    url, handler = scripted
    raw = {
        "id": "d1",
        "observation": {"seat": "E", "hand": ["AH"], "legal": [{"type": "pass"}]},
        "legal": [{"type": "pass"}],
        "deadline": 1e9,
        "deadline_in_ms": 400,
    }
    handler.script = [(200, "application/json", json.dumps(raw), 0)]
    decision = sdk.Client(url, token="t").next_decision(wait=1)
    assert decision.id == "d1" and decision.observation.seat == "E" and decision.legal == [{"type": "pass"}]
    assert 0 < decision.seconds_left() <= 0.4 and not decision.expired
    assert decision.to_dict() == raw and "observation" not in repr(decision)
    time.sleep(0.45)
    assert decision.expired
    token = sdk.BotToken(name="a", token="secret")
    assert "secret" not in repr(token)


def test_the_lean_decision_calls_send_what_session_request_sends_and_follow_redirects(scripted):
    url, handler = scripted
    client = sdk.Client(url, token="tok")
    accepted = (200, "application/json", json.dumps({"accepted": True, "next": []}), 0)
    handler.script = [accepted, accepted]
    client.answer("d1", {"type": "pass"})  # Session.request
    assert client.answer_and_next("d1", {"type": "pass"}, wait=1, skip=["d2", "d3"]) == []  # the lean path
    (_, plain_path, plain), (_, lean_path, lean) = handler.seen
    assert lean_path == f"{plain_path}?wait=1&skip=d2&skip=d3"
    assert {k.lower(): v for k, v in lean.items()} == {k.lower(): v for k, v in plain.items()}
    handler.seen.clear()
    handler.script = [(307, None, "", 0, {"Location": "/api/v1/decisions/d1?wait=0"}), accepted]
    assert client.answer_and_next("d1", {"type": "pass"}, wait=1) == []
    assert [(m, p) for m, p, _ in handler.seen] == [
        ("POST", "/api/v1/decisions/d1?wait=1"),
        ("POST", "/api/v1/decisions/d1?wait=0"),
    ]
    with pytest.raises(sdk.NetworkError):
        client.answer_and_next("d1", {"type": "bid", "amount": float("nan")})


def test_the_environments_proxy_settings_are_read_once_and_still_honoured(monkeypatch):
    for name in ("NO_PROXY", "no_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    session = sdk.Client("http://arena.example:8000")._session()
    assert session.proxies.get("http") == "http://proxy.example:3128"
    assert session.trust_env is False  # not re-read on every request
    monkeypatch.setenv("NO_PROXY", "arena.example")
    assert "http" not in sdk.Client("http://arena.example:8000")._session().proxies


# ---------------------------------------------------------------------- 503/429 with Retry-After
def test_a_get_waits_out_retry_after_and_a_long_one_is_capped(scripted):
    url, handler = scripted
    client = sdk.Client(url, token="tok", backoff=0.001)
    handler.script = [
        (503, PROBLEM, problem(503, "retry after 2 s"), 0, {"Retry-After": "0.4"}),
        (429, PROBLEM, problem(429, "slow down"), 0, {"Retry-After": "0.2"}),
        (200, "application/json", json.dumps({"status": "ok"}), 0),
    ]
    started = time.monotonic()
    assert client.health().status == "ok" and len(handler.seen) == 3
    assert time.monotonic() - started >= 0.6
    busy = sdk.ApiError(503, retry_after=3600.0)
    assert client.delay(0, busy) == sdk.client.MAX_RETRY_AFTER
    assert client.delay(0, sdk.ApiError(503)) <= client.backoff  # no header: backoff
    handler.script = [(503, PROBLEM, problem(503, "busy"), 0, {"Retry-After": "7"})]
    with pytest.raises(sdk.ApiError) as err:
        client.answer("abc", {"type": "pass"})  # a POST is not retried by the client
    assert err.value.retry_after == 7.0 and pickle.loads(pickle.dumps(err.value)).retry_after == 7.0


def test_the_runner_reposts_an_answer_refused_with_503_after_retry_after(scripted):
    url, handler = scripted
    runner = sdk.Runner(RandomBot(), sdk.Client(url, token="tok", backoff=5.0))
    decision = sdk.Decision.parse(
        {"id": "d1", "observation": {}, "legal": [{"type": "pass"}], "deadline": 0, "deadline_in_ms": 10000}
    )
    handler.script = [
        (503, PROBLEM, problem(503, "the arena's database is not reachable"), 0, {"Retry-After": "0.3"}),
        (200, "application/json", json.dumps({"accepted": True, "next": []}), 0),
    ]
    started = time.monotonic()
    assert runner._deliver(decision, {"type": "pass"}) == ("answered", {"type": "pass"}, [])
    assert 0.3 <= time.monotonic() - started < 3  # Retry-After, not the client's 5 s backoff
    assert [seen[0] for seen in handler.seen] == ["POST", "POST"] and runner.stats["answer_retries"] == 1


# ---------------------------------------------------------------------- progress line and --until-done
def tournament(tid, status, bots=("me-bot", "random"), **extra):
    return sdk.Tournament.from_dict(
        {"id": tid, "status": status, "bots": list(bots), "pairs_done": 1, "pairs_total": 4, **extra}
    )


def test_progress_lines_and_until_done_count_only_this_runs_tournaments(monkeypatch):
    client = sdk.Client("http://127.0.0.1:9", token="tok")
    runner = sdk.Runner(RandomBot(), client)
    listings = iter(
        [
            [tournament("t1", "finished")],  # from an earlier run: not ours
            [
                tournament("t1", "finished"),
                tournament("t2", "queued"),
                tournament("t3", "running", bots=(), candidates=["other"], references=["random"]),
            ],  # not entered
            [
                tournament("t1", "finished"),
                tournament("t2", "running"),
                tournament("t4", "running", bots=(), candidates=["me-bot"], references=["random"]),
            ],
            [tournament("t1", "finished"), tournament("t2", "finished"), tournament("t4", "running")],
            [tournament("t1", "finished"), tournament("t2", "finished"), tournament("t4", "cancelled")],
        ]
    )
    monkeypatch.setattr(client, "me", lambda: sdk.BotInfo.parse({"name": "me-bot"}))
    monkeypatch.setattr(client, "tournaments", lambda **filters: next(listings))
    runner.stats.update(answered=12, illegal=1, expired=2)
    out = io.StringIO()
    progress = Progress(runner, client, every=0.01, until_done=True, out=out)
    progress.start()
    progress.join(timeout=5)
    assert progress.done and runner.stopping
    lines = out.getvalue().splitlines()
    assert lines[0] == "cinch: me-bot: 12 answered, 1 defaulted, 2 missed | t1 finished"
    assert lines[1] == "cinch: me-bot: 12 answered, 1 defaulted, 2 missed | t2 queued 1/4, t1 finished"
    assert "t4 running 1/4, t2 running 1/4" in lines[2] and "t3" not in out.getvalue()
    assert lines[-1] == "cinch: me-bot: every tournament it is entered in has ended; stopping"


def test_until_done_waits_while_only_old_tournaments_are_there(monkeypatch):
    client = sdk.Client("http://127.0.0.1:9", token="tok")
    runner = sdk.Runner(RandomBot(), client)
    monkeypatch.setattr(client, "me", lambda: sdk.BotInfo.parse({"name": "me-bot"}))
    monkeypatch.setattr(client, "tournaments", lambda **filters: [tournament("t1", "finished")])
    progress = Progress(runner, client, every=0.01, until_done=True, out=None)
    progress.start()
    time.sleep(0.2)
    assert not progress.done and not runner.stopping
    runner.stop()
    progress.join(timeout=2)


def test_tournaments_follows_the_pages_and_returns_them_newest_last(scripted):
    url, handler = scripted
    client = sdk.Client(url + "/api/v1/", backoff=0.01)
    page = [{"id": f"t{n}", "status": "finished"} for n in (5, 4)]
    more = f'<{url}/api/v1/tournaments?bot=rule&limit=100&before=t4>; rel="next"'
    handler.script = [
        (200, "application/json", json.dumps(page), 0, {"Link": more}),
        (200, "application/json", json.dumps([{"id": "t2", "status": "failed", "name": "Cup"}]), 0),
    ]
    got = client.tournaments(bot="rule")
    assert [t.id for t in got] == ["t2", "t4", "t5"] and got[0].name == "Cup"
    assert "bot=rule" in handler.seen[0][1] and "before=t4" in handler.seen[1][1] and "bot=rule" in handler.seen[1][1]
