"""``GET /metrics`` and the JSON logs of a real arena: gunicorn (two processes), two RQ
workers and the supervisor, all writing to one multiprocess directory, while a remote
bot plays a tournament and a silent one times out in another.

The metrics are scraped with the admin token before and after, and the counters must
have moved (decisions answered, boards stored, jobs finished, 2xx responses, timeouts
and default actions); without the token, or with a bot's, ``/metrics`` is refused. The
logs of every process must be JSON lines; the API's carry a request id, the jobs' their
tournament and match; and no token nor any card a bot was dealt appears anywhere.
"""

import json
import os
import re

import pytest
from prometheus_client.parser import text_string_to_metric_families
from support.apiclient import ADMIN, RemoteBot, wait_finished
from support.apiserver import server_log, start_api, stop_api

from workers.local import ProcessGroup, worker_command
from workers.supervisor import supervisor_command

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def scrape(api):
    """Every sample of ``/metrics`` as {(name, sorted labels): value}."""
    r = api.call("GET", "/metrics", ADMIN)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain"), r.text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def total(samples, name, **labels):
    """The sum of a metric's samples whose labels include ``labels``."""
    return sum(v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= set(ls))


@pytest.fixture
def arena(redis_url, store, tmp_path):
    """The API, two workers and the supervisor on one multiprocess directory, each logging to its own file."""
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "CINCH_LOG_FORMAT": "json"}
    api = start_api(redis_url, store, PROMETHEUS_MULTIPROC_DIR=str(metrics_dir), CINCH_LOG_FORMAT="json")
    logs = {"api": api}
    with ProcessGroup() as back:
        for n in (1, 2):
            name = f"{store.prefix}-w{n}"
            logs[name] = tmp_path / f"{name}.log"
            back.spawn(
                name,
                worker_command(redis_url, store.queue_name, name, "INFO"),
                env=env,
                stdout=open(logs[name], "wb"),
                stderr=open(logs[name], "ab"),
            )
        logs["supervisor"] = tmp_path / "supervisor.log"
        back.spawn(
            "supervisor",
            supervisor_command(redis_url, store.prefix, store.queue_name),
            env=env,
            stderr=open(logs["supervisor"], "wb"),
        )
        api.logs = logs
        yield api
    stop_api(api)


def log_lines(api):
    """(process, line) of every process's stderr."""
    out = []
    for name, where in api.logs.items():
        text = server_log(where) if name == "api" else where.read_text(errors="replace")
        out += [(name, line) for line in text.splitlines() if line.strip()]
    return out


def play(api, bot_name, limits=None, **bot):
    token = api.register(bot_name)
    player = RemoteBot(api, token, seed=3, **bot)
    player.start()
    body = {"bots": [bot_name, "random"], "boards": 2, "chunk": 1}
    if limits:
        body["limits"] = limits
    created = api.call("POST", "/api/v1/tournaments", ADMIN, json=body)
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    try:
        wait_finished(api, tid)
    finally:
        player.stop.set()
        player.join(timeout=5)
    assert not player.errors, player.errors
    return tid, token, player


def test_metrics_move_and_logs_are_json_with_ids_and_no_secrets(arena, store):
    api = arena
    assert api.call("GET", "/metrics").status_code == 401
    before = scrape(api)
    assert total(before, "cinch_redis_up") == 1 and total(before, "cinch_redis_used_memory_bytes") > 0

    tid, token, player = play(api, "counted", illegal_first=True)
    slow_tid, slow_token, sleeper = play(
        api, "sleeper", limits={"decision_ms": 100, "bank_ms": 0, "max_timeouts": 1}, silent=True
    )
    assert api.call("GET", "/metrics", token).status_code == 403  # a bot's token reads no metrics
    after = scrape(api)

    def moved(name, **labels):
        return total(after, name, **labels) - total(before, name, **labels)

    answered = moved("cinch_decisions_answered_total")
    assert answered >= len(player.seen) - 1 > 0  # the last one may be answered as the match ends
    assert moved("cinch_decisions_served_total") >= answered + 1  # and the sleeper's, unanswered
    assert moved("cinch_decision_seconds_count") == answered
    stored = sum(len(store.stored_boards(mid)) for t in (tid, slow_tid) for mid in store.match_ids(t))
    assert moved("cinch_boards_stored_total") == stored == 8  # blind: each bot's match against the par room
    assert moved("cinch_jobs_started_total") == moved("cinch_jobs_finished_total") >= 8  # chunks of one board
    assert moved("cinch_decision_timeouts_total") >= 2  # the sleeper's until it is faulty
    assert moved("cinch_default_actions_total", reason="timeout") > 2  # faulty: default actions without waiting
    assert moved("cinch_http_responses_total", route="/api/v1/decisions/<decision_id:decision_id>", status="2xx") > 0
    assert moved("cinch_http_responses_total", route="/api/v1/decisions/<decision_id:decision_id>", status="4xx") > 0
    assert moved("cinch_http_responses_total", route="/api/v1/tournaments", method="POST", status="2xx") == 2
    assert total(after, "cinch_redis_keys") > 0
    assert total(after, "cinch_long_polls_open") >= 0
    assert moved("cinch_ratings_refresh_seconds_count") >= 2  # once per tournament finished
    assert {"cinch_jobs_failed_total", "cinch_jobs_requeued_total"} <= {n for n, _ in after}
    for (_, labels), _ in after.items():  # no bot, match or tournament in any label
        for _, value in labels:
            assert "counted" not in value and "sleeper" not in value and not re.fullmatch(r"t\d+(\.m\d+)?", value)

    lines = log_lines(api)
    entries = []
    for process, line in lines:
        try:
            entries.append((process, json.loads(line)))
        except ValueError:
            pytest.fail(f"{process} logged a line that is not JSON: {line!r}")
    api_lines = [e for p, e in entries if e["logger"].startswith("cinch.api")]
    assert api_lines and all(re.fullmatch(r"[0-9a-f]{32}", e["request_id"]) for e in api_lines), api_lines[:3]
    assert any("refused POST /api/v1/decisions/" in e["message"] and "422" in e["message"] for e in api_lines)
    job_lines = [e for p, e in entries if e["logger"] in ("cinch.jobs", "cinch.remote", "cinch.duplicate")]
    assert {e["tournament"] for e in job_lines} == {tid, slow_tid}
    assert all(e["match"].startswith(e["tournament"] + ".") for e in job_lines)
    assert any("did not answer" in e["message"] for e in job_lines)
    assert any("default action was played" in e["message"] for e in job_lines)
    in_jobs = [e for _, e in entries if "job" in e]  # rq's own lines of a job too
    assert any(e["logger"].startswith("rq.") for e in in_jobs)
    assert all(e["tournament"] in (tid, slow_tid) and e["match"].startswith(e["tournament"]) for e in in_jobs)

    text = "\n".join(line for _, line in lines)
    assert token not in text and slow_token not in text and ADMIN not in text
    cards = {c for d in player.seen + sleeper.seen for c in d["observation"].get("hand", [])}
    assert cards
    assert not re.search(r"\b(" + "|".join(map(re.escape, cards)) + r")\b", text), "a card reached the logs"


def test_an_incoming_request_id_is_kept_and_a_bad_one_replaced(api):
    kept = api.call("GET", "/api/v1/health", headers={"X-Request-Id": "proxy-1234abcd"})
    assert kept.headers["X-Request-Id"] == "proxy-1234abcd"
    for bad in ("short", "bad id with spaces", "x" * 300):
        made = api.call("GET", "/api/v1/health", headers={"X-Request-Id": bad}).headers["X-Request-Id"]
        assert re.fullmatch(r"[0-9a-f]{32}", made)
