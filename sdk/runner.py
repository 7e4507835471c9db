"""``Runner``: serve every seat a bot holds, until stopped.

Decisions are found two ways. Each answer is posted so that its response carries the
bot's next open decisions (one lane at a time listens there for up to ``follow_wait``
seconds), so a bot in steady play makes one HTTP exchange per decision and serves the
next decision in the same thread. A poller thread covers the rest: a long-poll on
``/decisions/next`` while nothing is in hand, and a look at the full ``/decisions`` list
every ``busy_poll`` seconds while the bot is deciding and no answer is listening (a bot
seated in several matches at once). New decisions go to a thread pool, so concurrent
matches are answered concurrently.

* **Never twice.** Decision ids in flight or finished are remembered; a decision is
  handed to the bot once. A re-posted answer that meets 409 (the first post got
  through but its response was lost) counts as delivered.
* **Never dropped.** An answer that cannot be delivered (connection refused or reset,
  5xx, a 503 or 429 meaning "not taken, come back after ``Retry-After``") is re-posted
  for as long as the decision's deadline lasts (plus ``DEADLINE_GRACE``), after the
  server's ``Retry-After`` when it gives one and with backoff otherwise. The deadline a
  decision shows is the per-decision limit only; the server takes later answers while
  the bot has time bank left in that match, without saying how much. So a decision is
  always decided and its answer posted, however late (only a 410 says it is too late):
  the bank covers a slow bot, and network trouble up to ``DEADLINE_GRACE`` past the
  shown deadline. An
  answer refused as illegal (422), or a bot that raises, is replaced by the first legal
  action, the same default the server would apply, but in time. Decisions that came
  back with a lost response are still open on the server and found by the poller.
* **Reconnects.** Network errors and server restarts are ridden out with exponential
  backoff (capped at ``max_backoff``), or as long as a 503's ``Retry-After`` says; a rejected token (401/403) stops the runner
  with that ``ApiError``, since retrying cannot help.
* **Stops cleanly** on ``stop()``, on SIGINT (Ctrl-C) or SIGTERM when run in the main
  thread: no new decision is taken, the ones in hand are finished (one more delivery
  attempt each, with no listening), and ``run`` returns its counters.
"""

from __future__ import annotations

import logging
import random
import signal
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import FrameType
from typing import Any

from sdk.bot import Bot, as_bot
from sdk.client import MAX_RETRY_AFTER, Client
from sdk.errors import ApiError, NetworkError, SdkError
from sdk.models import Decision
from sdk.observation import Action, first_action

log = logging.getLogger("cinch.sdk")

REMEMBER_SECONDS = 2 * 3600  # the server forgets a decision after an hour
DEADLINE_GRACE = 1.0  # keep re-posting a little past the shown deadline (the bank may cover it)
LISTEN_CHECK = 0.25  # how often the poller looks again while an answer listens


class Runner:
    def __init__(
        self,
        bot: Any,
        client: Client,
        *,
        threads: int = 8,
        wait: float = 20.0,
        max_backoff: float = 10.0,
        busy_poll: float = 0.05,
        follow_wait: float = 2.0,
        on_answer: Callable[[Decision, Action, str], None] | None = None,
    ):
        if not client.token:
            raise SdkError("the runner needs a bot token (Client(..., token=...))")
        self.bot: Bot = as_bot(bot)
        self.client = client
        self.threads, self.wait, self.max_backoff, self.busy_poll = threads, min(wait, 25.0), max_backoff, busy_poll
        self.follow_wait = min(follow_wait, 25.0)
        self.on_answer = on_answer
        self.stats: Counter[str] = Counter()
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._inflight: set[str] = set()
        self._done: OrderedDict[str, float] = OrderedDict()
        self._wake = threading.Event()
        self._listening = 0  # answers in flight that wait for the next decision
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ control
    def stop(self) -> None:
        """Ask the runner to stop; ``run`` returns once the decisions in hand are finished."""
        self._stop.set()
        self._wake.set()

    def _count(self, key: str) -> None:
        with self._lock:
            self.stats[key] += 1

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def wait_stop(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the runner to be stopped; True if it is."""
        return self._stop.wait(timeout)

    def start(self) -> Runner:
        """Run in a background thread (no signal handling); ``stop()`` then ``join()``."""
        self._thread = threading.Thread(target=self._run_quietly, name="cinch-runner", daemon=True)
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _run_quietly(self) -> None:
        try:
            self.run()
        except SdkError:
            pass  # kept in self.error

    def run(self) -> dict[str, int]:
        """Serve decisions until stopped; returns the counters (answered, illegal, ...).

        Raises the ``ApiError`` that stopped it if the token was refused.
        """
        pool = ThreadPoolExecutor(self.threads, thread_name_prefix="cinch-decide")
        poller = threading.Thread(target=self._poll_loop, args=(pool,), name="cinch-poller", daemon=True)
        restore = self._install_signals()
        log.info("serving decisions from %s with %d threads", self.client.base_url, self.threads)
        poller.start()
        try:
            while not self._stop.wait(0.25):
                pass
        except KeyboardInterrupt:
            log.info("interrupted")
        finally:
            self._stop.set()
            self._wake.set()
            pool.shutdown(wait=True, cancel_futures=True)
            poller.join(timeout=0.5)  # it may sit in a long-poll; it is a daemon and exits on its own
            restore()
        log.info("stopped: %s", ", ".join(f"{k} {v}" for k, v in sorted(self.stats.items())) or "nothing done")
        if self.error is not None:
            raise self.error
        return dict(self.stats)

    def _install_signals(self) -> Callable[[], None]:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}

        def handler(signum: int, frame: Any) -> None:
            log.info("%s: stopping (again to force)", signal.Signals(signum).name)
            self.stop()
            signal.signal(signum, previous.get(signum) or signal.SIG_DFL)

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                previous[sig] = signal.signal(sig, handler)
            except (ValueError, OSError):
                pass

        def restore() -> None:
            for sig, old in previous.items():
                try:
                    signal.signal(sig, old if old is not None else signal.SIG_DFL)
                except (ValueError, OSError):
                    pass

        return restore

    # ------------------------------------------------------------------ finding decisions
    def _backoff(self, failures: int) -> float:
        return min(self.max_backoff, 0.25 * 2.0**failures) * random.uniform(0.5, 1.0)

    def _poll_loop(self, pool: ThreadPoolExecutor) -> None:
        failures, down_since = 0, None
        while not self._stop.is_set():
            with self._lock:
                busy, listening = bool(self._inflight), self._listening > 0
            if busy and listening:  # an answer's response will bring what comes next
                self._wake.wait(LISTEN_CHECK)
                self._wake.clear()
                continue
            try:
                if busy:
                    found = self.client.decisions()
                else:
                    first = self.client.next_decision(wait=self.wait)
                    found = [first] if first else []
                    if first:
                        try:
                            found = self.client.decisions() or found
                        except SdkError:
                            pass
            except ApiError as exc:
                if exc.status in (401, 403):
                    log.error("the server refused the bot token: %s", exc)
                    self.error = exc
                    self.stop()
                    return
                failures, down_since = self._note_failure(exc, failures, down_since)
                continue
            except NetworkError as exc:
                failures, down_since = self._note_failure(exc, failures, down_since)
                continue
            except Exception as exc:  # a bug or a surprise: keep serving
                log.exception("unexpected error while polling")
                failures, down_since = self._note_failure(exc, failures, down_since)
                continue
            if down_since is not None:
                self._count("reconnects")
                log.warning("reconnected to %s after %.1f s", self.client.base_url, time.monotonic() - down_since)
            failures, down_since = 0, None
            fresh = self._claim(found)
            self._submit(pool, fresh)
            if busy and not fresh:
                self._wake.wait(self.busy_poll)
                self._wake.clear()

    def _note_failure(self, exc: Exception, failures: int, down_since: float | None) -> tuple[int, float | None]:
        retry_after = getattr(exc, "retry_after", None)  # a 503 or 429 says when to come back
        delay = self._backoff(failures) if retry_after is None else min(retry_after, MAX_RETRY_AFTER)
        self._count("poll_errors")
        if down_since is None:
            log.warning("cannot poll %s (%s); retrying with backoff", self.client.base_url, exc)
            down_since = time.monotonic()
        else:
            log.debug("still failing (%s); next try in %.1f s", exc, delay)
        self._stop.wait(delay)
        return failures + 1, down_since

    def _submit(self, pool: ThreadPoolExecutor, decisions: list[Decision]) -> None:
        """Hand claimed decisions to the pool; any it cannot take are released."""
        for i, decision in enumerate(decisions):
            try:
                if self._stop.is_set():
                    raise RuntimeError("stopping")
                pool.submit(self._handle, decision, pool)
            except RuntimeError:  # stopping, or the pool is shutting down
                with self._lock:
                    self._inflight.difference_update(d.id for d in decisions[i:])
                return

    def _claim(self, found: list[Decision]) -> list[Decision]:
        """The decisions not seen before, now marked in flight."""
        now = time.monotonic()
        fresh = []
        with self._lock:
            while self._done and next(iter(self._done.values())) < now - REMEMBER_SECONDS:
                self._done.popitem(last=False)
            for decision in found:
                if decision.id in self._inflight or decision.id in self._done:
                    continue
                self._inflight.add(decision.id)
                fresh.append(decision)
        return fresh

    def seen(self, decision_id: str) -> bool:
        with self._lock:
            return decision_id in self._inflight or decision_id in self._done

    # ------------------------------------------------------------------ answering
    def _handle(self, decision: Decision, pool: ThreadPoolExecutor) -> None:
        """Serve a decision, then whatever the answer brought back, in this thread."""
        current: Decision | None = decision
        while current is not None:
            fresh = self._claim(self._serve(current))
            current = fresh[0] if fresh and not self._stop.is_set() else None
            self._submit(pool, fresh[1:] if current is not None else fresh)
        self._wake.set()

    def _serve(self, decision: Decision) -> list[Decision]:
        """Decide and answer one decision; returns the open decisions the answer brought back."""
        outcome = "error"
        found: list[Decision] = []
        action: Action = {}
        try:
            self._count("decisions")
            action = self._decide(decision)
            outcome, action, found = self._deliver(decision, action)
        except Exception:
            log.exception("unexpected error answering decision %s", decision.id)
        finally:
            with self._lock:
                self._inflight.discard(decision.id)
                self._done[decision.id] = time.monotonic()
            self._count(outcome)
        if self.on_answer is not None:
            try:
                self.on_answer(decision, action, outcome)
            except Exception:
                log.exception("on_answer callback failed")
        return found

    def _decide(self, decision: Decision) -> Action:
        try:
            action = self.bot.respond(decision)
            if not isinstance(action, dict):
                raise SdkError(f"act() returned {type(action).__name__}, not an action dict")
            return action
        except Exception as exc:
            self._count("bot_errors")
            log.error(
                "the bot failed on decision %s (%s: %s); answering with the first legal action",
                decision.id,
                type(exc).__name__,
                exc,
                exc_info=log.isEnabledFor(logging.DEBUG),
            )
            return first_action(decision.legal)

    def _post(self, decision: Decision, action: Action) -> list[Decision]:
        """Post the answer; unless another answer is listening already (or we are stopping),
        wait in the same exchange for the bot's next decision."""
        with self._lock:
            listen = self._listening == 0 and not self._stop.is_set()
            self._listening += listen
            skip = [i for i in self._inflight if i != decision.id]
        try:
            return self.client.answer_and_next(decision.id, action, wait=self.follow_wait if listen else 0, skip=skip)
        finally:
            if listen:
                with self._lock:
                    self._listening -= 1

    def _deliver(self, decision: Decision, action: Action) -> tuple[str, Action, list[Decision]]:
        """Post until delivered or hopeless; returns (outcome, the action finally sent, what came back)."""
        attempt = 0
        while True:
            try:
                return "answered", action, self._post(decision, action)
            except ApiError as exc:
                if exc.status == 409:
                    return "already_answered", action, []
                if exc.status == 410:
                    log.warning("decision %s expired before the answer arrived", decision.id)
                    return "expired", action, []
                if exc.status == 404:
                    log.warning("decision %s is unknown to the server", decision.id)
                    return "unknown", action, []
                if exc.status in (401, 403):
                    log.error("the server refused the bot token: %s", exc)
                    self.error = exc
                    self.stop()
                    return "refused", action, []
                if exc.status in (400, 422):
                    fallback = first_action(decision.legal)
                    if action == fallback:
                        log.error("the server refused the first legal action for %s: %s", decision.id, exc)
                        return "illegal", action, []
                    self._count("illegal")
                    log.warning(
                        "illegal action %s for decision %s (%s); answering with %s instead",
                        action,
                        decision.id,
                        exc.detail or exc,
                        fallback,
                    )
                    action = fallback
                    continue
                error: Exception = exc
            except NetworkError as exc:
                error = exc
            left = decision.seconds_left() + DEADLINE_GRACE
            if self._stop.is_set() or left <= 0:
                log.warning("could not deliver the answer to decision %s: %s", decision.id, error)
                return "undelivered", action, []
            self._count("answer_retries")
            if attempt == 0:
                log.warning("answer to decision %s not delivered (%s); retrying until its deadline", decision.id, error)
            else:
                log.debug("answer to decision %s not delivered (%s), attempt %d", decision.id, error, attempt + 1)
            self._stop.wait(min(self.client.delay(attempt, error), left))  # a 503's Retry-After first
            attempt += 1


def run(bot: Any, client: Client, **options: Any) -> dict[str, int]:
    """Serve ``bot``'s decisions through ``client`` until stopped (see ``Runner``)."""
    return Runner(bot, client, **options).run()
