"""The combination matrix (issue 25): every ruleset and table size the engine declares x every
format the arena offers x every kind of entrant, through one real API server (gunicorn), real
RQ workers and the supervisor, with remote bots played by the SDK.

A cell is (ruleset, players, format, kind); its entrant under test (the subject) is the
built-in ``random``, a trusted remote bot (``sdk.Runner`` in a thread) or an untrusted one
(``cinch bot run`` in its own process); the rest of a field are built-in bots, topped up with
trusted remote fillers where a ruleset seats more units than there are built-in bots. Every
cell's tournament is created at once (``played``) so the workers play them side by side; each
test then reads its cell: an accepted tournament played to the end, its results the same
through the API, the SDK and ``cinch remote standings``, and every page it links answering 200,
every board page replaying each room's hand; a refused one a 422 problem+json naming a
combination that the arena accepts.
"""

from __future__ import annotations

import contextlib
import html
import io
import re
import time
from dataclasses import dataclass
from typing import Any

import pytest
from support.apiclient import ADMIN
from support.apiserver import start_api, stop_api
from support.backend import back_end, fresh_store
from support.sdkharness import BotProcess, cinch_command, run_cli

import sdk
from server.arena.duplicate import units_of
from server.arena.tournaments import FORMATS
from server.cli import sdk_cmd
from server.engine import make_ruleset, seats_for
from server.engine.games import GAMES
from workers.bots import BUILTIN

# One process runs the module (./dev test --dist loadgroup): its module-scoped fixture is built once.
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("matrix")]

KINDS = ("builtin", "trusted", "untrusted")
SUBJECT = {"builtin": "random", "trusted": "mx-trusted", "untrusted": "mx-untrusted"}
HOUSE = ["rule", "random"]  # the built-in field (search is left out: it thinks for longer)
assert set(HOUSE) <= set(BUILTIN)
TABLES = [(name, players) for name, spec in GAMES.items() for players in spec.players]


def options_of(ruleset: str, players: int) -> dict[str, Any]:
    """The options that seat ``players``: none for a game of one table size."""
    return {"players": players} if len(GAMES[ruleset].players) > 1 else {}


def units(ruleset: str, players: int) -> int:
    """Entrants per match: the ruleset's duplicate units (partnerships or single seats)."""
    return len(units_of(make_ruleset(ruleset, options_of(ruleset, players)))[0])


MOST = max(units(r, p) for r, p in TABLES)
FILLERS = [f"mx-fill{i}" for i in range(1, MOST - len(HOUSE) + 1)]  # trusted remote bots


@dataclass(frozen=True)
class Cell:
    ruleset: str
    players: int
    format: str
    kind: str

    @property
    def id(self) -> str:
        return f"{self.ruleset}-{self.players}p-{self.format}-{self.kind}"

    @property
    def m(self) -> int:
        return units(self.ruleset, self.players)

    @property
    def subject(self) -> str:
        return SUBJECT[self.kind]

    def others(self) -> list[str]:
        return [b for b in HOUSE if b != self.subject] + FILLERS

    def request(self) -> dict[str, Any]:
        boards = 2 if self.m == 2 else 1
        body: dict[str, Any] = {"format": self.format, "ruleset": self.ruleset, "options": options_of(*self.table)}
        if self.format == "round_robin":
            body.update(bots=[self.subject, *self.others()[: self.m - 1]], boards=boards, chunk=boards)
        elif self.format == "gauntlet":
            body.update(candidates=[self.subject], references=self.others()[: self.m - 1], boards=boards, chunk=boards)
        elif self.format == "blind":
            body.update(bots=[self.subject], boards=boards, chunk=boards)
        else:  # a table of four: built-in bots may be entered again (name#2), a remote one only once
            house = ["rule", "rule#2", "random#2"] if self.subject == "random" else ["rule", "random", "rule#2"]
            body.update(bots=[self.subject, *house], rounds=1)
        return body

    @property
    def table(self) -> tuple[str, int]:
        return self.ruleset, self.players

    def sibling(self, **change: Any) -> Cell:
        return Cell(**{**self.__dict__, **change})


CELLS = [Cell(r, p, f, k) for r, p in TABLES for f in FORMATS for k in KINDS]


class NothingWorks(AssertionError):
    """A refusal that names no combination the arena accepts."""


# ---------------------------------------------------------------------------- the shared arena
class Arena:
    """One API server with its workers and remote bots, and every cell's outcome."""

    def __init__(self, api: Any, store: Any):
        self.api = api
        self.store = store  # read only for what a cell expects (each match's boards)
        self.outcomes: dict[Cell, Any] = {}  # the tournament id, or the refusal's response
        self.pages: dict[str, str] = {}

    @property
    def url(self) -> str:
        return self.api.base

    def create(self, cell: Cell) -> Any:
        if cell not in self.outcomes:
            r = self.api.call("POST", "/api/v1/tournaments", ADMIN, json=cell.request())
            assert r.status_code in (201, 422), (cell.id, r.status_code, r.text)
            self.outcomes[cell] = r.json()["id"] if r.status_code == 201 else r
        return self.outcomes[cell]

    def page(self, path: str, cache: bool = False) -> str:
        """A page's HTML, asserted 200; ``cache`` for pages that read the whole arena (bots,
        leaderboard), the same for every cell once every tournament is finished."""
        if cache and path in self.pages:
            return self.pages[path]
        r = self.api.call("GET", path)
        assert r.status_code == 200, (path, r.status_code, r.text[:500])
        if cache:
            self.pages[path] = r.text
        return r.text

    def wait_all(self) -> None:
        """Until every accepted tournament has finished; a failure once nothing moves for a minute."""
        wanted = {tid for tid in self.outcomes.values() if isinstance(tid, str)}
        progress, moved = -1, time.monotonic()
        while True:
            listed = {tid: self.api.call("GET", f"/api/v1/tournaments/{tid}", ADMIN).json() for tid in wanted}
            todo = [tid for tid in wanted if listed[tid]["status"] not in ("finished", "failed")]
            if not todo:
                return
            done = sum(listed[tid]["pairs_done"] for tid in wanted)
            if done != progress:
                progress, moved = done, time.monotonic()
            elif time.monotonic() - moved > 60:
                pytest.fail(f"no board finished for a minute; still playing: {sorted(todo)}")
            time.sleep(0.5)


def _register(api: Any, name: str, trusted: bool) -> str:
    token = api.register(name)
    if trusted:
        r = api.call("POST", f"/api/v1/bots/{name}/trust", ADMIN, json={"trusted": True})
        assert r.status_code == 200 and r.json()["trusted"], r.text
    return token


class RandomBot(sdk.Bot):
    def act(self, obs: sdk.Observation) -> dict[str, Any]:
        return obs.random_action(self.rng)


@pytest.fixture(scope="module")
def arena(redis_url, tmp_path_factory):
    # four workers on two cores: a worker playing a remote seat mostly waits for its answer
    with fresh_store(redis_url) as store, back_end(redis_url, store, workers=4):
        api = start_api(redis_url, store)
        runners, cli_bot = [], None
        try:
            for name in [SUBJECT["trusted"], *FILLERS]:
                client = sdk.Client(api.base, token=_register(api, name, trusted=True), timeout=30)
                runners.append(sdk.Runner(RandomBot(seed=name), client, threads=16, max_backoff=1).start())
            token = _register(api, SUBJECT["untrusted"], trusted=False)
            command = [*cinch_command(), "bot", "run", "examples.random_bot:RandomBot"]
            command += ["--server", api.base, "--token", token, "--wait", "5", "--max-backoff", "1"]
            cli_bot = BotProcess(SUBJECT["untrusted"], command, tmp_path_factory.mktemp("bots"))
            cli_bot.wait_for_log("serving decisions", timeout=60)
            yield Arena(api, store)
        finally:
            for runner in runners:
                runner.stop()
            for runner in runners:
                runner.join(10)
            if cli_bot is not None:
                cli_bot.kill()
            stop_api(api)


@pytest.fixture(scope="module")
def played(arena, request):
    """Every collected cell's tournament created at once, then played to the end."""
    for item in request.session.items:
        cell = getattr(item, "callspec", None) and item.callspec.params.get("cell")
        if isinstance(cell, Cell):
            arena.create(cell)
    arena.wait_all()
    return arena


# ---------------------------------------------------------------------------- one cell's checks
FORMAT_NAMED = re.compile(r"\b(" + "|".join(FORMATS) + r")\b|blind movement")
RULESET_NAMED = re.compile(r"\b(" + "|".join(GAMES) + r")\b")
LINK = re.compile(r'href="(/[^"]*)"')


def refusal_points_somewhere(arena: Arena, cell: Cell, detail: str) -> list[Cell]:
    """What the refusal's detail proposes instead that the arena accepts for the same kind of
    entrant: another format for the ruleset, or another ruleset (at its default table) for
    the format. (Trusting the bot is no answer for its own kind: an untrusted bot must have
    a format it may enter.)"""
    named = {m.group(1) or "blind" for m in FORMAT_NAMED.finditer(detail)} - {cell.format}
    proposed = [cell.sibling(format=f) for f in sorted(named)]
    rulesets = set(RULESET_NAMED.findall(detail)) - {cell.ruleset}
    proposed += [cell.sibling(ruleset=r, players=GAMES[r].default.players) for r in sorted(rulesets)]
    return [c for c in proposed if isinstance(arena.create(c), str)]


def check_refusal(arena: Arena, cell: Cell, response: Any) -> None:
    assert response.headers["Content-Type"].startswith("application/problem+json"), response.headers
    problem = response.json()
    assert problem["status"] == 422 and problem["detail"], problem
    if not refusal_points_somewhere(arena, cell, problem["detail"]):
        raise NothingWorks(f"{cell.id} is refused and the refusal names nothing that works: {problem['detail']}")


def check_results(arena: Arena, cell: Cell, tid: str) -> dict[str, Any]:
    """The results through the API, the SDK and ``cinch remote standings``: the same standings."""
    t = arena.api.call("GET", f"/api/v1/tournaments/{tid}").json()
    assert t["status"] == "finished" and t["pairs_done"] == t["pairs_total"] > 0, t
    results = arena.api.call("GET", f"/api/v1/tournaments/{tid}/results").json()
    bots = [row["bot"] for row in results["standings"]]
    assert cell.subject in bots, (cell.id, bots)
    matches = arena.api.call("GET", f"/api/v1/tournaments/{tid}/matches").json()
    assert matches and all(m["status"] == "complete" for m in matches), matches
    assert not any(m["timeouts"] or m["faulty"] for m in matches), "every remote seat answered in time"
    with sdk.Client(arena.url) as client:
        assert [s.bot for s in client.results(tid).standings] == bots
        assert [m.id for m in client.matches(tid)] == [m["id"] for m in matches]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert sdk_cmd.main(["remote", "standings", tid, "--server", arena.url]) == 0
    assert all(bot in out.getvalue() for bot in bots), out.getvalue()
    return {"results": results, "matches": matches}


def links(page: str) -> set[str]:
    return {html.unescape(href) for href in LINK.findall(page)}


def check_board_page(arena: Arena, cell: Cell, path: str) -> None:
    """Every room of the board is replayed: a ``section.room`` each, with every seat's cards
    and its tricks."""
    pair = arena.api.call("GET", "/api/v1" + path).json()
    page = arena.page(path)
    rooms = page.split('<section class="room')[1:]
    assert len(rooms) == len(pair["rooms"]), f"{path}: {len(rooms)} replays of {len(pair['rooms'])} rooms"
    for number, room in enumerate(rooms, 1):
        assert 'class="trick"' in room and "data-card=" in room, f"{path}: room {number} has no play"
        missing = [s for s in seats_for(cell.players) if f'data-seat="{s}"' not in room]
        assert not missing, f"{path}: room {number} shows no cards of {missing}"


def check_pages(arena: Arena, cell: Cell, tid: str, read: dict[str, Any]) -> None:
    page = arena.page(f"/tournaments/{tid}")
    found = links(page)
    match_pages = sorted(link for link in found if re.fullmatch(r"/matches/[^/]+", link))
    assert match_pages == sorted(f"/matches/{m['id']}" for m in read["matches"])
    bot_pages = {link for link in found if link.startswith("/bots/")}
    assert f"/bots/{cell.subject}" in bot_pages, bot_pages
    boards = set()
    for path in match_pages:
        from_match = links(arena.page(path))
        boards |= {link for link in from_match if re.fullmatch(r"/matches/[^/]+/boards/\d+", link)}
        bot_pages |= {link for link in from_match if link.startswith("/bots/")}
    expected = {
        f"/matches/{m['id']}/boards/{n}"
        for m in (arena.store.match(m["id"]) for m in read["matches"])
        for n in range(m["first"], m["last"] + 1)
    }
    assert boards == expected, (sorted(boards), sorted(expected))
    for path in sorted(boards):
        check_board_page(arena, cell, path)
    for path in sorted(bot_pages):
        for link in links(arena.page(path, cache=True)):
            if link.startswith("/bots/"):
                arena.page(link, cache=True)  # a bot page's own links to bots answer too
    leaderboard = arena.page(f"/leaderboard?ruleset={cell.ruleset}", cache=True)
    assert f'class="active" aria-current="page">{cell.ruleset}</a>' in leaderboard, "the ruleset's own tab"


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_cell(played, cell):
    outcome = played.create(cell)
    if not isinstance(outcome, str):
        check_refusal(played, cell, outcome)
        return
    check_pages(played, cell, outcome, check_results(played, cell, outcome))


def test_the_command_line_process_lists_every_tournament_finished(played):
    """``cinch remote`` as a process (the cells call it in-process) sees the whole matrix."""
    played.wait_all()  # refusals may have created the cells they point at since
    listed = run_cli("remote", "tournament", "list", "--server", played.url)
    assert listed.returncode == 0, listed.stderr
    tids = [t for t in played.outcomes.values() if isinstance(t, str)]
    assert tids and all(re.search(rf"^{re.escape(t)}\s+finished", listed.stdout, re.M) for t in tids), listed.stdout
