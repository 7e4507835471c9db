"""``cinch deals`` and the shipped deal sets."""

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from server.arena import dealsets

ROOT = Path(__file__).parents[3]


def cinch(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, timeout=120, cwd=cwd
    )


def test_standard_set_matches_its_recorded_sha256():
    path = ROOT / "deals" / "standard.jsonl"
    recorded = (ROOT / "deals" / "standard.jsonl.sha256").read_text().split()[0]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == recorded


@pytest.mark.parametrize("name", ["standard-2p", "standard-3p", "standard-5p", "standard-6p", "standard-7p"])
def test_each_table_shape_has_a_published_set_with_its_sha256(name):
    path = ROOT / "deals" / f"{name}.jsonl"
    recorded = (ROOT / "deals" / f"{name}.jsonl.sha256").read_text().split()[0]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == recorded
    deals = dealsets.load(name)
    players = int(name[-2])
    assert deals.players == players and len(deals.boards) == 1000 and dealsets.mismatches(deals) == []
    seats = [f"P{i}" for i in range(1, players + 1)]
    assert [b.dealer for b in deals.boards[: players + 1]] == seats + seats[:1]  # F2: seats[(n-1) % k]


def test_standard_set_has_1000_boards_rebuilt_from_its_seed():
    deals = dealsets.load("standard")
    assert len(deals.boards) == 1000
    assert dealsets.mismatches(deals) == []


@pytest.mark.e2e
def test_generate_for_three_players_writes_the_shape_in_the_header(tmp_path):
    out = tmp_path / "three.jsonl"
    run = cinch("deals", "generate", "--seed", "s3", "--boards", "4", "--players", "3", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert '"players": 3' in out.read_text().splitlines()[0]
    assert "4 valid boards" in cinch("deals", "verify", str(out)).stdout
    text = out.read_text().replace('"players": 3', '"players": 9')
    out.write_text(text)
    bad = cinch("deals", "verify", str(out))
    assert bad.returncode == 2 and "players must be 2 to 7" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.e2e
def test_a_board_whose_dealer_is_not_a_seat_of_the_shape_is_refused(tmp_path):
    out = tmp_path / "two.jsonl"
    cinch("deals", "generate", "--seed", "s2", "--boards", "2", "--players", "2", "--out", str(out))
    out.write_text(out.read_text().replace('"dealer": "P2"', '"dealer": "P3"'))
    bad = cinch("deals", "verify", str(out))
    assert bad.returncode == 2 and "line 3" in bad.stderr and "P1 P2" in bad.stderr


@pytest.mark.e2e
def test_generate_is_reproducible(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert cinch("deals", "generate", "--seed", "club-2026", "--boards", "12", "--out", str(a)).returncode == 0
    assert cinch("deals", "generate", "--seed", "club-2026", "--boards", "12", "--out", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    run = cinch("deals", "verify", str(a))
    assert run.returncode == 0 and "12 valid boards" in run.stdout


@pytest.mark.e2e
def test_generated_prefix_equals_standard_prefix(tmp_path):
    out = tmp_path / "s.jsonl"
    cinch("deals", "generate", "--seed", "standard", "--boards", "5", "--out", str(out))
    assert dealsets.load(str(out)).boards == dealsets.load("standard").boards[:5]


def _lines():
    return (ROOT / "deals" / "standard.jsonl").read_text().splitlines()[:4]


@pytest.mark.e2e
@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda ls: ls[:2] + [ls[2].replace('"AS"', '"1X"')] + ls[3:], "line 3: board deck must be 52 distinct cards"),
        (lambda ls: ls[:2] + [ls[2].replace('"dealer": "E"', '"dealer": "Q"')] + ls[3:], "line 3: board dealer"),
        (lambda ls: ls[:3] + ["{not json"], "line 4: not JSON"),
        (lambda ls: ["{}"] + ls[1:], "line 1: the first line must be a header"),
        (lambda ls: ls[:1] + ls[2:], "line 2: expected board 1"),
    ],
)
def test_bad_file_is_refused_with_line_number(tmp_path, mutate, fragment):
    lines = _lines()
    lines[0] = lines[0].replace('"boards": 1000', '"boards": 3')
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(mutate(lines)) + "\n")
    with pytest.raises(dealsets.DealSetError, match=fragment):
        dealsets.load(str(path))
    run = cinch("deals", "verify", str(path))
    assert run.returncode == 2 and fragment.split(": ", 1)[1] in run.stderr and "Traceback" not in run.stderr


@pytest.mark.e2e
def test_tampered_board_is_caught_by_verify(tmp_path):
    lines = _lines()
    lines[0] = lines[0].replace('"boards": 1000', '"boards": 3')
    board1 = lines[1]
    # swap two cards: still a valid deck, but not the generator's
    first, second = board1.split('"deck": [')[1].split(", ")[:2]
    lines[1] = board1.replace(f"{first}, {second}", f"{second}, {first}", 1)
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n")
    run = cinch("deals", "verify", str(path))
    assert run.returncode == 2 and "differ from the generator" in run.stderr


@pytest.mark.e2e
def test_generate_refuses_zero_boards(tmp_path):
    run = cinch("deals", "generate", "--seed", "x", "--boards", "0", "--out", str(tmp_path / "x.jsonl"))
    assert run.returncode == 2 and "at least 1" in run.stderr


@pytest.mark.e2e
def test_verify_a_revealed_seed_against_its_commitment():
    deals, committed = dealsets.secret(6)
    run = cinch(
        "deals",
        "verify",
        "--seed",
        deals.seed,
        "--commitment",
        committed["seed_sha256"],
        "--boards",
        "6",
        "--deals-sha256",
        committed["deals_sha256"],
    )
    assert run.returncode == 0, run.stderr
    assert deals.name in run.stdout and f"sha256 {committed['deals_sha256']}" in run.stdout


@pytest.mark.e2e
@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"--seed": "f" * 32}, "the seed does not match the commitment"),
        ({"--deals-sha256": "0" * 64}, "the rebuilt set's sha256 is"),
        ({"--boards": "7"}, "the rebuilt set's sha256 is"),
        ({"--boards": "0"}, "--boards must be at least 1"),
        ({"--commitment": None}, "needs --commitment"),
        ({"--server": "http://127.0.0.1:9"}, "--server and --tournament go together"),
    ],
)
def test_verify_a_seed_refuses_what_does_not_match(change, fragment):
    deals, committed = dealsets.secret(6)
    flags = {
        "--seed": deals.seed,
        "--commitment": committed["seed_sha256"],
        "--boards": "6",
        "--deals-sha256": committed["deals_sha256"],
        **change,
    }
    run = cinch("deals", "verify", *(x for k, v in flags.items() if v is not None for x in (k, v)))
    assert run.returncode == 2 and fragment in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.e2e
def test_verify_a_seed_with_an_unreachable_server_is_a_clean_error():
    deals, committed = dealsets.secret(2)
    run = cinch(
        "deals",
        "verify",
        "--seed",
        deals.seed,
        "--commitment",
        committed["seed_sha256"],
        "--boards",
        "2",
        "--server",
        "http://127.0.0.1:9",
        "--tournament",
        "t1",
    )
    assert run.returncode == 2 and "cannot reach" in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.e2e
def test_verify_takes_a_file_or_a_seed_not_both(tmp_path):
    run = cinch("deals", "verify")
    assert run.returncode == 2 and "--seed" in run.stderr
    run = cinch("deals", "verify", "standard", "--boards", "3")
    assert run.returncode == 2 and "go with --seed" in run.stderr


# ---------------------------------------------------------------------- snoozer's 53-card pack (docs/rules/common.md#cards)
@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_each_snoozer_shape_has_a_published_53_card_set_with_its_sha256(players):
    name = f"standard-53-{players}p"
    path = ROOT / "deals" / f"{name}.jsonl"
    recorded = (ROOT / "deals" / f"{name}.jsonl.sha256").read_text().split()[0]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == recorded
    deals = dealsets.load(name)
    assert (deals.players, deals.deck, len(deals.boards)) == (players, 53, 1000)
    assert dealsets.mismatches(deals) == []
    assert all(len(set(b.deck)) == 53 and 52 in b.deck for b in deals.boards)


def test_the_53_card_generator_sorts_the_joker_by_its_own_hash():
    # F2: deck = the 53 cards sorted by sha256(f"{S}/{n}/{card}"), "JK" among them
    board = dealsets.generate("standard", 3, players=5, deck=53).boards[2]
    names = board.to_dict()["deck"]
    assert names == sorted(names, key=lambda c: hashlib.sha256(f"standard/3/{c}".encode()).hexdigest())
    assert "JK" in names and board.dealer == "P3"


@pytest.mark.e2e
def test_generate_and_verify_a_53_card_set(tmp_path):
    out = tmp_path / "jk.jsonl"
    run = cinch(
        "deals", "generate", "--seed", "jk", "--boards", "3", "--players", "6", "--deck", "53", "--out", str(out)
    )
    assert run.returncode == 0, run.stderr
    assert '"players": 6, "deck": 53' in out.read_text().splitlines()[0]
    assert "3 valid boards" in cinch("deals", "verify", str(out)).stdout
    out.write_text(out.read_text().replace('"deck": 53}', '"deck": 54}', 1))
    bad = cinch("deals", "verify", str(out))
    assert bad.returncode == 2 and "deck must be 52 or 53" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.e2e
def test_a_52_card_set_read_as_53_names_the_deck_size(tmp_path):
    out = tmp_path / "mixed.jsonl"
    cinch("deals", "generate", "--seed", "m", "--boards", "2", "--out", str(out))
    out.write_text(out.read_text().replace('"boards": 2}', '"boards": 2, "deck": 53}', 1))
    bad = cinch("deals", "verify", str(out))
    assert bad.returncode == 2 and "line 2" in bad.stderr and "not 52" in bad.stderr and "deck size" in bad.stderr


@pytest.mark.e2e
def test_verify_a_revealed_53_card_seed_needs_its_deck():
    deals, committed = dealsets.secret(3, players=4, deck=53)
    assert committed["deck"] == 53
    flags = [
        "deals",
        "verify",
        "--seed",
        deals.seed,
        "--commitment",
        committed["seed_sha256"],
        "--boards",
        "3",
        "--deals-sha256",
        committed["deals_sha256"],
    ]
    assert cinch(*flags, "--deck", "53").returncode == 0
    wrong = cinch(*flags)  # rebuilt as 52 cards: another file
    assert wrong.returncode == 2 and "the rebuilt set's sha256 is" in wrong.stderr
