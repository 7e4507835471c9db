"""Secret deal sets: commitments before play, and checking a revealed seed against them."""

import hashlib

import pytest

from server.arena import dealsets


def test_secret_set_is_fresh_canonical_and_committed():
    deals, committed = dealsets.secret(8)
    assert len(deals.seed) == 32 and int(deals.seed, 16) >= 0  # 128 bits, hex
    digest = hashlib.sha256(deals.seed.encode()).hexdigest()
    assert deals.name == "secret-" + digest[:16]
    assert deals.boards == dealsets.generate(deals.seed, 8).boards and dealsets.mismatches(deals) == []
    assert committed == {
        "name": deals.name,
        "boards": 8,
        "seed_sha256": digest,
        "deals_sha256": hashlib.sha256(dealsets.dumps(deals).encode()).hexdigest(),
    }
    assert dealsets.commitment(deals) == committed
    other, _ = dealsets.secret(8)
    assert other.seed != deals.seed and other.name != deals.name


def test_commitment_digest_is_the_written_files(tmp_path):
    deals = dealsets.generate("club", 3)
    digest = dealsets.write(deals, tmp_path / "club.jsonl")
    assert dealsets.commitment(deals)["deals_sha256"] == digest


def test_a_seed_never_shows_in_a_sets_repr():
    deals, _ = dealsets.secret(2)
    assert deals.seed not in repr(deals) and deals.seed not in str(deals)


def test_check_reveal_rebuilds_the_committed_set():
    deals, committed = dealsets.secret(5)
    assert dealsets.check_reveal(deals.seed, committed) == deals
    assert dealsets.check_reveal(deals.seed, {"seed_sha256": committed["seed_sha256"], "boards": 5}) == deals


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda seed, c: ("0" * 32, c), "the seed does not match the commitment"),
        (lambda seed, c: (seed, {**c, "boards": 6}), "the rebuilt set's sha256 is"),
        (lambda seed, c: (seed, {**c, "deals_sha256": "ab" * 32}), "the rebuilt set's sha256 is"),
        (lambda seed, c: (seed, {**c, "name": "secret-0000000000000000"}), "the commitment names the set"),
        (lambda seed, c: (seed, {**c, "boards": 0}), "boards must be a positive count"),
        (lambda seed, c: (seed, {k: v for k, v in c.items() if k != "seed_sha256"}), "no seed_sha256"),
        (lambda seed, c: ("", c), "non-empty string"),
    ],
)
def test_check_reveal_says_what_differs(change, fragment):
    deals, committed = dealsets.secret(4)
    seed, altered = change(deals.seed, committed)
    with pytest.raises(dealsets.DealSetError, match=fragment):
        dealsets.check_reveal(seed, altered)


def test_a_secret_set_for_three_players_commits_to_its_shape():
    deals, committed = dealsets.secret(5, players=3)
    assert committed["players"] == 3 and {b.dealer for b in deals.boards} == {"P1", "P2", "P3"}
    assert dealsets.check_reveal(deals.seed, committed) == deals
    with pytest.raises(dealsets.DealSetError, match="players must be 2 to 7"):
        dealsets.check_reveal(deals.seed, {**committed, "players": 8})
