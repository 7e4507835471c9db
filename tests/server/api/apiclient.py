"""Test helpers for the API suite: a small HTTP client, a remote bot thread, waiting."""

import threading
import time
from random import Random

import pytest
import requests

from server.engine.playout import random_action

ADMIN = "test-admin-token"


class Api:
    """A tiny client for tests: base URL plus bearer tokens."""

    def __init__(self, base):
        self.base = base
        self.http = requests.Session()

    def call(self, method, path, token=None, **kwargs):
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.request(method, self.base + path, headers=headers, timeout=60, **kwargs)

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
                bad = self.api.call("POST", f"/api/v1/decisions/{decision['id']}", self.token,
                                    json={"type": "play", "card": "1X"})
                self.refused.append(bad.status_code)
            action = random_action(decision["legal"], self.rng)
            self.api.call("POST", f"/api/v1/decisions/{decision['id']}", self.token, json=action)


def wait_finished(api, tid, timeout=180):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t = api.call("GET", f"/api/v1/tournaments/{tid}").json()
        if t["status"] == "finished":
            return t
        time.sleep(0.2)
    pytest.fail(f"tournament {tid} did not finish")
