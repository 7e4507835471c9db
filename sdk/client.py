"""``Client``: one method per operation of the arena's REST API (``/api/v1``).

* Every call has a timeout (``timeout`` seconds to connect and to wait for an answer;
  a long-poll waits its ``wait`` on top).
* Idempotent calls (GET) are retried on connection errors, timeouts and 5xx/429
  answers, ``retries`` times, after the server's ``Retry-After`` when it sends one (a
  503 while its Redis is away or its long-polls are full, capped at ``MAX_RETRY_AFTER``)
  and otherwise with exponential backoff and jitter. POSTs are never retried here: re-sending an answer or a registration is the caller's decision (the
  ``Runner`` does it safely, since a second answer to a decision is refused with 409).
* An error answer raises ``ApiError`` with the problem body's status, title, detail and
  field errors; an unreachable server raises ``NetworkError``.
* Results are dataclasses (``sdk.models``); observations and actions stay JSON dicts.

The client may be shared by threads (each thread gets its own HTTP session). The two
calls of a bot's loop (``next_decision``, ``answer_and_next``) take a lean path through
the same session: a request prepared from its settings and sent through its adapter, not
``Session.request`` (which merges settings, cookies and hooks anew on every call, about
a third of the SDK's CPU per decision).
"""

from __future__ import annotations

import json as _json_module
import os
import random
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import requests
from requests.__version__ import __version__ as requests_version
from requests.structures import CaseInsensitiveDict

from sdk.errors import ApiError, NetworkError, SdkError
from sdk.models import (
    BoardPair,
    BotInfo,
    BotToken,
    Decision,
    Health,
    HumanSeat,
    Leaderboard,
    Match,
    OpenedTable,
    RatingHistory,
    Results,
    Table,
    TableRecord,
    Tournament,
)

__version__ = "0.1.0"


class _Ending(Protocol):
    """What ``Client._wait`` polls: a tournament or a table."""

    @property
    def has_ended(self) -> bool: ...


_Ends = TypeVar("_Ends", bound=_Ending)

MAX_RETRY_AFTER = 30.0  # seconds: a longer Retry-After is not waited out in one go
USER_AGENT = f"cinch-sdk/{__version__} python-requests/{requests_version}"


def _base(url: str) -> str:
    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        url = "http://" + url
    if url.endswith("/api/v1"):
        url = url[: -len("/api/v1")]
    return url


class Client:
    """The arena's API. ``token`` is a bot's bearer token (decisions, rotating its own
    token); ``admin_token`` the arena's (creating tournaments, disabling bots)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        admin_token: str | None = None,
        timeout: float = 10.0,
        retries: int = 4,
        backoff: float = 0.25,
        max_backoff: float = 8.0,
    ):
        self.base_url = _base(base_url)
        self.token, self.admin_token = token, admin_token
        self.timeout, self.retries, self.backoff, self.max_backoff = timeout, retries, backoff, max_backoff
        self._local = threading.local()
        self._sessions: list[requests.Session] = []
        self._lock = threading.Lock()
        self._api_url = ("", "")  # (base_url, its /api/v1 as requests prepares it), for _lean

    def __repr__(self) -> str:
        return (
            f"Client({self.base_url!r}, token={'set' if self.token else None}, "
            f"admin_token={'set' if self.admin_token else None})"
        )

    # ------------------------------------------------------------------ plumbing
    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
            session.headers["User-Agent"] = USER_AGENT
            session.headers["Accept"] = "application/json, application/problem+json"
            # The environment's proxies and CA bundle, read once for our one server: with
            # trust_env on, requests re-reads the whole environment on every call (about
            # 0.4 ms each, a third of a bot's time per decision).
            session.proxies.update(requests.utils.get_environ_proxies(self.base_url))
            session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
            session.trust_env = False
            with self._lock:
                self._sessions.append(session)
        return session

    def close(self) -> None:
        """Close every HTTP session (the client can still be used afterwards)."""
        with self._lock:
            sessions, self._sessions = self._sessions, []
        for session in sessions:
            session.close()
        self._local = threading.local()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _auth(self, auth: str | None) -> dict[str, str]:
        if auth is None:
            return {}
        if auth == "bot":
            token = self.token
            if not token:
                raise SdkError("this call needs a bot token (Client(..., token=...))")
        elif auth == "admin":
            token = self.admin_token
            if not token:
                raise SdkError("this call needs the admin token (Client(..., admin_token=...))")
        else:  # "any": the admin's if given, else the bot's
            token = self.admin_token or self.token
            if not token:
                raise SdkError("this call needs a bot token or the admin token")
        return {"Authorization": f"Bearer {token}"}

    def delay(self, attempt: int, error: Exception | None = None) -> float:
        """Pause before retry number ``attempt`` (0-based): the server's ``Retry-After`` if
        ``error`` carries one (capped at ``MAX_RETRY_AFTER``), else exponential backoff,
        capped, with jitter."""
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:
            return min(float(retry_after), MAX_RETRY_AFTER)
        return min(self.max_backoff, self.backoff * 2.0**attempt) * random.uniform(0.5, 1.0)

    def request(
        self,
        method: str,
        path: str,
        *,
        auth: str | None = None,
        json: Any = None,
        params: dict[str, Any] | None = None,
        wait: float = 0.0,
        retry: bool | None = None,
        lean: bool = False,
    ) -> requests.Response:
        """One API call; returns the successful response or raises ``ApiError``/``NetworkError``.

        ``retry`` defaults to True for GET and False otherwise; ``wait`` is added to the
        read timeout (long-polls). ``lean``: sent as ``_lean`` does (the decision calls).
        """
        url = f"{self.base_url}/api/v1{path}"
        retry = (method.upper() == "GET") if retry is None else retry
        headers = self._auth(auth)
        attempts = self.retries + 1 if retry else 1
        timeout = (self.timeout, self.timeout + wait)
        for attempt in range(attempts):
            last = attempt == attempts - 1
            error: Exception | None = None
            try:
                if lean:
                    response = self._lean(method, path, headers, json, params, timeout)
                else:
                    response = self._session().request(
                        method, url, headers=headers, json=json, params=params, timeout=timeout
                    )
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError) as exc:
                if last:
                    raise NetworkError(f"cannot reach {self.base_url}: {_reason(exc)}", method, url) from None
            except requests.RequestException as exc:
                raise NetworkError(f"{method} {url} failed: {exc}", method, url) from None
            else:
                if response.status_code < 400:
                    return response
                error = ApiError.from_response(response)
                if last or not error.retryable:
                    raise error
            time.sleep(self.delay(attempt, error))
        raise AssertionError("unreachable")

    def _lean(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        body: Any,
        params: dict[str, Any] | None,
        timeout: tuple[float, float],
    ) -> requests.Response:
        """``Session.request`` for the decision calls, without what they never use: the
        request is built from the session's headers (its URL from ``base_url`` as requests
        prepares it, its path and query quoted here), sent through the session's adapter with the session's proxies,
        CA bundle and client certificate, and its body read. No cookies (the API sets
        none) and no hooks; a redirect (a proxy's) is followed as ``Session.send`` does."""
        session = self._session()
        if self._api_url[0] != self.base_url:
            base = requests.PreparedRequest()
            base.prepare_url(f"{self.base_url}/api/v1", None)
            self._api_url = (self.base_url, str(base.url))
        prepared = requests.PreparedRequest()
        prepared.method = method
        prepared.url = self._api_url[1] + path + (f"?{urlencode(params, doseq=True)}" if params else "")
        prepared.headers = CaseInsensitiveDict(session.headers)
        prepared.headers.update(headers)
        prepared.body = None
        if body is not None:
            try:
                prepared.body = _json_module.dumps(body, allow_nan=False).encode()
            except ValueError as exc:  # as requests refuses it: NaN, Infinity
                raise requests.exceptions.InvalidJSONError(exc) from None
            prepared.headers["Content-Type"] = "application/json"
        if body is not None or method in ("POST", "PUT", "PATCH"):
            prepared.headers["Content-Length"] = str(len(prepared.body or b""))
        prepared.hooks = {"response": []}
        prepared._cookies = session.cookies  # what a redirect's request starts from
        verify, cert, proxies = session.verify, session.cert, session.proxies
        adapter = session.get_adapter(prepared.url)
        response = adapter.send(prepared, stream=False, timeout=timeout, verify=verify, cert=cert, proxies=proxies)
        if response.is_redirect:
            followed = list(
                session.resolve_redirects(
                    response, prepared, stream=False, timeout=timeout, verify=verify, cert=cert, proxies=proxies
                )
            )
            response = followed[-1] if followed else response
        response.content  # noqa: B018  # read now, as Session.send does: the connection goes back to the pool
        return response

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.request(method, path, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise ApiError(
                response.status_code,
                "Invalid response",
                f"expected JSON from {path}, got {response.headers.get('Content-Type', 'no content type')}",
                None,
                method=method,
                url=response.url,
            ) from None

    # ------------------------------------------------------------------ health
    def health(self) -> Health:
        """Liveness: the server process answers."""
        return Health.from_dict(self._json("GET", "/health"))

    def ready(self) -> Health:
        """Readiness: the server answers and reaches Redis (503 ``ApiError`` otherwise). Not retried."""
        return Health.from_dict(self._json("GET", "/ready", retry=False))

    def wait_ready(self, timeout: float = 30.0, poll: float = 0.25) -> Health:
        """Poll ``ready`` until it succeeds; the last error is raised after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while True:
            try:
                return self.ready()
            except SdkError:
                if time.monotonic() >= end:
                    raise
            time.sleep(poll)

    def openapi(self) -> dict[str, Any]:
        """The OpenAPI document of the API."""
        document: dict[str, Any] = self._json("GET", "/openapi.json")
        return document

    # ------------------------------------------------------------------ bots
    def register_bot(self, name: str, description: str = "", invite: str | None = None) -> BotToken:
        """Register a remote bot; the token in the answer is shown this once (409 if taken;
        403 if the arena's registration is closed or needs the invitation code ``invite``)."""
        body = {
            "name": name,
            **({"description": description} if description else {}),
            **({"invite": invite} if invite else {}),
        }
        return BotToken.from_dict(self._json("POST", "/bots", json=body))

    def bots(self) -> list[BotInfo]:
        return [BotInfo.parse(b) for b in self._json("GET", "/bots")]

    def bot(self, name: str) -> BotInfo:
        return BotInfo.parse(self._json("GET", f"/bots/{_seg(name)}"))

    def me(self) -> BotInfo:
        """The bot this client's token belongs to."""
        return BotInfo.parse(self._json("GET", "/bots/me", auth="bot"))

    def rotate_token(self, name: str) -> BotToken:
        """A new token for bot ``name`` (the old one dies at once); needs that bot's token or the
        admin's. When this client's own bot token was used, the client switches to the new one."""
        using_bot = not self.admin_token
        result = BotToken.from_dict(self._json("POST", f"/bots/{_seg(name)}/token", auth="any"))
        if using_bot:
            self.token = result.token
        return result

    def disable_bot(self, name: str) -> BotInfo:
        """Disable a bot (admin): its token stops working and it cannot enter tournaments."""
        return BotInfo.parse(self._json("POST", f"/bots/{_seg(name)}/disable", auth="admin"))

    def enable_bot(self, name: str) -> BotInfo:
        """Enable a disabled bot again (admin); its token works again."""
        return BotInfo.parse(self._json("POST", f"/bots/{_seg(name)}/enable", auth="admin"))

    def trust_bot(self, name: str, trusted: bool = True) -> BotInfo:
        """Mark a remote bot trusted or not (admin): trusted bots may play two-room matches,
        where they meet every board twice; untrusted ones play only the blind movement."""
        return BotInfo.parse(
            self._json("POST", f"/bots/{_seg(name)}/trust", auth="admin", json={"trusted": bool(trusted)})
        )

    # ------------------------------------------------------------------ decisions
    def next_decision(self, wait: float = 20.0) -> Decision | None:
        """The most urgent open decision, long-polling up to ``wait`` seconds (0-25); None if none.

        The same decision is returned again until it is answered or expires.
        """
        response = self.request("GET", "/decisions/next", auth="bot", params={"wait": _num(wait)}, wait=wait, lean=True)
        if response.status_code == 204:
            return None
        return Decision.parse(response.json())

    def decisions(self) -> list[Decision]:
        """Every open decision of this bot, soonest deadline first (no waiting)."""
        return [Decision.parse(d) for d in self._json("GET", "/decisions", auth="bot")]

    def answer(self, decision: Decision | str, action: dict[str, Any]) -> bool:
        """Answer a decision. ``ApiError`` 422: illegal (may be corrected until the deadline);
        409: already answered; 410: expired; 404: unknown; 503: not delivered, post again
        after its ``retry_after`` (the ``Runner`` does). Never retried here."""
        did = decision.id if isinstance(decision, Decision) else decision
        return bool(self._json("POST", f"/decisions/{_seg(did)}", auth="bot", json=action).get("accepted"))

    def answer_and_next(
        self, decision: Decision | str, action: dict[str, Any], wait: float = 20.0, skip: Iterable[str] = ()
    ) -> list[Decision]:
        """Answer a decision and get the bot's other open decisions back in the same exchange,
        waiting up to ``wait`` seconds (0-25) for one; decisions whose ids are in ``skip``
        are left out. Errors as ``answer``. This is the cheapest loop: one request per decision.
        """
        did = decision.id if isinstance(decision, Decision) else decision
        params = {"wait": _num(wait), "skip": list(skip)}
        body = self._json(
            "POST", f"/decisions/{_seg(did)}", auth="bot", json=action, params=params, wait=wait, lean=True
        )
        return [Decision.parse(d) for d in body.get("next", [])]

    # ------------------------------------------------------------------ tournaments
    def create_tournament(
        self,
        bots: Iterable[str] | None = None,
        *,
        format: str | None = None,
        candidates: Iterable[str] | None = None,
        references: Iterable[str] | None = None,
        ruleset: str | None = None,
        options: dict[str, Any] | None = None,
        deals: str | None = None,
        first: int | None = None,
        boards: int | None = None,
        chunk: int | None = None,
        seed: int | None = None,
        limits: dict[str, int] | None = None,
        practice: bool | None = None,
        sprt: dict[str, float] | None = None,
        rounds: int | None = None,
        name: str | None = None,
        **extra: Any,
    ) -> str:
        """Create a tournament (admin) and queue its matches; returns its id.

        Round robin: ``bots``; gauntlet: ``format="gauntlet"`` with ``candidates`` and
        ``references``; blind movement: ``format="blind"`` with ``bots`` (and optionally
        the built-in ``references``). Omitted fields take the server's defaults: with a
        remote bot that is not trusted, the blind movement; with any remote bot, a fresh
        secret deal set (``practice=True`` allows a named one). ``limits`` for remote
        bots: ``decision_ms``, ``bank_ms``, ``max_timeouts``. ``sprt`` (two-room formats):
        ``delta0``, ``delta1``, ``alpha``, ``beta`` ({} for the defaults) stops each match
        as soon as its sequential test decides; ``boards`` is then the most it plays.
        Progressive Cinch: ``format="progressive"`` with ``bots`` (at least four; ``"rule#2"``
        enters ``rule`` again) and ``rounds`` (default 2T); its boards follow from its rounds.
        ``name``: a name for people (1 to 80 printable characters), shown wherever it is listed.
        """
        body: dict[str, Any] = {
            "bots": None if bots is None else list(bots),
            "format": format,
            "candidates": None if candidates is None else list(candidates),
            "references": None if references is None else list(references),
            "ruleset": ruleset,
            "options": options,
            "deals": deals,
            "first": first,
            "boards": boards,
            "chunk": chunk,
            "seed": seed,
            "limits": limits,
            "practice": practice,
            "sprt": sprt,
            "rounds": rounds,
            "name": name,
            **extra,
        }
        body = {k: v for k, v in body.items() if v is not None}
        tid: str = self._json("POST", "/tournaments", auth="admin", json=body)["id"]
        return tid

    def tournaments(self, **filters: Any) -> list[Tournament]:
        """Every tournament (or those the filters keep: ``ruleset``, ``format``, ``bot`` (a
        name or a list), ``status``, ``q`` name words), newest last, read page by page
        (the ``Link`` header's next page; a server without pages answers them all at once)."""
        found: list[Tournament] = []
        params: dict[str, Any] = {**filters, "limit": 100}
        while True:
            response = self.request("GET", "/tournaments", params=params)
            found += [Tournament.from_dict(t) for t in response.json()]
            following = response.links.get("next", {}).get("url")
            if not following:
                return sorted(found, key=lambda t: int(t.id[1:]) if t.id[1:].isdigit() else 0)
            params = {**filters, "limit": 100, "before": parse_qs(urlsplit(following).query)["before"][0]}

    def tournament_page(
        self, *, before: str | None = None, after: str | None = None, limit: int | None = None, **filters: Any
    ) -> list[Tournament]:
        """One page of tournaments, newest first: those older than ``before`` or newer than
        ``after`` (ids), at most ``limit`` (the server's default 25, at most 100), kept by
        the filters (as ``tournaments``)."""
        params = {
            k: v for k, v in {**filters, "before": before, "after": after, "limit": limit}.items() if v is not None
        }
        return [Tournament.from_dict(t) for t in self._json("GET", "/tournaments", params=params)]

    def tournament(self, tid: str) -> Tournament:
        """Settings, status and progress (board pairs done of total)."""
        return Tournament.from_dict(self._json("GET", f"/tournaments/{_seg(tid)}"))

    def cancel_tournament(self, tid: str) -> Tournament:
        """Cancel a tournament (admin): queued jobs removed, running ones stop at their next
        board; finished board pairs are kept. 409 ``ApiError`` if it is finished."""
        return Tournament.from_dict(self._json("POST", f"/tournaments/{_seg(tid)}/cancel", auth="admin"))

    def resume_tournament(self, tid: str) -> Tournament:
        """Resume an interrupted, cancelled or failed tournament (admin), playing only the
        board pairs not stored yet; resuming one the service already runs changes nothing.
        409 ``ApiError`` if it is finished or a ``cinch tournament`` command runs it."""
        return Tournament.from_dict(self._json("POST", f"/tournaments/{_seg(tid)}/resume", auth="admin"))

    def results(self, tid: str) -> Results:
        """Standings, cross-table and per-match statistics (so far, while running)."""
        return Results.parse(self._json("GET", f"/tournaments/{_seg(tid)}/results"))

    def matches(self, tid: str) -> list[Match]:
        """The matches with statistics so far, remote timeouts and faulty bots."""
        return [Match.parse(m) for m in self._json("GET", f"/tournaments/{_seg(tid)}/matches")]

    def board_pair(self, match_id: str, board: int) -> BoardPair:
        """Both rooms of a finished board of a match (404 until the board is finished in every
        match of the tournament: until then no one sees its cards)."""
        return BoardPair.parse(self._json("GET", f"/matches/{_seg(match_id)}/boards/{int(board)}"))

    def wait_for_tournament(
        self,
        tid: str,
        poll: float = 1.0,
        timeout: float | None = None,
        on_progress: Callable[[Tournament], None] | None = None,
    ) -> Tournament:
        """Poll until the tournament has ended (finished, cancelled or failed: see
        ``Tournament.has_ended``) and return it; ``TimeoutError`` after ``timeout`` seconds.
        Connection trouble is ridden out (the client's retries, then polling on)."""
        return self._wait(lambda: self.tournament(tid), f"tournament {tid}", poll, timeout, on_progress)

    def _wait(
        self,
        fetch: Callable[[], _Ends],
        what: str,
        poll: float,
        timeout: float | None,
        on_progress: Callable[[_Ends], None] | None,
    ) -> _Ends:
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                current = fetch()
            except NetworkError:
                current = None
            except ApiError as exc:
                if not exc.retryable:
                    raise
                current = None
            if current is not None:
                if on_progress:
                    on_progress(current)
                if current.has_ended:
                    return current
            if end is not None and time.monotonic() >= end:
                raise TimeoutError(f"{what} did not finish in {timeout:.0f} s")
            time.sleep(poll)

    # ------------------------------------------------------------------ tables
    def create_table(self, *args: Any, **kwargs: Any) -> str:
        """Create a table for one whole game (a bot's token or the admin's); returns its id.

        Any ruleset at any of its table sizes (``options={"players": 3}``). ``seats`` maps
        the ruleset's seats to bot names filled at once: N E S W at four players
        (``{"N": "rule"}``), P1..Pk at any other size (``{"P2": "rule", "P3": "random"}``);
        a seat the table has not is refused (``ApiError`` 422 naming its seats). The
        others stay open for ``join_table``. The game starts when every seat is taken. A
        remote bot holds seats of one side only (or every seat, self-play) unless the table
        is ``practice``: at opposing seats it would see both sides' hands. A seat for a
        person (``{"S": {"human": "Ann"}}``) needs ``open_table``, which returns its link.
        """
        return self.open_table(*args, **kwargs).id

    def open_table(
        self,
        seats: dict[str, str | dict[str, Any]] | None = None,
        *,
        ruleset: str | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        limits: dict[str, int] | None = None,
        practice: bool | None = None,
    ) -> OpenedTable:
        """``create_table``, answering the table and each human seat's private link.

        A seat ``{"human": NAME}`` (with ``"decision_ms"``, 10,000 to 600,000, default
        60,000) is a person's: open its link in a browser to play it. The link's fragment
        is the seat's capability token (it plays that seat's decisions and nothing else):
        hand it only to that person."""
        body = {
            "seats": seats,
            "ruleset": ruleset,
            "options": options,
            "seed": seed,
            "limits": limits,
            "practice": practice,
        }
        data = self._json("POST", "/tables", auth="any", json={k: v for k, v in body.items() if v is not None})
        links = {seat: self.base_url + link for seat, link in (data.get("seat_links") or {}).items()}
        return OpenedTable.from_dict(data, seat_links=links)

    def human_seat(self, tid: str) -> HumanSeat:
        """Which seat of table ``tid`` this client's token holds: a human seat's token (the
        fragment of its link) only; a bot's token is refused (``ApiError`` 403)."""
        return HumanSeat.from_dict(self._json("GET", f"/tables/{_seg(tid)}/seat", auth="bot"))

    def tables(self) -> list[Table]:
        return [Table.from_dict(t) for t in self._json("GET", "/tables")]

    def table(self, tid: str) -> Table:
        """A table as a spectator sees it (public information only while the game runs)."""
        return Table.from_dict(self._json("GET", f"/tables/{_seg(tid)}"))

    def join_table(self, tid: str, seat: str | None = None) -> Table:
        """Take ``seat`` (or the first open one) with this client's bot; 409 if taken."""
        body = {"seat": seat} if seat else {}
        return Table.from_dict(self._json("POST", f"/tables/{_seg(tid)}/join", auth="bot", json=body))

    def table_record(self, tid: str) -> TableRecord:
        """Every action of every hand, once the game is over (409 before)."""
        return TableRecord.from_dict(self._json("GET", f"/tables/{_seg(tid)}/record"))

    def wait_for_table(
        self,
        tid: str,
        poll: float = 1.0,
        timeout: float | None = None,
        on_progress: Callable[[Table], None] | None = None,
    ) -> Table:
        """Poll until the game is over; ``TimeoutError`` after ``timeout`` seconds."""
        return self._wait(lambda: self.table(tid), f"table {tid}", poll, timeout, on_progress)

    # ------------------------------------------------------------------ ratings
    def ratings(self, ruleset: str = "american62") -> Leaderboard:
        """The leaderboard of a ruleset, by estimated points per board against an average
        field, best first, each with its 95% interval."""
        return Leaderboard.parse(self._json("GET", f"/ratings/{_seg(ruleset)}"))

    leaderboard = ratings

    def rating_history(self, bot: str, ruleset: str = "american62") -> RatingHistory:
        """A bot's rating after each change in a ruleset, oldest first (the last 1,000)."""
        return RatingHistory.parse(self._json("GET", f"/ratings/{_seg(ruleset)}/{_seg(bot)}/history"))


def _seg(value: str) -> str:
    """A path segment, percent-encoded."""
    return quote(str(value), safe="")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _reason(exc: Exception) -> str:
    """A one-line reason from requests' nested connection errors."""
    text = str(exc)
    for marker in (
        "Connection refused",
        "Connection reset",
        "Remote end closed",
        "Read timed out",
        "Connection broken",
        "Connection aborted",
        "timed out",
        "Name or service not known",
    ):
        if marker in text:
            return marker.lower()
    return text.splitlines()[0][:200] if text else type(exc).__name__
