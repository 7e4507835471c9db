"""Per-room views, for duplicate fairness against bots that remember.

The two rooms of a board are the same deal; a remote bot that remembers could
recognise room 1's deal in room 2, or tell the rooms apart by the seat it is given (X
sits N/S in room 1 and E/W in room 2). Each room is therefore shown under its own
secret ``View``:

* a relabeling of the suits that keeps each colour's two suits together
  (clubs/spades and diamonds/hearts move as pairs), so the left Pedro stays the five of
  the trump's colour partner; there are 8 such relabelings;
* a rotation of the table by 0 to k-1 seats clockwise, chosen independently: every seat
  name moves (N -> E -> S -> W -> N for a rotation of 1; P1 -> P2 ... Pk -> P1 at other
  sizes), and the sides "NS" and "EW" trade names when the rotation is odd (where each
  plays for himself a side is a seat and moves with it; a partnership named by its seats,
  widow_cinch's P1P4, P2P5, P3P6, moves seat by seat). The deal, the bidding, the
  draw and the play are all relative to the dealer, so the rotated table plays the very
  same game. The table's size is learnt from the first observation shown (its
  ``seats``); the secret fixes a number from which each size takes its rotation.

Observations are shown through the view on the way out and actions are taken back
through it on the way in (``View.show``, ``View.back``, both ``translate``). Anything
whose order would betray the view is put back in its canonical order: card lists by
card, legal lists by card or suit, dicts keyed by seats or sides in N E S W / NS EW
order.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from server.engine.cards import ALL_NAMES, CARD_INDEX, JOKER, SEATS, SIDES, seats_for

BLACK, RED = ("C", "S"), ("D", "H")


def relabelings() -> list[dict[str, str]]:
    """All 8 suit maps that send each colour pair onto a colour pair."""
    out = []
    for first, second in ((BLACK, RED), (RED, BLACK)):
        for flip_a in (False, True):
            for flip_b in (False, True):
                a = first[::-1] if flip_a else first
                b = second[::-1] if flip_b else second
                out.append({BLACK[0]: a[0], BLACK[1]: a[1], RED[0]: b[0], RED[1]: b[1]})
    return out


_MAPS = relabelings()
IDENTITY_SUITS = {s: s for s in "CDHS"}


def _digest(secret: bytes, context: str) -> bytes:
    return hmac.new(secret, context.encode(), hashlib.sha256).digest()


def relabeling_for(secret: bytes, context: str) -> dict[str, str]:
    """The suit map for one room, unpredictable without the server's secret."""
    return _MAPS[_digest(secret, context)[0] % len(_MAPS)]


def rotation_for(secret: bytes, context: str) -> int:
    """The number the table rotation of one room is taken from (modulo the table's size):
    other bytes of the same HMAC than the suit map's, so the two are independent."""
    return int.from_bytes(_digest(secret, context)[1:9], "big")


def inverse(mapping: dict[str, str]) -> dict[str, str]:
    return {v: k for k, v in mapping.items()}


class View:
    """How one room is shown to one bot: a suit map and a table rotation."""

    __slots__ = ("suits", "turn", "players")

    def __init__(self, suits: dict[str, str] | None = None, rotation: int = 0, players: int = 4):
        self.suits = dict(IDENTITY_SUITS if suits is None else suits)
        self.turn = rotation
        self.players = players

    @property
    def rotation(self) -> int:
        return self.turn % self.players

    def show(self, value: Any) -> Any:
        """``value`` (an observation, an action, any part of one) as the bot sees it."""
        if isinstance(value, dict) and isinstance(value.get("seats"), list) and value["seats"]:
            self.players = len(value["seats"])
        return translate(value, self.suits, self.rotation, players=self.players)

    def back(self, value: Any) -> Any:
        """What the bot sent (an action), in the real suits and seats."""
        return translate(value, inverse(self.suits), -self.rotation, players=self.players)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and (self.suits, self.rotation) == (other.suits, other.rotation)

    def __repr__(self) -> str:
        return f"View({self.suits!r}, rotation={self.rotation})"


def view_for(secret: bytes, context: str) -> View:
    """The view of one room (``context`` names it), unpredictable without the secret."""
    return View(relabeling_for(secret, context), rotation_for(secret, context))


def all_views() -> list[View]:
    """The 32 views: every suit map with every rotation."""
    return [View(m, r) for m in _MAPS for r in range(4)]


_SUIT_KEYS = ("trump", "suit")
# Fields whose value is a seat (or, for a result, a side); a list under one of these
# names is a list of them.
_SEAT_KEYS = ("seat", "seats", "dealer", "to_act", "declarer", "leader", "winner", "side", "partner", "makers")
_SEAT_LISTS = ("seats", "makers")  # lists of seats kept in clockwise order, which hides the rotation
_SEAT_SET, _SIDE_SET = frozenset(SEATS), frozenset(SIDES)
_SINGLE = seats_for(7)  # P1 ... P7
_SINGLE_SET = frozenset(_SINGLE)


def _paired(name: str) -> list[str] | None:
    """The seats of a fixed partnership named by its seats (widow_cinch's ``P1P4``), else None."""
    seats = [name[i : i + 2] for i in range(0, len(name), 2)]
    return seats if len(seats) > 1 and all(s in _SINGLE_SET for s in seats) and "".join(seats) == name else None


def _by_first_seat(name: str) -> int:
    return _SINGLE.index(name[:2])


def _legal_order(action: Any) -> int:
    if isinstance(action, dict):
        if action.get("card") in CARD_INDEX:
            return CARD_INDEX[action["card"]]
        if action.get("suit") in ("C", "D", "H", "S"):
            return "CDHS".index(action["suit"])
    return 0


def _rotate(name: str, rotation: int, players: int) -> str:
    """A seat or side name moved by ``rotation`` seats; anything else unchanged."""
    if name in _SEAT_SET:
        return SEATS[(SEATS.index(name) + rotation) % 4]
    if name in _SIDE_SET:
        return SIDES[(SIDES.index(name) + rotation) % 2]
    if name in _SINGLE_SET:
        return _SINGLE[(_SINGLE.index(name) + rotation) % players]
    seats = _paired(name)
    if seats:  # a partnership moves seat by seat and keeps its name's order (P4P1 is P1P4)
        return "".join(sorted((_rotate(s, rotation, players) for s in seats), key=_SINGLE.index))
    return name


def _canonical(names: Any) -> tuple[str, ...] | None:
    """The canonical order of a collection of seat or side names, or None if it is not one."""
    for order in (SEATS, SIDES, _SINGLE):
        if names and all(n in order for n in names):
            return order
    if names and all(_paired(n) for n in names):
        return tuple(sorted(names, key=_by_first_seat))
    return None


def translate(value: Any, mapping: dict[str, str], rotation: int = 0, key: str | None = None, players: int = 4) -> Any:
    """``value`` with every card string and suit field relabeled by ``mapping`` and every
    seat (and side) moved ``rotation`` seats clockwise: seat fields (``_SEAT_KEYS``) and
    the keys of dicts keyed by seats (``hand_sizes``) or by sides (``points``, ``scores``).
    """
    if value is None or value.__class__ in (int, bool):
        return value
    if isinstance(value, str):
        if value in CARD_INDEX:  # snoozer's joker has no suit: it is the same card in every view
            return value if value == ALL_NAMES[JOKER] else value[0] + mapping[value[1]]
        if key in _SUIT_KEYS and value in mapping:
            return mapping[value]
        if key in _SEAT_KEYS and rotation:
            return _rotate(value, rotation, players)
        return value
    if isinstance(value, list):
        out = [translate(v, mapping, rotation, key, players) for v in value]
        # Re-sort what was sorted by suit, or the order itself would betray the map.
        if out and all(isinstance(v, str) and v in CARD_INDEX for v in out):
            out.sort(key=CARD_INDEX.__getitem__)
        elif key == "legal":
            out.sort(key=_legal_order)
        elif key in _SEAT_LISTS and (order := _canonical(out)):
            out.sort(key=order.index)  # the table's seat list stays in clockwise order
        return out
    if isinstance(value, dict):
        order = _canonical(value.keys()) if rotation else None
        if order:
            # keyed by seats or by sides: the keys move, and go back in canonical order
            moved = {
                _rotate(k, rotation, players): translate(v, mapping, rotation, k, players) for k, v in value.items()
            }
            return {k: moved[k] for k in order if k in moved}
        return {k: translate(v, mapping, rotation, k, players) for k, v in value.items()}
    return value
