"""The remote decision loop in one process, for counting instructions where CPU seconds
are too noisy (a shared machine): run it under callgrind twice and take the difference.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/remote_steps.py 100
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/remote_steps.py 400

(the "Collected" line of each; (I400 - I100) / 300 is one decision's instructions, start-up
cancelled out). A thread plays the thin bot on the app through Flask's test client (no
gunicorn: its HTTP parsing is not in the count): it answers with the first legal action
and waits in the answer for the next decision. The main thread plays the worker: it asks
(``Store.ask``, which publishes the wake-up the app's listener thread delivers) and pops
the answer, as ``RemoteAgent.decide`` does. So a step is one decision of each role but the
bot's HTTP client. Uses ``REDIS_URL`` if set, else an embedded Redis.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import uuid
from pathlib import Path

from server.arena import registry
from server.arena.store import Store
from server.engine import HandState, generate_board, make_ruleset, observation
from server.web.app import create_app
from workers.embedded import EmbeddedRedis


def main(steps: int) -> None:
    embedded = None if os.environ.get("REDIS_URL") else EmbeddedRedis(Path(tempfile.mkdtemp()))
    url = os.environ.get("REDIS_URL") or embedded.acquire()  # type: ignore[union-attr]
    prefix = f"steps{uuid.uuid4().hex[:8]}"
    app = create_app({"REDIS_URL": url, "CINCH_PREFIX": prefix})
    store: Store = app.extensions["cinch"].store
    token = registry.register(store, "b1")
    state = HandState(make_ruleset("american62"), generate_board("steps", 1))
    obs = observation(state, state.seat_to_act())
    headers = {"Authorization": f"Bearer {token}"}

    def bot() -> None:
        client = app.test_client()
        decision = client.get("/api/v1/decisions/next?wait=5", headers=headers).get_json()
        for _ in range(steps):
            body = client.post(f"/api/v1/decisions/{decision['id']}?wait=5", json=decision["legal"][0], headers=headers)
            found = body.get_json()["next"]
            if not found:
                return
            decision = found[0]

    player = threading.Thread(target=bot)
    player.start()
    try:
        for _ in range(steps):
            asked = store.ask("b1", "m1", obs, 5000, 0)
            assert asked is not None
            did, now, deadline = asked
            answer = store.await_answer(did, "b1", deadline, now)
            assert answer == json.loads(json.dumps(obs["legal"][0])), answer
        store.ask("b1", "m1", obs, 5000, 0)  # the bot's last answer waits for one more
        player.join(timeout=30)
    finally:
        keys = list(store.redis.scan_iter(match=f"{prefix}:*"))
        if keys:
            store.redis.delete(*keys)
        if embedded is not None:
            embedded.release()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
