"""``cinch export`` and ``cinch import`` as a user runs them (docs/operations.md#export):
tournaments of several formats and rulesets played by ``cinch tournament`` in one home,
exported, imported into a fresh home, and read there through the API and the pages
exactly as in the first; a second import, a corrupt file and an unfinished tournament
are refused with one line and exit status 2, changing nothing."""

import json
import signal
import time
from contextlib import contextmanager

import pytest
from redis import Redis
from support.cliharness import cinch, start

from server.web.app import create_app
from workers.embedded import EmbeddedRedis

# One process runs the module (./dev test --dist loadgroup): its module-scoped fixture is built once.
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("export_import")]  # real cinch commands

TOURNAMENTS = [
    ["--bots", "random", "rule", "--boards", "2"],  # a round robin on american62
    ["--ruleset", "snoozer", "--options", '{"players": 5}', "--boards", "1"]
    + ["--bots", "random", "rule", "search-play", "search", "search:strong"],  # a field of five
    ["--format", "blind", "--bots", "random", "search-play", "--references", "rule", "--boards", "2"],
    ["--format", "progressive", "--rounds", "1", "--bots", "random", "rule", "random#2", "rule#2"],
]
IDS = [f"t{n}" for n in range(1, len(TOURNAMENTS) + 1)]
RULESETS = ["american62", "snoozer", "foster51"]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A home with the four tournaments played, and their export."""
    home = tmp_path_factory.mktemp("source")
    for args in TOURNAMENTS:
        run = cinch("tournament", *args, "--chunk", "1", home=home, timeout=240)
        assert run.returncode == 0, run.stderr
    exported = cinch("export", *IDS, home=home)
    assert exported.returncode == 0, exported.stderr
    path = home / "export.jsonl"
    path.write_text(exported.stdout)
    return home, path


@contextmanager
def reads(home):
    """A Flask test client and the Redis of a home's embedded arena."""
    with EmbeddedRedis(home) as url, Redis.from_url(url) as redis:
        yield create_app({"REDIS_URL": url}).test_client(), redis


def everything(client) -> dict:
    """Every answer the API and the pages give about the tournaments and the ratings."""
    got = {}

    def get(path):
        answer = client.get(path)
        got[path] = (
            answer.status_code,
            answer.get_json() if path.startswith("/api/") else answer.get_data(as_text=True),
        )
        return answer

    get("/api/v1/tournaments")
    get("/tournaments")
    for tid in IDS:
        t = get(f"/api/v1/tournaments/{tid}").get_json()
        get(f"/api/v1/tournaments/{tid}/results")
        get(f"/tournaments/{tid}")
        for match in get(f"/api/v1/tournaments/{tid}/matches").get_json():
            mid = match["id"]
            get(f"/matches/{mid}")
            for n in range(t["first"], t["first"] + t["boards"]):
                get(f"/api/v1/matches/{mid}/boards/{n}")
                get(f"/matches/{mid}/boards/{n}")
    for ruleset in RULESETS:
        board = get(f"/api/v1/ratings/{ruleset}").get_json()
        get(f"/leaderboard?ruleset={ruleset}")
        for row in board if isinstance(board, list) else board.get("bots", []):
            get(f"/api/v1/ratings/{ruleset}/{row['bot']}/history")
    for bot in ("random", "rule", "search-play", "search", "search:strong"):
        get(f"/api/v1/bots/{bot}")
        get(f"/bots/{bot}")
    return got


def keys_of(redis) -> dict:
    """Every key and its value, to tell that a refused command wrote nothing (by value: a
    restarted Redis may encode the same hash differently)."""
    read = {
        b"string": redis.get,
        b"hash": redis.hgetall,
        b"list": lambda k: redis.lrange(k, 0, -1),
        b"set": redis.smembers,
        b"zset": lambda k: redis.zrange(k, 0, -1, withscores=True),
    }
    return {k: read[redis.type(k)](k) for k in sorted(redis.scan_iter()) if not k.startswith(b"rq:")}


def test_an_import_reads_exactly_as_the_exporting_arena(played, tmp_path):
    source, path = played
    imported = cinch("import", str(path), home=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert all(f"imported {tid}:" in imported.stdout for tid in IDS)
    with reads(source) as (client, _):
        before = everything(client)
    with reads(tmp_path) as (client, _):
        after = everything(client)
    assert after.keys() == before.keys()
    for path_, answer in before.items():
        assert after[path_] == answer, path_
    boards = [p for p in before if "/boards/" in p and p.startswith("/api/")]
    assert len(boards) > 10 and all(before[p][0] == 200 for p in boards)
    assert all(before[f"/api/v1/ratings/{r}"][1] for r in ("american62", "snoozer"))
    for ruleset in ("american62", "snoozer"):  # and the command line's leaderboard
        shown = [cinch("ratings", ruleset, "--json", home=h).stdout for h in (source, tmp_path)]
        assert shown[0] == shown[1] and json.loads(shown[0])["bots"]

    again = cinch("import", str(path), home=tmp_path)
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert "tournament t1, t2, t3, t4 is already stored here: nothing imported" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
    with reads(tmp_path) as (client, _):
        assert everything(client) == after
    skipped = cinch("import", str(path), "--skip-existing", home=tmp_path)
    assert skipped.returncode == 0 and "skipped t1: already stored here" in skipped.stdout


def test_a_new_tournament_after_an_import_takes_the_next_id(played, tmp_path):
    _, path = played
    assert cinch("import", str(path), home=tmp_path).returncode == 0
    run = cinch("tournament", "--bots", "random", "rule", "--boards", "1", home=tmp_path)
    assert run.returncode == 0, run.stderr
    listed = cinch("tournament", "list", home=tmp_path).stdout
    assert "t5" in listed and listed.count("finished") == 5


def test_the_export_holds_no_token_and_names_its_version_first(played):
    _, path = played
    text = path.read_text()
    assert "token" not in text and "hash" not in text.replace("sha256", "")
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0] == {"format": "cinch-export/1", "tournaments": IDS}
    assert lines[-1] == {"type": "end", "lines": len(lines) - 1}
    kinds = {line["bot"]["name"]: line["bot"]["kind"] for line in lines if line.get("type") == "bot"}
    assert set(kinds) == {"random", "rule", "search-play", "search", "search:strong"}
    deals = [line for line in lines if line.get("type") == "deals"]
    assert all(d["source"] == "published" and len(d["sha256"]) == 64 for d in deals)


def _corrupt(path, tmp_path, change):
    lines = path.read_text().splitlines()
    change(lines)
    out = tmp_path / "corrupt.jsonl"
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda lines: lines.__setitem__(5, lines[5][:-9]), "line 6: not JSON"),
        (lambda lines: lines.pop(), "no end line: the file is cut short"),
        (lambda lines: lines.__setitem__(0, '{"format": "cinch-export/9", "tournaments": ["t1"]}'), "cinch-export/9"),
        (lambda lines: lines.insert(3, '{"type": "gossip"}'), "line 4: unknown line type 'gossip'"),
        (lambda lines: lines.__setitem__(3, lines[3].replace('"kind"', '"token_hash":"x","kind"')), "never writes"),
    ],
    ids=["cut-line", "cut-file", "version", "unknown-type", "token-hash"],
)
def test_a_corrupt_file_is_refused_and_changes_nothing(played, tmp_path, change, message):
    _, path = played
    assert cinch("tournament", "--bots", "random", "rule", "--boards", "1", home=tmp_path).returncode == 0
    with reads(tmp_path) as (_, redis):
        before = keys_of(redis)
    refused = cinch("import", str(_corrupt(path, tmp_path, change)), home=tmp_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert message in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    with reads(tmp_path) as (_, redis):
        assert keys_of(redis) == before


def test_a_missing_file_and_an_unknown_id_are_one_line_refusals(tmp_path):
    missing = cinch("import", str(tmp_path / "nothing.jsonl"), home=tmp_path)
    assert missing.returncode == 2 and "no file" in missing.stderr and "Traceback" not in missing.stderr
    unknown = cinch("export", "t9", home=tmp_path)
    assert unknown.returncode == 2 and "no tournament 't9'" in unknown.stderr and unknown.stdout == ""


def test_an_unfinished_tournament_is_not_exported(tmp_path):
    proc = start("tournament", "--bots", "random", "rule", "--boards", "400", "--chunk", "2", home=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            listed = cinch("tournament", "list", home=tmp_path).stdout
            if "running" in listed:
                break
            time.sleep(0.5)
        time.sleep(1)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    refused = cinch("export", "t1", home=tmp_path)
    assert refused.returncode == 2 and refused.stdout == "" and "Traceback" not in refused.stderr
    assert "tournament t1 is interrupted: only finished tournaments are exported" in refused.stderr
