#!/usr/bin/env python3
"""A complete Cinch bot on the line protocol, in Python's standard library alone (no SDK).

    cinch tournament --bots "cmd:python3 examples/line_bot.py" rule
    cinch compare "cmd:python3 examples/line_bot.py" rule --sprt
    cinch bot run --cmd "python3 examples/line_bot.py" --server URL --token-file F

It reads one decision per line on standard input (the object a remote bot gets from
the REST API: ``id``, ``observation``, ``legal``, ``deadline``, ``deadline_in_ms``) and
writes one action per line on standard output, flushing each (docs/line-protocol.md).
Its rule is simple but legal in every decision of every ruleset, because it only ever
completes an entry of ``legal``: it passes when it may (else makes the lowest bid),
names the suit it holds most of, keeps its trumps when it draws, and otherwise sends
the first legal entry, completed as the server's own default completes it. Anything it
prints for people goes to standard error, which the arena does not read.
"""

import json
import sys


def suit_of(card):
    return None if card == "JK" else card[-1]


def complete(entry):
    """An action from a legal entry: plain entries as they are; a choice (discard, rob,
    a play owing extras) filled in with the forced cards, then the first listed."""
    action = {k: v for k, v in entry.items() if k not in ("from", "min", "max", "must_include", "must_keep", "size")}
    action.pop("extras_count", None)
    action.pop("extras_from", None)
    if entry["type"] == "discard":
        must = list(entry.get("must_include", []))
        rest = [c for c in entry["from"] if c not in must]
        action["cards"] = must + rest[: max(0, entry["min"] - len(must))]
    elif entry["type"] == "rob":
        action["keep"] = keep(entry, None)
    elif entry["type"] == "play" and "extras_count" in entry:
        action["extras"] = entry["extras_from"][: entry["extras_count"]]
    return action


def keep(entry, trump):
    """The dealer's hand after the draw: the forced cards, then trumps, then the rest."""
    must = list(entry["must_keep"])
    rest = [c for c in entry["from"] if c not in must]
    rest.sort(key=lambda c: suit_of(c) != trump)  # stable: trumps first, each group in listed order
    return must + rest[: entry["size"] - len(must)]


def decide(decision):
    observation = decision.get("observation") or {}
    legal = decision.get("legal") or observation.get("legal") or []
    if not legal:
        raise ValueError("a decision with no legal action")
    types = [entry["type"] for entry in legal]
    if "bid" in types or types == ["pass"]:
        if "pass" in types:
            return {"type": "pass"}
        return min((entry for entry in legal if entry["type"] == "bid"), key=lambda e: e["amount"])
    if types[0] == "trump":
        hand = observation.get("hand") or []
        return max(legal, key=lambda e: sum(suit_of(c) == e["suit"] for c in hand))
    if types[0] == "rob":
        return {"type": "rob", "keep": keep(legal[0], observation.get("trump"))}
    return complete(legal[0])


def main():
    for line in iter(sys.stdin.readline, ""):
        if not line.strip():
            continue
        try:
            action = decide(json.loads(line))
        except Exception as exc:  # say so and answer nothing: the arena then plays the default action
            print(f"line_bot: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            action = {}
        sys.stdout.write(json.dumps(action) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
