"""Jobs' heartbeat: it must outlive a Redis outage, or the supervisor would take a
running job for dead and hand its boards to another (seen when Redis was restarted
under a ``cinch tournament``: the heartbeat thread died on the worker's RedisLost)."""

import threading
import time

from server.arena import dealsets, registry
from server.arena.tournaments import plan_matches, validate
from workers import jobs
from workers.bots import BUILTIN, PLAYABLE, SearchBot


class RedisLost(SystemExit):
    """What a worker run as ``python -m workers.worker`` raises: ``__main__.RedisLost``,
    not the class ``workers.worker`` defines, so only its SystemExit base can catch it."""


class FlakyStore:
    """Raises a RedisLost on the first beats, as during a Redis restart."""

    def __init__(self, failures):
        self.failures, self.beats = failures, 0
        self.lock = threading.Lock()

    def job_alive(self, job_id, ttl_ms):
        pass

    def job_key(self, job_id):
        return f"job:{job_id}"

    def keep(self, holder, keys, ttl_ms):
        with self.lock:
            self.beats += 1
            if self.beats <= self.failures:
                raise RedisLost("ConnectionError: Connection refused")


def test_the_heartbeat_beats_on_after_redis_comes_back(monkeypatch):
    monkeypatch.setattr(jobs, "HEARTBEAT_SECONDS", 0.01)
    store = FlakyStore(failures=3)
    with jobs.Heartbeat(store, "j1") as beat:
        deadline = time.monotonic() + 5
        while store.beats < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert beat._thread.is_alive() and store.beats >= 6
    assert not beat._thread.is_alive()


def test_closing_during_an_outage_leaves_the_claims_to_expire(monkeypatch):
    monkeypatch.setattr(jobs, "HEARTBEAT_SECONDS", 60)
    store = FlakyStore(failures=10)
    with jobs.Heartbeat(store, "j2"):
        pass  # the closing keep() meets RedisLost: no error
    assert store.beats == 1


def test_a_job_notices_between_rooms_that_its_tournament_was_cancelled(store, monkeypatch):
    monkeypatch.setattr(jobs.Halted, "LIVE_CHECK_SECONDS", 0.05)
    deals = dealsets.generate("halted", 2)
    spec = validate({"bots": ["random", "rule"], "boards": 2, "deals": deals.name}, registry.builtin_roster(BUILTIN))
    store.put_dealset(deals)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    worker_stopping = []
    halted = jobs.Halted(store, tid, lambda: bool(worker_stopping))
    assert not halted() and store.is_live(tid)
    store.stop_tournament(tid, "cancelled")
    time.sleep(0.1)
    assert halted() and not store.is_live(tid)
    assert jobs.Halted(store, tid, lambda: True)(), "a stopping worker halts at once"


def test_a_blind_job_plays_its_par_rooms_before_the_entrants_first_decision(store, monkeypatch):
    """Played before each board's own room, a par room would delay the entrant's first
    decision on exactly the boards it is the first to meet: a timing tell. Skipped when
    stored already, it would shorten the wait of a job that is not the first: one too."""
    from server.arena.duplicate import play_par_room
    from server.arena.formats import blind, kind_of
    from server.arena.formats.base import PlayContext
    from server.engine import make_ruleset
    from workers import luck
    from workers.bots import make_bot

    deals = dealsets.generate("par-first", 6)
    store.put_dealset(deals)
    roster = registry.builtin_roster(["random", "rule"])
    spec = validate({"bots": ["random"], "format": "blind", "boards": 6, "deals": deals.name}, roster)
    tid = store.create_tournament(spec, plan_matches(spec), "test", 60_000)
    match = store.match(store.match_ids(tid)[0])
    pars_at_first_decision = []

    class Entrant:
        def __init__(self):
            self.bot = make_bot("random", 1)

        def decide(self, view):
            if not pars_at_first_decision:
                pars_at_first_decision.append([store.par_room(tid, n) is not None for n in range(1, 7)])
            return self.bot.decide(view)

    agents = {"random": Entrant(), "rule": make_bot("rule", 1)}
    ctx = PlayContext(store, make_ruleset("american62"), match, agents.__getitem__, lambda: False, luck)
    played_pars = []
    monkeypatch.setattr(blind, "play_par_room", lambda *a: played_pars.append(a[2]) or play_par_room(*a))
    records = list(kind_of(match).play(ctx, [(n, deals.board(n)) for n in (4, 1, 6, 2, 5, 3)]))
    assert [r["board"] for r in records] == [4, 1, 6, 2, 5, 3], "in the order given"
    assert pars_at_first_decision == [[True] * 6]
    stored = [store.par_room(tid, n) for n in range(1, 7)]

    # a second job on the same boards, second to meet them all, does the same work before
    # its first decision, and every entrant is still scored against the first par rooms
    played_pars.clear()
    again = list(kind_of(match).play(ctx, [(n, deals.board(n)) for n in (2, 5)]))
    assert played_pars == [2, 5]
    assert [r["rooms"][1] for r in again] == [stored[1], stored[4]]


def test_a_level_of_a_built_in_bot_is_seated_as_that_bot_not_as_a_local_one(store):
    """``search:strong`` has the form of ``package.module:Class``; a tournament run by the CLI
    seats it as the search bot with ten times the budget (it was refused as a local bot)."""
    registry.ensure_builtins(store, PLAYABLE)
    spec = validate({"bots": ["rule", "search:strong"], "boards": 1}, registry.roster(store))
    assert spec["bots"] == ["rule", "search:strong"] and "local" not in spec
    seat = jobs.agent_for(store, "search:strong", {"id": "t1.m1", "seed": 3})
    assert isinstance(seat, SearchBot) and seat.samples == 10 * jobs.make_bot("search", 3).samples
