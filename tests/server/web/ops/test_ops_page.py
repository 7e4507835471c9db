"""The operator's page in-process: signing in, the session cookie, CSRF, the re-queue
(twice: runs once), and nothing secret shown. Its browser test is ``test_ops_page_browser``."""

import re

import pytest
from rq.registry import FailedJobRegistry
from support.apiclient import ADMIN

from server.arena import registry
from server.web.app import create_app
from server.web.ops import session as ops_session
from workers import overview

SECRET_LINE = "server.engine.hand.IllegalAction: N may not play AS with Bearer abc.def in hand (cinch_" + "x" * 30 + ")"


@pytest.fixture
def app(redis_url, store):
    return create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, "ADMIN_TOKEN": ADMIN}
    ).test_client()


def failed_job(store, queue, tid="t1", mid="t1.m1"):
    """A board job as ``workers.jobs.enqueue_chunks`` makes it, failed with ``SECRET_LINE``."""
    job = queue.enqueue("workers.jobs.play_chunk", store.prefix, mid, 3, 4, meta={"tournament": tid})
    queue.remove(job)
    with store.redis.pipeline() as pipe:  # what a worker records of a job that raised
        job.set_status("failed", pipeline=pipe)
        job._handle_failure(f"Traceback (most recent call last):\n  hand = {{'N': 'KS'}}\n{SECRET_LINE}\n", pipe)
        pipe.execute()
    return job


def sign_in(app):
    r = app.post("/ops/login", data={"token": ADMIN})
    assert r.status_code == 303 and r.headers["Location"].endswith("/ops")
    cookie = r.headers["Set-Cookie"]
    assert ADMIN not in cookie
    assert re.search(r"HttpOnly", cookie) and "SameSite=Strict" in cookie and "Path=/ops" in cookie
    page = app.get("/ops")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    return page.get_data(as_text=True), re.search(r'name="csrf" value="([0-9a-f]+)"', page.get_data(as_text=True))[1]


def test_the_page_asks_for_the_admin_token_and_refuses_a_bots(app, store):
    login = app.get("/ops")
    assert (
        login.status_code == 200
        and 'type="password"' in login.get_data(as_text=True)
        and 'id="queues"' not in login.get_data(as_text=True)
    )
    bot_token = registry.register(store, "peeker")
    assert app.post("/ops/login", data={"token": bot_token}).status_code == 401
    assert "Set-Cookie" not in app.post("/ops/login", data={"token": "guess"}).headers
    app.set_cookie(ops_session.COOKIE, "forged.value.here", path="/ops")
    assert 'id="queues"' not in app.get("/ops").get_data(as_text=True)
    html, _ = sign_in(app)
    assert 'id="queues"' in html and "Redis" in html


def test_requeue_needs_the_sessions_csrf_token_and_runs_a_job_once(app, store, queue):
    job = failed_job(store, queue)
    html, csrf = sign_in(app)
    row = re.search(rf'<tr data-job="{job.id}">.*?</tr>', html, re.S)[0]
    assert "IllegalAction" in row and "t1.m1" in row and "3-4" in row
    assert "AS" not in row and "KS" not in html and "abc.def" not in html and "cinch_xxxx" not in html
    assert "Traceback" not in html
    path = f"/ops/jobs/{job.id}/requeue"
    assert app.post(path, data={}).status_code == 403  # no CSRF token
    assert app.post(path, data={"csrf": "0" * 64}).status_code == 403
    assert app.post(path, data={"csrf": csrf}, headers={"Origin": "https://evil.example"}).status_code == 403
    assert job.id in FailedJobRegistry(queue=queue).get_job_ids()  # none of those moved it
    first = app.post(path, data={"csrf": csrf})
    second = app.post(path, data={"csrf": csrf})  # a second click, or a second operator
    assert first.status_code == second.status_code == 303
    assert "outcome=requeued" in first.headers["Location"] and "outcome=not+failed" in second.headers["Location"]
    assert queue.get_job_ids() == [job.id]  # queued once: it runs once
    assert job.id not in FailedJobRegistry(queue=queue).get_job_ids()
    assert store.jobs("t1") == [job.id]  # supervised and cancelled with its tournament again
    assert "re-queued" in app.get(first.headers["Location"]).get_data(as_text=True)


def test_signing_out_ends_the_session_and_another_token_invalidates_it(app, redis_url, store):
    _, csrf = sign_in(app)
    assert app.post("/ops/logout", data={"csrf": csrf}).status_code == 303
    assert 'id="queues"' not in app.get("/ops").get_data(as_text=True)
    sign_in(app)
    rotated = create_app(
        {
            "REDIS_URL": redis_url,
            "CINCH_PREFIX": store.prefix,
            "CINCH_QUEUE": store.queue_name,
            "ADMIN_TOKEN": "another-admin-token",
        }
    ).test_client()
    rotated.set_cookie(ops_session.COOKIE, app.get_cookie(ops_session.COOKIE, path="/ops").value, path="/ops")
    assert 'id="queues"' not in rotated.get("/ops").get_data(as_text=True)


def test_the_error_shown_is_the_type_and_a_scrubbed_last_line():
    class Result:
        exc_string = f"Traceback...\n  x\n{SECRET_LINE}\n"

    class FakeJob:
        def latest_result(self):
            return Result()

    kind, message = overview.error_of(FakeJob())
    assert kind == "IllegalAction"
    assert message == "N may not play *** with Bearer *** in hand (***)"


def test_waiting_decisions_are_counts_and_ages(store):
    registry.register(store, "far")
    store.ask("far", "t9.m1", {"seat": "N", "legal": [{"type": "pass"}], "hand": ["AS"]}, 5000, 0)
    ages = store.open_ages("far")
    assert len(ages) == 1 and 0 <= ages[0] < 5
    assert store.lease_holder() is None
