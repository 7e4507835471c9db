"""Deal-set files: writing, loading with line-precise validation, and finding them by name.

A deal set is JSON Lines so that an error can name its line: a header line
``{"format": "cinch-deals/1", "name": ..., "seed": ..., "boards": N}`` and then one
board per line ``{"board": n, "dealer": ..., "deck": [...], "seed": ...}``. A set made
by the canonical generator can be rebuilt from its seed alone (docs/rules/common.md#boards);
``verify`` checks that it was.

A set is made for one table shape and one deck (docs/rules/common.md#cards): the header says
``"players": k`` when k is not 4, and the dealers are then ``P1`` ... ``Pk``; it says
``"deck": 53`` for snoozer's pack with the joker. A four-seat 52-card header has neither
field, so the files published before the family stay byte for byte the same.

A *secret* set (``secret``) is made from a fresh 128-bit seed nobody outside the server
knows, so a bot cannot look its hands up; the server publishes its *commitment* (the
seed's sha256 and the file's sha256) before play and the seed once the tournament is
over, and ``check_reveal`` lets anyone rebuild the set and check that it is the one
committed to.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from server.engine.boards import Board, BoardError, generate_board
from server.engine.cards import DECK_SIZES, seats_for
from server.errors import InvalidRequest

FORMAT = "cinch-deals/1"
DEALS_DIR = Path(__file__).resolve().parents[2] / "deals"
"""The shipped sets; ``CINCH_DEALS_DIR`` (``server.config``) names another directory."""


class DealSetError(InvalidRequest):
    """A deal-set file that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class DealSet:
    name: str
    seed: str = field(repr=False)  # a secret set's seed must never reach a log line
    boards: tuple[Board, ...] = field(repr=False)
    players: int = 4
    deck: int = 52  # cards in the pack (F2): 53 for snoozer

    def board(self, number: int) -> Board:
        """Board ``number``, 1-based like the file and the generator."""
        if not 1 <= number <= len(self.boards):
            raise DealSetError(f"deal set {self.name} has boards 1..{len(self.boards)}, not {number}")
        return self.boards[number - 1]


PLAYERS = range(2, 8)  # every table shape of the family


def generate(seed: str, count: int, name: str | None = None, players: int = 4, deck: int = 52) -> DealSet:
    if count < 1:
        raise DealSetError("a deal set needs at least one board")
    if players not in PLAYERS:
        raise DealSetError(f"a deal set is for 2 to 7 players, not {players}")
    if deck not in DECK_SIZES:
        raise DealSetError(f"a deal set's deck is 52 or 53 cards, not {deck}")
    seats = seats_for(players)
    boards = tuple(generate_board(seed, n, seats, deck) for n in range(1, count + 1))
    return DealSet(name or seed, seed, boards, players, deck)


def shape(deals: DealSet) -> dict[str, int]:
    """The header fields of a set's table shape and deck, each only when it is not the
    four-seat 52-card default (so older files and commitments keep their bytes)."""
    out = {"players": deals.players} if deals.players != 4 else {}
    if deals.deck != 52:
        out["deck"] = deals.deck
    return out


def dumps(deals: DealSet) -> str:
    """The file text: stable key order and one board per line, so its sha256 is stable."""
    header = {"format": FORMAT, "name": deals.name, "seed": deals.seed, "boards": len(deals.boards), **shape(deals)}
    lines = [json.dumps(header)]
    for n, board in enumerate(deals.boards, 1):
        lines.append(json.dumps({"board": n, **board.to_dict()}))
    return "\n".join(lines) + "\n"


def write(deals: DealSet, path: Path) -> str:
    """Write the file and its ``.sha256`` companion (sha256sum format); returns the digest."""
    text = dumps(deals).encode("utf-8")
    path.write_bytes(text)
    digest = hashlib.sha256(text).hexdigest()
    Path(str(path) + ".sha256").write_text(f"{digest}  {path.name}\n")
    return digest


def parse(lines: Iterable[str], source: str = "<deals>") -> DealSet:
    """Validate and load a deal-set file's lines; every error names ``source`` and the line."""
    header = None
    boards: list[Board] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{source}, line {lineno}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DealSetError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise DealSetError(f"{where}: expected a JSON object")
        if header is None:
            if data.get("format") != FORMAT:
                raise DealSetError(f'{where}: the first line must be a header with "format": "{FORMAT}"')
            if not isinstance(data.get("seed"), str) or not isinstance(data.get("name"), str):
                raise DealSetError(f"{where}: the header needs a name and a seed (strings)")
            if not isinstance(data.get("boards"), int) or data["boards"] < 1:
                raise DealSetError(f"{where}: the header's boards must be a positive count")
            players = data.get("players", 4)
            if players not in PLAYERS or isinstance(players, bool):
                raise DealSetError(f"{where}: the header's players must be 2 to 7, not {players!r}")
            deck = data.get("deck", 52)
            if deck not in DECK_SIZES or isinstance(deck, bool):
                raise DealSetError(f"{where}: the header's deck must be 52 or 53 cards, not {deck!r}")
            header, seats = data, seats_for(players)
            continue
        expected = len(boards) + 1
        if data.get("board") != expected:
            raise DealSetError(f"{where}: expected board {expected}, found {data.get('board')!r}")
        try:
            boards.append(Board.from_dict(data, seats, deck))
        except BoardError as exc:
            raise DealSetError(f"{where}: {exc}") from None
    if header is None:
        raise DealSetError(f"{source}: empty file, expected a header line")
    if len(boards) != header["boards"]:
        raise DealSetError(f"{source}: the header promises {header['boards']} boards, the file has {len(boards)}")
    return DealSet(header["name"], header["seed"], tuple(boards), header.get("players", 4), header.get("deck", 52))


def path_for(name_or_path: str, directory: Path | None = None) -> Path:
    """A set's name (``standard``, in ``directory``, the shipped sets by default) or a file path, as a path."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".jsonl" or candidate.exists():
        return candidate
    return (directory or DEALS_DIR) / f"{name_or_path}.jsonl"


def load(name_or_path: str, directory: Path | None = None) -> DealSet:
    path = path_for(name_or_path, directory)
    try:
        with path.open(encoding="utf-8") as handle:
            return parse(handle, str(path))
    except FileNotFoundError:
        raise DealSetError(f"no deal set {name_or_path!r} (looked for {path})") from None
    except UnicodeDecodeError:
        raise DealSetError(f"{path}: not a UTF-8 text file") from None


def mismatches(deals: DealSet) -> list[int]:
    """Board numbers that differ from the canonical generator for the set's seed."""
    seats = seats_for(deals.players)
    return [n for n, board in enumerate(deals.boards, 1) if board != generate_board(deals.seed, n, seats, deals.deck)]


# ---------------------------------------------------------------------- secret sets and commitments
SECRET_PREFIX = "secret-"


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def secret_name(seed: str) -> str:
    """The name of the secret set made from ``seed``: public, and says nothing of the seed
    that its sha256 (the commitment) does not."""
    return SECRET_PREFIX + sha256_text(seed)[:16]


def commitment(deals: DealSet) -> dict[str, object]:
    """What the server publishes before play: the set's name and size, the sha256 of its
    seed and the sha256 of its file text (``dumps``)."""
    out: dict[str, object] = {
        "name": deals.name,
        "boards": len(deals.boards),
        "seed_sha256": sha256_text(deals.seed),
        "deals_sha256": sha256_text(dumps(deals)),
        **shape(deals),
    }
    return out


def secret(boards: int, players: int = 4, deck: int = 52) -> tuple[DealSet, dict[str, object]]:
    """A fresh secret set of ``boards`` boards for ``players`` seats and a ``deck``-card
    pack (128-bit random seed, canonical generator) and its commitment."""
    seed = secrets.token_hex(16)
    deals = generate(seed, boards, secret_name(seed), players, deck)
    return deals, commitment(deals)


def check_reveal(seed: str, committed: dict[str, object]) -> DealSet:
    """Rebuild the set a revealed ``seed`` makes and check it against ``committed`` (a
    ``commitment`` dict: seed_sha256 required; name, boards and deals_sha256 checked when
    present). Returns the set; ``DealSetError`` says what differs."""
    if not isinstance(seed, str) or not seed:
        raise DealSetError("the revealed seed must be a non-empty string")
    expected = committed.get("seed_sha256")
    if not isinstance(expected, str):
        raise DealSetError("the commitment has no seed_sha256")
    actual = sha256_text(seed)
    if actual != expected.lower():
        raise DealSetError(
            f"the seed does not match the commitment: its sha256 is {actual}, the commitment says {expected}"
        )
    count = committed.get("boards")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise DealSetError(f"the commitment's boards must be a positive count, not {count!r}")
    name = secret_name(seed)
    if committed.get("name") not in (None, name):
        raise DealSetError(f"the commitment names the set {committed['name']!r}, the seed makes {name!r}")
    players = committed.get("players", 4)
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYERS:
        raise DealSetError(f"the commitment's players must be 2 to 7, not {players!r}")
    deck = committed.get("deck", 52)
    if not isinstance(deck, int) or isinstance(deck, bool) or deck not in DECK_SIZES:
        raise DealSetError(f"the commitment's deck must be 52 or 53 cards, not {deck!r}")
    deals = generate(seed, count, name, players, deck)
    digest = sha256_text(dumps(deals))
    wanted = committed.get("deals_sha256")
    if wanted is not None and digest != str(wanted).lower():
        raise DealSetError(f"the rebuilt set's sha256 is {digest}, the commitment says {wanted}")
    return deals
