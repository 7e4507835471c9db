"""What the store should hold for a tournament, recomputed in this process: the end-to-end
tests compare it with what real workers stored."""

from __future__ import annotations

import json
from typing import Any

from server.dealsets import DealSet
from server.engine import make_ruleset
from server.store import Store
from workers.bots import make_bot
from workers.luck import lucky_pair
from workers.match import play_match


def in_process(store: Store, tid: str, deals: DealSet) -> dict[str, list[dict[str, Any]]]:
    """Every match of ``tid`` replayed here, as the board-pair records the store should
    hold (the luck of the draw included: it is a function of the rooms alone)."""
    out = {}
    for mid in store.match_ids(tid):
        m = store.match(mid)
        rules = make_ruleset(m["ruleset"], m["options"])
        boards = [(n, deals.board(n)) for n in range(m["first"], m["last"] + 1)]
        records = play_match(rules, boards, make_bot(m["x"], m["seed"]), make_bot(m["y"], m["seed"]), mid)
        by_number = dict(boards)
        out[mid] = json.loads(json.dumps([lucky_pair(rules, by_number[r["board"]], r) for r in records]))
    return out


def stored(store: Store, tid: str) -> dict[str, list[dict[str, Any] | None]]:
    """Every board-pair record of ``tid`` as stored, by match, in board order."""
    return {mid: [store.pair(mid, n) for n in range(store.match(mid)["first"], store.match(mid)["last"] + 1)]
            for mid in store.match_ids(tid)}
