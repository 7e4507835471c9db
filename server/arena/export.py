"""Export and restore finished tournaments as JSON Lines (docs/operations.md#export).

``export_lines`` writes, for each named finished tournament, everything its reads need
(the API's tournament, results, matches and board records, the pages, the ratings):

    {"format": "cinch-export/1", "tournaments": ["t1", ...]}           the header, first
    {"type": "tournament", "id", "spec", "state", "matches", "complete", "results", "par"}
    {"type": "deals", "name", "source": "published", "sha256"}         a set shipped under deals/
    {"type": "deals", "name", "source": "secret", "seed"}              rebuilt, and checked against
                                                                       the tournament's commitment
    {"type": "deals", "name", "source": "stored", "lines": [...]}      any other set, as its file
    {"type": "bot", "bot": {name, kind, status, trusted, created, description}}
    {"type": "match", "id", "tournament", "spec", "status", "timeouts", "faulty"}
    {"type": "board", "match", "board", "record", "score", "luck"}    one a stored board record
    {"type": "comparison", "tournament", "ruleset", "record"}          a rated comparison
    {"type": "end", "lines": N}                                        the lines before it

Only finished tournaments are exported: a running one's unfinished boards and a secret
set's seed before its reveal are hidden, and a finished one shows everything here
through the API already. Nothing else is written: no token nor token hash, no time bank,
no lease or job, and of a local entrant only its kind (not its path or command).

``read_archive`` checks a whole file before anything is written (a one-line
``ArchiveError`` naming the line), and ``restore`` writes it in one transaction
(``Store.restore``), refusing a tournament id already stored unless told to skip it, then
refits the ratings of the rulesets it touched, so they equal the exporting arena's when
the importing one holds the same comparisons.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.arena import dealsets
from server.arena.dealsets import DealSet, DealSetError
from server.arena.ratings import match_of
from server.arena.registry import source_kind
from server.arena.store import Restored, Store, StoreError
from server.arena.tournaments import entrants, rebuild_ratings
from server.errors import InvalidRequest

FORMAT = "cinch-export/1"
BOT_FIELDS = ("name", "kind", "status", "trusted", "created", "description")
"""What an export keeps of a bot: what the API shows of it. Never its token's hash."""
TOURNAMENT_ID = re.compile(r"^t[1-9][0-9]*$")
DEALS_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
"""A published set's name: a file name under the deals directory, nothing that climbs out of it."""


class ArchiveError(InvalidRequest):
    """An export that cannot be made or a file that cannot be imported; the message says
    why (and on which line)."""


def export_lines(store: Store, tids: Iterable[str], deals_dir: Path | None = None) -> list[str]:
    """The export of tournaments ``tids`` (each once, in the order given), every line
    made before any is returned: an unknown or unfinished tournament refuses the lot."""
    wanted = list(dict.fromkeys(tids))
    if not wanted:
        raise ArchiveError("name at least one tournament to export")
    for tid in wanted:
        try:
            status = store.tournament(tid)["status"]
        except StoreError:
            raise ArchiveError(f"no tournament {tid!r}") from None
        if status != "finished":
            raise ArchiveError(
                f"tournament {tid} is {status}: only finished tournaments are exported (until it finishes "
                "its unfinished boards, and a secret deal set's seed, are hidden)"
            )
    lines: list[dict[str, Any]] = [{"format": FORMAT, "tournaments": wanted}]
    bots: set[str] = set()
    deals: set[str] = set()
    for tid in wanted:
        dump = store.tournament_dump(tid)
        spec = dump["spec"] = _without_sources(dump["spec"])
        lines.append({"type": "tournament", **_listed_par(dump)})
        if spec["deals"] not in deals:
            deals.add(spec["deals"])
            lines.append(_deals_line(store, spec, deals_dir))
        for name in entrants(spec):
            if name in bots or name in (spec.get("local") or {}):
                continue
            bots.add(name)
            try:
                bot = store.bot(name)
            except StoreError:
                continue  # never stored (an own entrant of an older version): nothing to show
            lines.append({"type": "bot", "bot": {k: bot[k] for k in BOT_FIELDS if k in bot}})
        for mid in dump["matches"]:
            match = store.match_dump(mid)
            remote = store.match_remote_dump(mid)
            lines.append(
                {
                    "type": "match",
                    "id": mid,
                    "tournament": tid,
                    "spec": match["spec"],
                    "status": match["status"],
                    **remote,
                }
            )
            for n in sorted(match["pairs"]):
                lines.append(
                    {
                        "type": "board",
                        "match": mid,
                        "board": n,
                        "record": match["pairs"][n],
                        "score": match["scores"].get(n),
                        "luck": match["luck"].get(n),
                    }
                )
        for record in store.comparisons_of(spec["ruleset"], dump["matches"]):
            lines.append({"type": "comparison", "tournament": tid, "ruleset": spec["ruleset"], "record": record})
    lines.append({"type": "end", "lines": len(lines)})
    return [json.dumps(line, separators=(",", ":")) for line in lines]


def _without_sources(spec: dict[str, Any]) -> dict[str, Any]:
    """A spec with each own entrant's source reduced to its kind: where a local bot's file
    is, or a cmd bot's command, serves play on that machine only."""
    local = spec.get("local")
    if not local:
        return spec
    return {**spec, "local": {name: {"kind": source_kind(source).name} for name, source in local.items()}}


def _listed_par(dump: dict[str, Any]) -> dict[str, Any]:
    return {**dump, "par": [[n, dump["par"][n]] for n in sorted(dump["par"])]}


def _deals_line(store: Store, spec: dict[str, Any], deals_dir: Path | None) -> dict[str, Any]:
    name = spec["deals"]
    stored = store.stored_dealset(name)
    if spec.get("commitment"):
        return {"type": "deals", "name": name, "source": "secret", "seed": stored.seed}
    path = (deals_dir or dealsets.DEALS_DIR) / f"{name}.jsonl"
    if DEALS_NAME.match(name) and path.is_file():
        try:
            published = dealsets.load(str(path))
        except DealSetError:
            published = None
        if published == stored:
            return {"type": "deals", "name": name, "source": "published", "sha256": _sha256(path)}
    for tid in store.active_tournaments():
        if store.tournament(tid)["deals"] == name:
            raise ArchiveError(
                f"deal set {name} is also dealt by tournament {tid}, which is not finished: its boards are "
                "hidden until then, so it is not exported"
            )
    return {"type": "deals", "name": name, "source": "stored", "lines": dealsets.dumps(stored).splitlines()}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class Archive:
    """A checked export: its tournaments (with their matches and comparisons), bots and
    deal-set lines, in file order."""

    tournaments: list[Restored] = field(default_factory=list)
    bots: list[dict[str, Any]] = field(default_factory=list)
    deals: dict[str, dict[str, Any]] = field(default_factory=dict)


def read_archive(lines: Iterable[str], source: str = "<export>") -> Archive:
    """Check a whole export and return it; ArchiveError names the first bad line."""
    archive = Archive()
    by_id: dict[str, Restored] = {}
    matches: dict[str, tuple[Restored, dict[str, Any]]] = {}
    listed: list[str] = []
    count = 0
    ended = False
    for lineno, line in enumerate(lines, 1):
        where = f"{source}, line {lineno}"
        if ended:
            if line.strip():
                raise ArchiveError(f"{where}: a line after the end line")
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ArchiveError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise ArchiveError(f"{where}: expected a JSON object")
        count += 1
        try:
            if lineno == 1:
                listed = _header(data)
                continue
            kind = data.get("type")
            if kind == "end":
                if _need(data, "lines", int) != count - 1:
                    raise ArchiveError(f"the end line counts {data['lines']} lines, the file has {count - 1}")
                ended = True
            elif kind == "tournament":
                t = _tournament(data, listed, by_id)
                by_id[t.id] = t
                archive.tournaments.append(t)
            elif kind == "deals":
                name = _need(data, "name", str)
                if name in archive.deals:
                    raise ArchiveError(f"deal set {name} is given twice")
                archive.deals[name] = _deals(data)
            elif kind == "bot":
                archive.bots.append(_bot(data))
            elif kind == "match":
                t = _owner(data, by_id)
                mid = _need(data, "id", str)
                if mid not in t.tournament["matches"] or mid in matches:
                    raise ArchiveError(f"match {mid} is not one of tournament {t.id}'s, or is given twice")
                match = {
                    "id": mid,
                    "spec": _need(data, "spec", dict),
                    "status": _need(data, "status", str),
                    "timeouts": _counts(_need(data, "timeouts", dict)),
                    "faulty": _names(_need(data, "faulty", list)),
                    "pairs": {},
                    "scores": {},
                    "luck": {},
                }
                if match["spec"].get("id") != mid or match["spec"].get("tournament") != t.id:
                    raise ArchiveError(f"match {mid}'s spec names another match")
                t.matches.append(match)
                matches[mid] = (t, match)
            elif kind == "board":
                _board(data, matches)
            elif kind == "comparison":
                t = _owner(data, by_id)
                record = _need(data, "record", dict)
                if _need(data, "ruleset", str) != t.ruleset or match_of(record) not in t.tournament["matches"]:
                    raise ArchiveError(f"comparison {record.get('id')!r} is not one of tournament {t.id}'s")
                _need(record, "order", list)
                _need(record, "scores", list)
                t.comparisons.append(record)
            else:
                raise ArchiveError(f"unknown line type {kind!r}")
        except ArchiveError as exc:
            raise ArchiveError(f"{where}: {exc}") from None
    if count == 0:
        raise ArchiveError(f"{source}: empty file, expected a header line")
    if not ended:
        raise ArchiveError(f"{source}: no end line: the file is cut short")
    _complete(archive, listed, source)
    return archive


def _header(data: dict[str, Any]) -> list[str]:
    version = data.get("format")
    if version != FORMAT:
        raise ArchiveError(f"not a cinch export of a version this cinch reads ({FORMAT}): format {version!r}")
    tids = _need(data, "tournaments", list)
    if not tids or not all(isinstance(t, str) and TOURNAMENT_ID.match(t) for t in tids) or len(set(tids)) != len(tids):
        raise ArchiveError("the header's tournaments must be distinct ids (t1, t2, ...)")
    return tids


def _need(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ArchiveError(f"{name} must be a JSON {_JSON_TYPES[kind]}")
    return value


_JSON_TYPES = {str: "string", int: "integer", dict: "object", list: "array"}


def _counts(data: dict[str, Any]) -> dict[str, int]:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in data.values()):
        raise ArchiveError("timeouts must count each bot's timeouts")
    return data


def _names(data: list[Any]) -> list[str]:
    if not all(isinstance(v, str) for v in data):
        raise ArchiveError("faulty must list bot names")
    return data


def _tournament(data: dict[str, Any], listed: list[str], known: dict[str, Restored]) -> Restored:
    tid = _need(data, "id", str)
    if tid not in listed or tid in known:
        raise ArchiveError(f"tournament {tid!r} is not in the header, or is given twice")
    spec = _need(data, "spec", dict)
    state = _need(data, "state", dict)
    if spec.get("id") != tid:
        raise ArchiveError(f"tournament {tid}'s spec names another tournament")
    if state.get("status") != "finished" or not all(isinstance(v, str) for v in state.values()):
        raise ArchiveError(f"tournament {tid} is not a finished tournament's record")
    for name in ("created", "pairs_done", "pairs_total", "matches_total"):
        try:
            float(state[name])
        except (KeyError, ValueError):
            raise ArchiveError(f"tournament {tid}'s state has no {name}") from None
    try:
        names = entrants(spec)
        ruleset = spec["ruleset"]
        deals = spec["deals"]
    except Exception as exc:  # a spec no format reads: what it lacks, for the message
        raise ArchiveError(f"tournament {tid}'s spec is not one this cinch reads ({exc!r})") from None
    if not isinstance(ruleset, str) or not isinstance(deals, str) or not all(isinstance(n, str) for n in names):
        raise ArchiveError(f"tournament {tid}'s spec has no ruleset or deal set")
    mids = _need(data, "matches", list)
    if not all(isinstance(m, str) and m.startswith(f"{tid}.m") for m in mids) or len(set(mids)) != len(mids):
        raise ArchiveError(f"tournament {tid}'s matches must be its own ids ({tid}.m1, ...)")
    complete = _need(data, "complete", list)
    if not set(complete) <= set(mids):
        raise ArchiveError(f"tournament {tid}'s complete matches are not all its matches")
    par: dict[int, Any] = {}
    for entry in _need(data, "par", list):
        if not (
            isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and isinstance(entry[1], dict)
        ):
            raise ArchiveError(f"tournament {tid}'s par rooms must be [board, room] pairs")
        par[entry[0]] = entry[1]
    results = data.get("results")
    if not isinstance(results, dict):
        raise ArchiveError(f"tournament {tid} has no results")
    dump = {
        "id": tid,
        "spec": spec,
        "state": state,
        "matches": mids,
        "complete": complete,
        "results": results,
        "par": par,
    }
    return Restored(dump, [], ruleset)


def _owner(data: dict[str, Any], known: dict[str, Restored]) -> Restored:
    tid = _need(data, "tournament", str)
    if tid not in known:
        raise ArchiveError(f"tournament {tid!r} has no tournament line before this one")
    return known[tid]


def _deals(data: dict[str, Any]) -> dict[str, Any]:
    source = data.get("source")
    if source == "published":
        if not DEALS_NAME.match(data["name"]):
            raise ArchiveError(f"a published deal set's name must be a file name, not {data['name']!r}")
        _need(data, "sha256", str)
    elif source == "secret":
        _need(data, "seed", str)
    elif source == "stored":
        try:
            deals = dealsets.parse(_need(data, "lines", list), f"deal set {data['name']}")
        except (DealSetError, TypeError, AttributeError) as exc:
            raise ArchiveError(f"deal set {data['name']}: {exc}") from None
        if deals.name != data["name"]:
            raise ArchiveError(f"deal set {data['name']}'s lines name another set, {deals.name}")
        return {**data, "set": deals}
    else:
        raise ArchiveError(f"deal set source must be published, secret or stored, not {source!r}")
    return data


def _bot(data: dict[str, Any]) -> dict[str, Any]:
    bot = _need(data, "bot", dict)
    unknown = set(bot) - set(BOT_FIELDS)
    if unknown:
        raise ArchiveError(f"a bot has fields an export never writes: {', '.join(sorted(unknown))}")
    _need(bot, "name", str)
    _need(bot, "kind", str)
    _need(bot, "status", str)
    return bot


def _board(data: dict[str, Any], matches: dict[str, tuple[Restored, dict[str, Any]]]) -> None:
    mid = _need(data, "match", str)
    if mid not in matches:
        raise ArchiveError(f"match {mid!r} has no match line before this one")
    _, match = matches[mid]
    n = _need(data, "board", int)
    first, last = match["spec"].get("first"), match["spec"].get("last")
    if not isinstance(first, int) or not isinstance(last, int) or not first <= n <= last or n in match["pairs"]:
        raise ArchiveError(f"board {n} is not one of match {mid}'s boards, or is given twice")
    score = data.get("score")
    if not (isinstance(score, (int, float, list)) and not isinstance(score, bool)):
        raise ArchiveError(f"board {n} of match {mid} has no score")
    luck = data.get("luck")
    if luck is not None and (not isinstance(luck, (int, float)) or isinstance(luck, bool)):
        raise ArchiveError(f"board {n} of match {mid}: luck must be a number or null")
    match["pairs"][n] = _need(data, "record", dict)
    match["scores"][n] = score
    if luck is not None:
        match["luck"][n] = float(luck)


def _complete(archive: Archive, listed: list[str], source: str) -> None:
    """Every tournament the header lists is in the file with every match and its deal set
    (an entrant need not have a bot line: one never stored as a bot has none)."""
    found = {t.id: t for t in archive.tournaments}
    for tid in listed:
        t = found.get(tid)
        if t is None:
            raise ArchiveError(f"{source}: the header lists {tid}, the file has no tournament line for it")
        given = {m["id"] for m in t.matches}
        missing = [m for m in t.tournament["matches"] if m not in given]
        if missing:
            raise ArchiveError(f"{source}: tournament {tid} has no line for match {missing[0]}")
        spec = t.tournament["spec"]
        deals = archive.deals.get(spec["deals"])
        if deals is None:
            raise ArchiveError(f"{source}: tournament {tid}'s deal set {spec['deals']} is not in the file")
        if deals["source"] == "secret" and not isinstance(spec.get("commitment"), dict):
            raise ArchiveError(f"{source}: deal set {spec['deals']} is given by its seed but {tid} has no commitment")


def read_file(path: Path) -> Archive:
    """``read_archive`` of a file; a missing or unreadable file is an ArchiveError too."""
    try:
        with path.open(encoding="utf-8") as handle:
            return read_archive(handle, str(path))
    except FileNotFoundError:
        raise ArchiveError(f"no file {path}") from None
    except IsADirectoryError:
        raise ArchiveError(f"{path} is a directory, not an export") from None
    except UnicodeDecodeError:
        raise ArchiveError(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise ArchiveError(f"cannot read {path}: {exc.strerror}") from None


def deal_sets(archive: Archive, deals_dir: Path | None = None) -> list[DealSet]:
    """The deal sets of an export, each rebuilt and checked: a published one read from
    ``deals_dir`` (the shipped sets by default) and refused unless its file's sha256 is the
    exported one, a secret one rebuilt from its seed and refused unless it is the one its
    tournament committed to."""
    commitments = {t.tournament["spec"]["deals"]: t.tournament["spec"].get("commitment") for t in archive.tournaments}
    out = []
    for name, line in archive.deals.items():
        if line["source"] == "stored":
            out.append(line["set"])
            continue
        if line["source"] == "secret":
            try:
                rebuilt = dealsets.check_reveal(line["seed"], commitments.get(name) or {})
            except DealSetError as exc:
                raise ArchiveError(f"deal set {name}: {exc}") from None
            if rebuilt.name != name:
                raise ArchiveError(f"deal set {name}: its seed makes the set {rebuilt.name}")
            out.append(rebuilt)
            continue
        path = (deals_dir or dealsets.DEALS_DIR) / f"{name}.jsonl"
        if not path.is_file():
            raise ArchiveError(f"deal set {name} is a published set, and {path} is not here")
        if _sha256(path) != line["sha256"]:
            raise ArchiveError(f"deal set {name}: {path} is not the file exported (its sha256 differs)")
        try:
            out.append(dealsets.load(str(path)))
        except DealSetError as exc:
            raise ArchiveError(str(exc)) from None
    return out


def restore(store: Store, archive: Archive, deals_dir: Path | None = None, skip_existing: bool = False) -> list[str]:
    """Write a checked export into ``store`` in one transaction (``Store.restore``) and refit
    the ratings of the rulesets it added comparisons to; returns the tournament ids
    written. A tournament id already stored refuses the lot (Conflict), or with
    ``skip_existing`` is left as it is."""
    written = store.restore(archive.tournaments, archive.bots, deal_sets(archive, deals_dir), skip_existing)
    rulesets = sorted({t.ruleset for t in archive.tournaments if t.id in written and t.comparisons})
    for ruleset in rulesets:
        if store.legacy_ratings(ruleset):
            rebuild_ratings(store, [ruleset])
        else:
            store.refresh_ratings(ruleset)
    return written


def summary(archive: Archive) -> Iterator[str]:
    """One line per tournament of an export, for people."""
    for t in archive.tournaments:
        boards = sum(len(m["pairs"]) for m in t.matches)
        spec = t.tournament["spec"]
        yield f"{t.id}: {spec.get('format')} on {t.ruleset}, {len(t.matches)} matches, {boards} board records"
