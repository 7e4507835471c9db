"""A remote bot that cheats with its memory: the attacker the fair-play tests play against.

It plays random legal actions, and on the side it tries the two attacks a remote bot
can mount on duplicate play (issue 11):

* **Lookup.** Every hand it is dealt is fingerprinted under all eight colour-preserving
  suit maps (the arena's relabelings) and looked up among the hands of every published
  deal set in ``deals/``. A hit means it knows the whole board from its first decision.
* **Linking rooms.** It remembers what it saw in every room: the two hands its side was
  dealt, and the stock cards it saw (drawn, or left to the robbing dealer). A room is
  linked to an earlier one when, under some suit map, the hands it holds now and the
  earlier room's are disjoint and neither room's stock cards fall in the other's hands.
  That is what the second room of a two-room board looks like (the bot now holds the
  hands its opponents held), and a random pair of boards almost never does (about
  5e-5 for the hands alone, times the stock checks). Once linked, it knows the
  opponents' hands: they are the ones it held before.

It tells rooms apart by their bidding: a room starts at a bid decision in which its own
side has not bid yet (its own seat alone with ``MEMORY_ATTACK_SOLO=1``, for Progressive,
where its partner is another entrant); the tests give it one room at a time. After every
room it writes its findings to the JSON file named by ``MEMORY_ATTACK_REPORT``, with the
hands of every room in the order it met them (``sequence``), so that a test can measure
what the order tells once the seed is revealed.

    python tests/support/memory_attack.py --server URL --token TOKEN
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import sdk
from server.arena import dealsets
from server.engine import HandState, make_ruleset
from server.engine.cards import names_of
from server.engine.relabel import relabelings

MAPS = relabelings()
SEATS = "NESW"


def mapped(cards, mapping: dict[str, str]) -> frozenset[str]:
    return frozenset(c[0] + mapping[c[1]] for c in cards)


def fingerprint(cards) -> tuple[str, ...]:
    """The same for a hand and every relabeling of it: the least of its eight images."""
    return min(tuple(sorted(mapped(cards, m))) for m in MAPS)


def published_hands() -> dict[tuple[str, ...], str]:
    """Every dealt hand of every four-seat 52-card deal set in deals/ (the attack is on an
    american62 tournament, which no 53-card set can deal), by fingerprint -> "set/board/seat"."""
    index = {}
    rules = make_ruleset("american62")
    for path in sorted(dealsets.DEALS_DIR.glob("*.jsonl")):
        deals = dealsets.load(str(path))
        if deals.players != 4 or deals.deck != 52:
            continue
        for number, board in enumerate(deals.boards, 1):
            for seat, hand in zip(SEATS, HandState(rules, board).hands):
                index[fingerprint(names_of(hand))] = f"{deals.name}/{number}/{seat}"
    return index


class Room:
    def __init__(self):
        self.dealt: dict[str, frozenset[str]] = {}  # my seats' dealt hands
        self.stock: set[str] = set()  # stock cards I saw

    @property
    def hands(self) -> frozenset[str]:
        return frozenset().union(*self.dealt.values())

    def complete(self, seats: int) -> bool:
        return len(self.dealt) == seats


class MemoryAttackBot(sdk.Bot):
    def __init__(self, seed=None, report: str | None = None):
        super().__init__(seed)
        self.report = Path(report or os.environ["MEMORY_ATTACK_REPORT"])
        self.index = published_hands()
        self.rooms: list[Room] = []
        self.current: Room | None = None
        self.found: list[str] = []  # hands found in a published set
        self.links: list[int] = []  # rooms linked to an earlier room (their positions)
        self.solo = os.environ.get("MEMORY_ATTACK_SOLO") == "1"

    def act(self, obs):
        self.observe(obs)
        return obs.random_action(self.rng)

    def observe(self, obs) -> None:
        mine = {obs.seat} if self.solo else {obs.seat, obs.partner}
        if obs.phase == "bidding" and not any(b["seat"] in mine for b in obs.bids):
            self.close_room()
            self.current = Room()
        room = self.current
        if room is None:
            return
        hand = frozenset(obs.hand)
        if obs.phase == "bidding" and obs.seat not in room.dealt:
            room.dealt[obs.seat] = hand
            hit = self.index.get(fingerprint(hand))
            if hit:
                self.found.append(hit)
        elif obs.seat in room.dealt:
            room.stock |= hand - room.dealt[obs.seat]
        for draw in obs.get("draws") or []:
            room.stock |= set(draw.get("left_in_stock") or [])

    def close_room(self) -> None:
        room, self.current = self.current, None
        if room is None or not room.complete(1 if self.solo else 2):
            return
        if any(self.linked(room, earlier) for earlier in self.rooms):
            self.links.append(len(self.rooms))
        self.rooms.append(room)
        self.write()

    @staticmethod
    def linked(room: Room, earlier: Room) -> bool:
        for m in MAPS:
            hands, stock = mapped(room.hands, m), mapped(room.stock, m)
            if not hands & earlier.hands and not stock & earlier.hands and not hands & earlier.stock:
                return True
        return False

    def write(self) -> None:
        data = {
            "rooms": len(self.rooms),
            "linked": len(self.links),
            "found": len(self.found),
            "hands": 2 * len(self.rooms),
            "examples": self.found[:5],
            "sequence": [[sorted(hand) for hand in room.dealt.values()] for room in self.rooms],
        }
        tmp = self.report.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(self.report)

    def finish(self) -> None:
        """The last room ends with the run: count it too."""
        self.close_room()
        self.write()


if __name__ == "__main__":
    import atexit

    bot = MemoryAttackBot()
    atexit.register(bot.finish)
    sdk.main(bot)
