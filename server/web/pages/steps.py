"""A played hand of any game of the family as the steps a page replays, one decision at a time.

Pure (no Flask, no I/O). The engine's own hand (``server.engine.replay.start_hand``) is
driven through the record's actions one by one and every fact is read from it: who acted,
the cards each seat holds after each action (so a draw, a rob, a widow taken or a run of
seven_up is whatever changed in the hands), the trick in progress, trump, and at the end
the engine's scoring items, each named (High, Low, Jack, Game, Pedro ...) and placed in
the trick where its card fell. Nothing here names a game: what differs between games is
only which phases their actions belong to, and the words for each action type.

A step has a *key* that places it in the hand: ``deal``; ``<phase><n>`` for the n-th action
of a phase before the play (``bidding3``, ``discard2``); ``t<trick>c<card>`` in the play;
``score`` at the end. ``merged_keys`` orders the keys of several rooms of one board into
one list, so one control moves every room to the same place (``static/replay.js``), and
a page's URL fragment (``#t3c2``) names a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.engine import ALL_NAMES, CARD_NAMES, IllegalAction, ReplayError
from server.engine.cards import Tables, names_of
from server.engine.hand import Hand
from server.engine.replay import start_hand

PHASES = ("deal", "bidding", "beg", "give", "bunch", "accept", "sale", "widow", "trump", "discard", "rob", "call")
"""The phases before the play in the order a hand of any game meets them (a game has some)."""

TITLES = {
    "deal": "Deal",
    "bidding": "Auction",
    "beg": "Turn-up",
    "give": "Give or run",
    "bunch": "Bunch",
    "accept": "Bunch",
    "sale": "Sale",
    "widow": "Widow",
    "trump": "Trump",
    "discard": "Discard",
    "rob": "Rob",
    "call": "Call",
    "play": "Play",
    "score": "Score",
}

# The points, named: a scoring item of the All Fours games by its id, a counting trump of
# the Cinch games by its rank (the left Pedro by the tables).
ITEM_NAMES = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "game": "Game",
    "ten": "Game",
    "five": "Pedro",
    "nine": "Nine",
    "three": "Three",
    "snoozer": "Snoozer",
    "peg": "Pegs",
    "gift": "Gift",
    "turned-jack": "Turned Jack",
    "sale": "Sale",
    "set-back": "Set back",
}
RANK_NAMES = {
    "A": "High",
    "2": "Low",
    "J": "Jack",
    "T": "Game",
    "5": "Right Pedro",
    "K": "King",
    "3": "Three",
    "9": "Nine",
}

WORDS = {
    "pass": "passes",
    "stand": "stands: the turn-up's suit is trump",
    "beg": "begs",
    "give": "gives a point",
    "run": "runs the cards",
    "bunch": "asks for a bunch",
    "accept": "accepts the bunch: a new deal",
    "refuse": "refuses the bunch",
    "pitch": "pitches",
    "rob": "robs the pack",
}


def point_name(item: str, tables: Tables | None) -> str:
    """The name of a scoring item: an All Fours item id, or a Cinch counting card's name."""
    if item in ITEM_NAMES:
        return ITEM_NAMES[item]
    if tables is not None and item in CARD_NAMES and CARD_NAMES.index(item) == tables.left_pedro:
        return "Left Pedro"
    return RANK_NAMES.get(item[:-1], item) if item in CARD_NAMES else item


def _hands(state: Hand) -> list[list[str]]:
    return [names_of(mask) for mask in state.hands]


def _words(action: dict[str, Any], state: Hand, before: list[int], actor: int) -> list[tuple[str, Any]]:
    """What an action did, as parts a template draws: ("text", words), ("cards", names),
    ("suit", letter). Cards that came or went at other seats (an automatic draw, a run, a
    new deal) are added as "seat gets ... / lets go of ..." parts."""
    kind = action.get("type")
    after = state.hands
    gone = names_of(before[actor] & ~after[actor])
    got = names_of(after[actor] & ~before[actor])
    parts: list[tuple[str, Any]] = []
    if kind == "bid":
        parts.append(("text", f"bids {action.get('amount')}"))
    elif kind == "trump":
        parts += [("text", "names trump"), ("suit", action.get("suit"))]
    elif kind == "discard":
        parts += [("text", "discards"), ("cards", gone)] if gone else [("text", "discards nothing")]
        if got:
            parts += [("text", "and draws"), ("cards", got)]
    elif kind == "rob":
        parts += [("text", "robs the pack: takes"), ("cards", got), ("text", "and lets go of"), ("cards", gone)]
    elif kind == "widow":
        parts += [("text", "takes the widow"), ("cards", got)] if action.get("take") else [("text", "leaves the widow")]
    elif kind == "call":
        partner = state.describe_extra().get("partner")
        parts += [("text", "calls"), ("cards", [action.get("card")])]
        parts.append(
            ("text", f"; {partner} holds it and is the partner" if partner else "; nobody else holds it: alone")
        )
    elif kind == "sell":
        contract = state.contract_dict() or {}
        parts.append(("text", f"sells to {contract.get('seat')} for {contract.get('amount')}"))
    else:
        parts.append(("text", WORDS.get(str(kind), str(kind))))
        if kind == "stand" or (kind in ("give", "run") and state.trump is not None):
            parts += [("text", "trump"), ("suit", state.trump_name())]
    turned = list(state.describe_extra().get("turnups") or ()) if kind in ("run", "accept") else []
    if turned:
        parts += [("text", "; turned up"), ("cards", turned[-1:])]
    for seat, (was, now) in enumerate(zip(before, after)):
        if seat != actor and was != now:
            parts.append(("text", f"; {state.seats[seat]}"))
            if now & ~was:
                parts += [("text", "gets"), ("cards", names_of(now & ~was))]
            if was & ~now:
                parts += [("text", "lets go of"), ("cards", names_of(was & ~now))]
    return parts


def _current_trick(state: Hand) -> tuple[int, list[list[str]], str | None]:
    """(index, plays as [seat, card, extras...], winner) of the last trick anyone played to."""
    for index in range(len(state.tricks) - 1, -1, -1):
        trick = state.tricks[index]
        if trick.plays:
            plays = [[state.seats[s], ALL_NAMES[c], *names_of(x)] for s, c, x in trick.plays]
            return index, plays, None if trick.winner is None else state.seats[trick.winner]
    return -1, [], None


def _items(state: Hand, tricks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's scoring items, named, each with the trick its card fell in (or a
    pegging trick's number); ``trick`` None for what was not won in a trick."""
    where: dict[str, int] = {}
    for trick in tricks:
        for play in trick["plays"]:
            for card in (play["card"], *play["extras"]):
                where[card] = trick["number"]
    out = []
    for item in state.describe_extra().get("items", ()):
        card = item.get("card") or (item["item"] if item["item"] in ALL_NAMES else None)
        if "trick" in item:
            fell: int | None = item["trick"] + 1
        else:
            fell = None if item.get("discard") or card is None else where.get(card)
        out.append(
            {
                "name": point_name(item["item"], state.tables),
                "card": card,
                "value": item["value"],
                "side": item["side"],
                "trick": fell,
                "discard": bool(item.get("discard")),
            }
        )
    return out


def _played(state: Hand, tricks: list[dict[str, Any]], step: dict[str, Any]) -> None:
    """A play just applied: its step's key (``t<trick>c<card>``), the trick on the table,
    and the card added to its trick in ``tricks``."""
    number, plays, winner = _current_trick(state)
    seat, card, *extras = plays[-1]
    step.update(key=f"t{number + 1}c{len(plays)}", trick=plays, winner=winner, card=card)
    if number == len(tricks):
        tricks.append({"number": number + 1, "leader": state.seats[state.tricks[number].leader], "plays": []})
    tricks[number]["plays"].append({"seat": seat, "card": card, "extras": extras, "key": step["key"]})
    tricks[number]["winner"] = winner


def walk(doc: Any) -> dict[str, Any]:
    """The hand of a replay document (a stored hand record) as steps, sections and result;
    ``ReplayError`` for a malformed or illegal one."""
    state = start_hand(doc)
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list of action objects", None)
    seats = list(state.seats)
    steps: list[dict[str, Any]] = [
        {"key": "deal", "phase": "deal", "hands": _hands(state), "trick": [], "winner": None}
    ]
    sections: list[dict[str, Any]] = []  # the phases before the play, in the order met
    tricks: list[dict[str, Any]] = []
    counters: dict[str, int] = {}
    dealt = _hands(state)
    turnups = list(state.describe_extra().get("turnups") or ())
    for index, action in enumerate(actions):
        if state.to_act is None:
            raise ReplayError("an action after the end of the hand", index)
        phase, actor, before = state.phase, state.actor(), list(state.hands)
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayError(str(exc), index) from None
        step: dict[str, Any] = {"phase": phase, "seat": seats[actor], "hands": _hands(state)}
        if action.get("type") == "play":
            _played(state, tricks, step)
        else:
            counters[phase] = counters.get(phase, 0) + 1
            step.update(
                key=f"{phase}{counters[phase]}", trick=[], winner=None, parts=_words(action, state, before, actor)
            )
            if not sections or sections[-1]["phase"] != phase:
                sections.append({"phase": phase, "title": TITLES.get(phase, phase), "steps": []})
            sections[-1]["steps"].append(step)
            if phase == "discard" and any(now & ~was for was, now in zip(before, state.hands)):
                sections[-1]["title"] = "Discard and draw"  # a draw from a stock or a packet
        steps.append(step)
    described = state.describe()
    items = _items(state, tricks)
    for done in tricks:
        done["side"] = state.sides[state.side_of[seats.index(done["winner"])]] if done["winner"] else None
        done["points"] = [item for item in items if item["trick"] == done["number"]]
    steps.append({"key": "score", "phase": "score", "hands": _hands(state), "trick": [], "winner": None})
    first_play = next((i for i, s in enumerate(steps) if s["phase"] == "play"), len(steps) - 1)
    walked = {
        "ruleset": state.rules.name,
        "seats": seats,
        "sides": list(state.sides),
        "side_of": {seat: state.sides[state.side_of[i]] for i, seat in enumerate(seats)},
        "dealer": seats[state.dealer],
        "dealt": dict(zip(seats, dealt)),
        "turnups": turnups,
        "in_play": described["hands_after_draw"],
        "steps": steps,
        "sections": sections,
        "tricks": tricks,
        "items": items,
        "contract": described["contract"],
        "declarer": described["declarer"],
        "trump": described["trump"],
        "points": described["points"] or {},
        "delta": described["delta"] or {},
        "record": described.get("record") or {},
        "complete": described["complete"],
        "start": max(first_play - 1, 0),
        "play_from": steps[first_play]["key"],
        "compass": compass(seats),
    }
    walked["frames"] = frames(walked)
    return walked


def _rank(step: dict[str, Any]) -> tuple[int, int, int]:
    """Where a step falls in any hand: its phase's place in ``PHASES`` (then its number in
    the phase), then the play (trick, card), then the score."""
    key, phase = step["key"], step["phase"]
    if phase == "score":
        return (len(PHASES) + 1, 0, 0)
    if phase == "play":
        trick, card = key[1:].split("c")
        return (len(PHASES), int(trick), int(card))
    return (PHASES.index(phase) if phase in PHASES else len(PHASES) - 1, int(key[len(phase) :] or 0), 0)


def label(step: dict[str, Any]) -> str:
    """A step's place in words: "Deal", "Auction 3", "Trick 2, card 4", "Score"."""
    key, phase = step["key"], step["phase"]
    if phase == "play":
        trick, card = key[1:].split("c")
        return f"Trick {trick}, card {card}"
    if phase in ("deal", "score"):
        return TITLES[phase]
    return f"{TITLES.get(phase, phase)} {key[len(phase) :]}"


def merged_keys(walks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every step key of the rooms of one board in one order that keeps each room's own:
    ``{"key", "label", "phase", "trick"}`` (trick 0 before the play). The rooms of a board
    meet the same phases in the same order, except that a phase one room has and another
    has not (a give after a beg) falls where ``PHASES`` puts it."""
    chains = [[step["key"] for step in w["steps"]] for w in walks]
    info = {step["key"]: step for w in walks for step in w["steps"]}
    at = [0] * len(chains)
    out: list[dict[str, Any]] = []
    while any(p < len(chain) for p, chain in zip(at, chains)):
        heads = {chain[p] for p, chain in zip(at, chains) if p < len(chain)}
        ready = [h for h in heads if not any(h in chain[p + 1 :] for p, chain in zip(at, chains))]
        key = min(ready or heads, key=lambda k: _rank(info[k]))
        step = info[key]
        trick = int(key[1:].split("c")[0]) if step["phase"] == "play" else 0
        out.append({"key": key, "label": label(step), "phase": step["phase"], "trick": trick})
        at = [p + 1 if p < len(chain) and chain[p] == key else p for p, chain in zip(at, chains)]
    return out


def compass(seats: Sequence[str]) -> list[tuple[str, int]]:
    """Each seat's place around a table drawn as a 3 by 3 grid: the eight outer cells
    numbered clockwise from the top middle, the seats spread evenly from the top (N at the
    top, E right, S bottom, W left at four)."""
    k = len(seats)
    return [(seat, round(i * 8 / k) % 8) for i, seat in enumerate(seats)]


def frames(w: dict[str, Any]) -> list[list[Any]]:
    """The steps as the script needs them to draw the compass: [key, hands (one string of
    card names per seat), trick plays, winner]. Compact: a page holds one per step per room."""
    return [[s["key"], [" ".join(h) for h in s["hands"]], s["trick"], s["winner"]] for s in w["steps"]]
