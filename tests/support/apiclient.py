"""Test helpers for the API suite: a small HTTP client, a remote bot thread, waiting."""

import threading
import time
from random import Random
from urllib.parse import urlsplit

import requests
import schemathesis
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from server.engine.playout import random_action
from support.waiting import STALL, Stall

ADMIN = "test-admin-token"


class Api:
    """A tiny client for tests: base URL plus bearer tokens. Every response to an
    operation of the API is checked against the schema the server's own OpenAPI
    document gives for it (by schemathesis); what does not match is kept in
    ``violations``, which the fixtures assert empty when the test ends, so a response
    that breaks the contract fails any test that sees it, background threads included."""

    def __init__(self, base):
        self.base = base
        self.http = requests.Session()
        # A kept-alive connection the server closes (gunicorn's keep-alive timeout) just as a
        # request goes out is reset; browsers and the SDK send such a request again, so the
        # tests' GETs do too. Nothing else is retried: a POST may have been taken.
        idempotent = Retry(total=2, connect=2, read=2, status=0, allowed_methods={"GET", "HEAD"}, raise_on_status=False)
        self.http.mount("http://", HTTPAdapter(max_retries=idempotent))
        self.violations = []
        self._contract = None

    def call(self, method, path, token=None, **kwargs):
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = self.http.request(method, self.base + path, headers=headers, timeout=60, **kwargs)
        self.check(method, response)
        return response

    def check(self, method, response):
        """Record the response's departures from its documented schema, if any."""
        path = urlsplit(response.url).path
        if not path.startswith("/api/v1/") or path == "/api/v1/openapi.json":
            return
        if self._contract is None:
            self._contract = schemathesis.openapi.from_url(self.base + "/api/v1/openapi.json")
        operation = self._contract.find_operation_by_path(method.upper(), path)
        if operation is None:
            return
        try:
            operation.validate_response(response)
        except (Exception, BaseExceptionGroup) as exc:  # schemathesis's failures: one, or a group of them
            self.violations.append(f"{method} {path} -> {response.status_code}: {exc}\n{response.text[:500]}")

    def register(self, name):
        r = self.call("POST", "/api/v1/bots", json={"name": name})
        assert r.status_code == 201, r.text
        return r.json()["token"]


class RemoteBot(threading.Thread):
    """A remote bot over HTTP: long-polls, answers with a random legal action, keeps a log."""

    def __init__(self, api, token, seed=0, illegal_first=False, silent=False, gate=None):
        """``gate``: an Event; until it is set the bot takes its decisions and holds them."""
        super().__init__(daemon=True)
        self.api, self.token, self.rng = api, token, Random(seed)
        self.illegal_first, self.silent, self.gate = illegal_first, silent, gate
        self.stop = threading.Event()
        self.seen, self.refused, self.errors = [], [], []

    def run(self):
        while not self.stop.is_set():
            try:
                r = self.api.call("GET", "/api/v1/decisions/next", self.token, params={"wait": 1})
            except requests.RequestException as exc:
                self.errors.append(str(exc))
                time.sleep(0.2)
                continue
            if r.status_code == 204:
                continue
            if r.status_code != 200:
                self.errors.append(r.text)
                continue
            decision = r.json()
            self.seen.append(decision)
            if self.silent:
                time.sleep(0.5)
                continue
            while self.gate is not None and not self.gate.wait(0.2):
                if self.stop.is_set():
                    return
            if self.illegal_first:
                bad = self.api.call(
                    "POST", f"/api/v1/decisions/{decision['id']}", self.token, json={"type": "play", "card": "1X"}
                )
                self.refused.append(bad.status_code)
            action = random_action(decision["legal"], self.rng)
            self.api.call("POST", f"/api/v1/decisions/{decision['id']}", self.token, json=action)


def wait_finished(api, tid, stall=STALL):
    """The tournament once finished; the test fails once ``stall`` seconds pass with no
    board pair stored and no change of status."""
    stalled = Stall(f"tournament {tid} to finish", stall)
    while (t := api.call("GET", f"/api/v1/tournaments/{tid}").json())["status"] != "finished":
        stalled((t["status"], t["pairs_done"]))
        time.sleep(0.2)
    return t
