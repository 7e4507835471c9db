"""Every remote step from the command line (issue 29), against a real API server and RQ workers.

``cinch remote tournament create --sprt`` sends the ``sprt`` option as the API takes it and
``--watch`` prints each match's decision once; ``cinch remote compare --sprt`` plays a
two-bot tournament with the test and prints the decision, the boards it used and the
anytime-valid interval; a remote bot on a named deal set is refused with the flag that
fixes it and accepted with ``--practice``; ``cinch remote bot trust|untrust|enable|disable``
change what the API then serves; and every report names the server it read.
"""

import json
import re
import subprocess

import pytest
from support.sdkharness import ADMIN, BotProcess, cinch_command, run_cli

pytestmark = pytest.mark.e2e

DECIDED = re.compile(
    r"^random vs rule: (H1|H0) accepted after (\d+) boards, anytime 95% \[([-+][\d.]+), ([-+][\d.]+)\]$"
)


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``cinch`` with no admin token in its environment (only the one a test passes)."""
    return run_cli(*args, timeout=timeout, without=("CINCH_ADMIN_TOKEN", "CINCH_SERVER"))


def refused(out: subprocess.CompletedProcess, *words: str) -> str:
    """A CLI error: exit status 2 and one line on standard error holding ``words``."""
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.mark.slow
def test_create_with_sprt_sends_the_option_and_watch_prints_each_decision_once(server, admin, rq_workers):
    url = ["--server", server.url]
    made = cli(
        "remote", "tournament", "create", "--bots", "random", "rule", "--sprt", "--delta1", "6", "--alpha", "0.1",
        "--max-boards", "80", "--watch", "--admin-token", ADMIN, *url,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    tid = lines[0]
    assert lines[1] == f"server: {server.url}", made.stdout
    assert f"tournament {tid} created on server {server.url}" in made.stderr
    t = admin.tournament(tid)
    # the settings given, the others the server's defaults; --max-boards is the boards
    assert t.sprt == {"delta0": 0, "delta1": 6, "alpha": 0.1, "beta": 0.05} and t.boards == 80
    [match] = admin.matches(tid)
    told = [DECIDED.match(line) for line in lines if line.startswith("random vs rule:")]
    assert len(told) == 1 and told[0] is not None, made.stdout  # once, however many polls saw it
    decision, boards, low, high = told[0].groups()
    assert match.sprt["decision"] == decision == "H0"  # random is no match for rule: X (random) is not better
    assert int(boards) == match.sprt["boards"] < 80 and t.pairs_done < t.pairs_total
    assert (float(low), float(high)) == (
        round(match.sprt["anytime_low"], 1),
        round(match.sprt["anytime_high"], 1),
    )
    assert "sequential test: H0" in made.stdout and "Standings" in made.stdout

    watched = cli("remote", "tournament", "watch", tid, "--quiet", *url)
    assert watched.returncode == 0, watched.stderr
    assert watched.stdout.splitlines() == [f"server: {server.url}", told[0].group(0)]

    refused(cli("remote", "tournament", "create", "--bots", "random", "rule", "--delta0", "1", *url,
                "--admin-token", ADMIN), "--delta0", "add --sprt")  # fmt: skip
    refused(cli("remote", "tournament", "create", "--bots", "random", "rule", "--boards", "5", "--max-boards", "6",
                "--sprt", "--admin-token", ADMIN, *url), "disagree")  # fmt: skip
    refused(cli("remote", "tournament", "create", "--bots", "random", "rule", "--sprt", "--alpha", "0.7",
                "--admin-token", ADMIN, *url), "422", "alpha")  # fmt: skip


@pytest.mark.slow
def test_compare_with_sprt_plays_a_test_and_prints_decision_boards_and_anytime_interval(server, admin, rq_workers):
    url = ["--server", server.url]
    out = cli("remote", "compare", "rule", "random", "--sprt", "--max-boards", "100", "--admin-token", ADMIN, *url)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == f"server: {server.url}", out.stdout
    [t] = admin.tournaments()
    assert t.bots == ["rule", "random"] and t.sprt is not None and t.boards == 100 and t.format == "round_robin"
    [match] = admin.matches(t.id)
    s = match.sprt
    assert (match.x, s["decision"]) == ("rule", "H1")
    assert (
        lines[1]
        == f"rule vs random: american62, deal set standard, boards from 1 (match {match.id} of tournament {t.id})"
    )
    assert (
        lines[2]
        == "SPRT of rule's luck-corrected mean per board, H0 +0 vs H1 +5 (alpha 0.05, beta 0.05, at most 100 boards)"
    )
    assert lines[3] == "H1 accepted: rule is better than random by more than 0 points per board"
    assert lines[4] == (
        f"boards {s['boards']}, LLR {s['llr']:+.2f} (bounds {s['lower']:+.2f}, {s['upper']:+.2f}), luck-corrected "
        f"mean {s['mean']:+.2f} anytime 95% [{s['anytime_low']:+.2f}, {s['anytime_high']:+.2f}] per board"
    )
    assert s["boards"] < 100 and lines[5] == (
        f"tournament {t.id} stopped the match once the test decided, with {t.pairs_done} of 100 board pairs played"
    )

    # without --sprt it reads the stored match, played or not (no admin token needed)
    stored = cli("remote", "compare", "random", "rule", *url)
    assert stored.returncode == 0, stored.stderr
    assert stored.stdout.splitlines()[0] == f"server: {server.url}"
    assert f"(match {match.id} of tournament {t.id})" in stored.stdout
    assert len(admin.tournaments()) == 1  # nothing played
    # nothing stored and no admin token: said so, with how to play one
    refused(cli("remote", "compare", "random", "search", *url), "no match of random and search", "--admin-token")
    # ... and with it, one is played first (a fixed-length match: every board)
    played = cli("remote", "compare", "random", "search", "--boards", "2", "--admin-token", ADMIN, *url)
    assert played.returncode == 0, played.stderr
    new = admin.tournaments()[-1]
    assert new.bots == ["random", "search"] and new.sprt is None and new.is_finished and new.pairs_done == 2
    assert f"(match {new.id}.m1 of tournament {new.id})" in played.stdout and "over 2 boards" in played.stdout
    refused(cli("remote", "compare", "rule", "random", "--sprt", *url), "--sprt plays a new match", "admin token")
    refused(cli("remote", "compare", "rule", "random", "--sprt", "--tournament", t.id, *url), "--tournament")
    refused(cli("remote", "compare", "rule", "random", "--beta", "0.1", *url), "--beta", "add --sprt")
    refused(cli("remote", "compare", "rule", "random", "--max-boards", "9", *url), "--max-boards")


@pytest.mark.slow
def test_a_remote_bot_on_a_named_deal_set_is_refused_with_the_hint_and_played_with_practice(
    server, admin, rq_workers, bot_processes, tmp_path
):
    url = ["--server", server.url]
    token = admin.register_bot("far").token
    sprt = ["--sprt", "--max-boards", "4", "--admin-token", ADMIN, *url]
    # untrusted: the two-room match is refused, with the command that trusts it
    refused(cli("remote", "compare", "far", "rule", *sprt), "far is not trusted", "cinch remote bot trust far")
    trusted = cli("remote", "bot", "trust", "far", "--admin-token", ADMIN, *url)
    assert trusted.returncode == 0 and trusted.stdout == f"bot far on server {server.url}: now trusted\n"
    # a named (public) set: refused, and the message names both ways out
    refused(
        cli("remote", "compare", "far", "rule", "--deals", "standard", *sprt),
        "422",
        "standard is a named deal set",
        "add --practice",
        "--deals secret",
    )
    assert admin.tournaments() == []
    bot_processes.append(
        BotProcess(
            "far",
            [*cinch_command(), "bot", "run", "examples.random_bot:RandomBot", "--token", token, "--wait", "5", *url],
            tmp_path,
        )
    )
    bot_processes[-1].wait_for_log("serving decisions")
    practice = cli("remote", "compare", "far", "rule", "--deals", "standard", "--practice", *sprt, timeout=240)
    assert practice.returncode == 0, practice.stderr
    [t] = admin.tournaments()
    assert t.practice and t.deals == "standard" and t.sprt is not None and t.boards == 4
    [match] = admin.matches(t.id)
    assert match.sprt["decision"] in ("H1", "H0", "inconclusive")
    assert f"far vs rule: american62, deal set standard, boards from 1 (match {match.id}" in practice.stdout
    assert re.search(r"^(H1 accepted|H0 accepted|inconclusive): ", practice.stdout, re.M), practice.stdout
    assert "anytime 95% [" in practice.stdout


def test_bot_trust_untrust_enable_disable_round_trip_through_the_api(server, admin):
    url = ["--server", server.url]
    admin.register_bot("solo")
    steps = [
        ("trust", "now trusted", lambda b: b.trusted),
        ("trust", "already trusted, unchanged", lambda b: b.trusted),
        ("untrust", "now untrusted", lambda b: not b.trusted),
        ("disable", "now disabled", lambda b: b.status == "disabled"),
        ("disable", "already disabled, unchanged", lambda b: b.status == "disabled"),
        ("enable", "now active", lambda b: b.status == "active"),
    ]
    for action, said, holds in steps:
        out = cli("remote", "bot", action, "solo", "--admin-token", ADMIN, *url)
        assert out.returncode == 0, (action, out.stderr)
        assert out.stdout == f"bot solo on server {server.url}: {said}\n", action
        assert holds(admin.bot("solo")), action
    assert admin.bot("solo").to_dict()["trusted"] is False
    refused(cli("remote", "bot", "trust", "solo", *url), "admin token")
    refused(cli("remote", "bot", "untrust", "rule", "--admin-token", ADMIN, *url), "409", "always trusted")
    refused(cli("remote", "bot", "disable", "ghost", "--admin-token", ADMIN, *url), "404")
    refused(cli("remote", "bot", "enable", "solo", "--admin-token", "wrong", *url), "401")


def test_every_report_names_its_server_and_script_output_stays_clean(server, admin, rq_workers):
    url = ["--server", server.url]
    tid = admin.create_tournament(["random", "rule"], boards=2, chunk=2)
    admin.wait_for_tournament(tid, poll=0.25, timeout=120)
    for args in (
        ["remote", "tournament", "list"],
        ["remote", "standings", tid],
        ["remote", "ratings"],
        ["bot", "list"],
    ):
        out = cli(*args, *url)
        assert out.returncode == 0, (args, out.stderr)
        assert out.stdout.splitlines()[0] == f"server: {server.url}", (args, out.stdout)
    for args in (["remote", "standings", tid, "--json"], ["bot", "list", "--json"]):
        out = cli(*args, *url)
        assert out.returncode == 0, (args, out.stderr)
        json.loads(out.stdout)  # only the JSON on standard output
        assert f"server: {server.url}" in out.stderr
    made = cli(
        "remote", "tournament", "create", "--bots", "random", "rule", "--boards", "2", "--admin-token", ADMIN, *url
    )
    assert made.returncode == 0 and re.fullmatch(r"t\d+\n", made.stdout), made.stdout  # $(...) still gets the id
    assert f"created on server {server.url}" in made.stderr


def test_compare_labels_a_blind_match_by_its_rooms_and_a_field_by_its_entrants(server, admin, rq_workers):
    """A blind entrant's board is its own room against the par room of the references (not
    "X at E/W (room 2)"), and a match of five entrants is read per entrant against the
    field (not as a board pair of its first two)."""
    url = ["--server", server.url]
    blind = cli(
        "remote", "tournament", "create", "--format", "blind", "--bots", "random", "--references", "rule",
        "--boards", "3", "--watch", "--admin-token", ADMIN, *url,
    )  # fmt: skip
    assert blind.returncode == 0, blind.stderr
    tid = blind.stdout.splitlines()[0]
    shown = cli("remote", "compare", "random", "rule", "--tournament", tid, *url)
    assert shown.returncode == 0, shown.stderr
    heading = next(line for line in shown.stdout.splitlines() if line.startswith("board"))
    assert "random at " in heading and "(its room)" in heading and "par room (rule at every seat)" in heading, heading
    assert "E/W (room 2)" not in shown.stdout
    rows = [line.split() for line in shown.stdout.splitlines() if re.match(r"^\s+\d+\s", line)]
    pairs = {n: admin.board_pair(f"{tid}.m1", n) for n in range(1, 4)}
    assert [float(r[-1]) for r in rows] == [pairs[n].score for n in range(1, 4)], shown.stdout

    field = cli(
        "remote", "tournament", "create", "--bots", "random", "rule", "search", "search-play", "--ruleset", "snoozer", "--options", '{"players": 4}',
        "--boards", "2", "--watch", "--admin-token", ADMIN, *url,
    )  # fmt: skip
    assert field.returncode == 0, field.stderr
    tid = field.stdout.splitlines()[0]
    shown = cli("remote", "compare", "search", "rule", "--tournament", tid, *url)
    assert shown.returncode == 0, shown.stderr
    assert "search against the field" in shown.stdout and "rule against the field" in shown.stdout, shown.stdout
    [match] = admin.matches(tid)
    for line in (line for line in shown.stdout.splitlines() if re.match(r"^\s+\d+\s", line)):
        n, mine, theirs, score = line.split()
        scores = admin.board_pair(match.id, int(n)).entrant_scores
        at = match.entrants.index
        assert (float(mine), float(theirs)) == pytest.approx((scores[at("search")], scores[at("rule")]), abs=0.005)
        assert float(score) == pytest.approx(scores[at("search")] - scores[at("rule")], abs=0.005), line
