"""``cinch remote table`` against a real API server: open a table with a person's seat, play
that seat to the end through the printed link's token, and read the table back.

``open`` prints the id, the page and each person's link on standard output only (the
link's fragment is the seat's token, which must reach no log); ``show`` and ``list`` give
the public state, ``record --hand N`` a hand that ``cinch replay`` reads; bad input is
one line on standard error and exit status 2. Only the one ``open`` runs as a process:
the rest call the same ``main`` in process, which is the CLI less its start-up time.
"""

import functools
import json

import pytest
from support.sdkharness import ADMIN, run_cli

import sdk
from server.cli import sdk_cmd
from server.engine import replay

pytestmark = pytest.mark.e2e


def cinch(capsys, *args: str) -> tuple[int, str, str]:
    """``cinch ARGS`` in process: exit status, standard output, standard error."""
    try:
        status = sdk_cmd.main(list(args))
    except SystemExit as exit:  # argparse's refusal of a malformed option
        status = int(exit.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


def play_to_the_end(url: str, tid: str, token: str, spectator: sdk.Client) -> int:
    """Answer every decision of the seat the token holds with its first legal action, as
    tests/sdk/test_sdk_tables.py's person does; the token is deleted when the game ends."""
    seat, answered = sdk.Client(url, token=token), 0
    while not spectator.table(tid).has_ended:
        try:
            decision = seat.next_decision(wait=2)
        except sdk.ApiError as gone:  # the game ended after the check, and its token with it
            assert gone.status == 401 and spectator.table(tid).has_ended
            break
        if decision is not None:
            assert decision.observation.seat == "S"
            assert seat.answer(decision, decision.observation.first_action())
            answered += 1
    return answered


def test_a_table_opened_from_the_cli_is_played_through_its_printed_seat_link(server, rq_workers, admin, capsys):
    opened = run_cli(
        "remote", "table", "open", "--seat", "N=rule", "--seat", "E=random", "--seat", "W=random",
        "--human", "S=Ann Lee:20000", "--server", server.url, "--admin-token", ADMIN,
        without=("CINCH_ADMIN_TOKEN", "CINCH_SERVER"),
    )  # fmt: skip
    assert opened.returncode == 0, opened.stderr
    tid, page, link = opened.stdout.splitlines()
    assert page == f"page: {server.url}/tables/{tid}"
    assert link.startswith(f"seat S (Ann Lee): {server.url}/tables/{tid}/seat#")
    token = link.partition("#")[2]
    assert token and token not in opened.stderr and f"table {tid} opened on server {server.url}" in opened.stderr
    held = sdk.Client(server.url, token=token).human_seat(tid)
    assert (held.seat, held.name, held.decision_ms) == ("S", "Ann Lee", 20_000)

    assert play_to_the_end(server.url, tid, token, admin) >= 6
    final = admin.table(tid)
    status, shown, _ = cinch(capsys, "remote", "table", "show", tid, "--server", server.url)
    assert status == 0 and shown.splitlines()[:2] == [f"server: {server.url}", f"table {tid}: american62"]
    assert f"status:  finished, {final.hands_played} hands played, winner {final.winner}" in shown
    assert f"scores:  NS {final.scores['NS']}, EW {final.scores['EW']}" in shown
    assert "  S  Ann Lee (a person, 20 s a decision)" in shown and "  N  rule" in shown
    assert f"seed {final.deal_seed}" in shown and token not in shown
    status, listed, _ = cinch(capsys, "remote", "table", "list", "--server", server.url)
    [row] = [line for line in listed.splitlines() if line.startswith(tid + " ")]
    assert status == 0 and "finished" in row and "S Ann Lee (a person)" in row

    record = admin.table_record(tid)
    status, whole, _ = cinch(capsys, "remote", "table", "record", tid, "--server", server.url)
    assert status == 0 and json.loads(whole) == record.to_dict()
    status, hand, _ = cinch(capsys, "remote", "table", "record", tid, "--hand", "1", "--server", server.url)
    assert status == 0 and replay(json.loads(hand))["delta"] == record.hands[0]["result"]["delta"]  # cinch replay's


def refused(outcome: tuple[int, str, str], *words: str) -> None:
    """A CLI error: exit status 2, nothing on standard output, standard error holding ``words``
    and no traceback."""
    status, out, err = outcome
    assert status == 2 and not out and "Traceback" not in err, (out, err)
    for word in words:
        assert word in err, (word, err)


def test_bad_table_input_is_a_message_and_exit_status_2(server, capsys, monkeypatch):
    monkeypatch.delenv("CINCH_ADMIN_TOKEN", raising=False)
    monkeypatch.delenv("CINCH_TOKEN", raising=False)
    at = ("--server", server.url)
    admin = (*at, "--admin-token", ADMIN)
    table = functools.partial(cinch, capsys, "remote", "table")
    refused(table("open", "--seat", "N=rule", *at), "needs a bot's token")
    refused(table("open", "--seat", "P1=rule", *admin), "422", "seats N E S W")
    refused(table("open", "--ruleset", "nope", *admin), "422", "ruleset")
    refused(table("open", "--seat", "N=nobody", *admin), "422", "unknown", "'nobody'")
    refused(table("open", "--seat", "S=rule", "--human", "S=Ann", *admin), "S is given twice")
    refused(table("open", "--human", "S=Ann:soon", *admin), "--human", "milliseconds")
    refused(table("open", "--seat", "rule", *admin), "--seat", "SEAT=BOT")
    refused(table("show", "g999", *at), "404", "no table 'g999'")
    refused(table("show", "g1", "--server", "http://127.0.0.1:9"), "cannot reach")
    status, out, _ = table("open", "--seat", "N=rule", "--json", *admin)
    opened = json.loads(out)  # one seat taken, three open: the table waits, no worker needed
    assert status == 0 and opened["seat_links"] == {} and opened["page"] == f"{server.url}/tables/{opened['id']}"
    refused(table("record", opened["id"], *at), "409", "once the game is over")
