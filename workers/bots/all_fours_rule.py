"""``rule`` for the All Fours games (``seven_up``, ``pitch``, ``all_fives``, ``auction_pitch``,
``pedro``, ``snoozer``).

The same idea as the Cinch rule bot, for games where the four points are High, Low,
Jack and Game (docs/rules/seven_up.md#points) and trump is turned up or pitched:

* the eldest stands on a turn-up suit he can win points in (a high trump, the Jack
  guarded, or three trumps), else begs; the dealer gives when the turn-up suit is
  his best one (a point is cheaper than a new trump that suits the eldest), else runs;
  bunches are never proposed and always refused (the deal is played as it fell);
* a discard keeps trumps first, then the cards worth pips for Game (tens, aces);
* the pitch is the top card of the strongest suit (it names trump, High follows it);
* in the auction games a bidder bids what his best suit is expected to make
  (``expected_points``) if that is above the highest bid, else passes; the eldest sells
  when the bid is at least what he would make himself, else pitches;
* in play: win a trick that holds the Jack or pips when the card is cheap enough,
  throw tens on a partner's sure trick, keep the Low and the Jack out of danger by
  playing them where they cannot be captured, otherwise play the cheapest card;
* snoozer's joker (15 points, the lowest trump, the winner of a plain-suit trick no other
  trump is in): played last to a plain trick that holds no trump (a sure 15), led only
  once every other trump is out, kept back otherwise; a joker on the table is taken with
  the strongest card that beats it.

Pure function of (seed, observation), like every built-in bot.
"""

from __future__ import annotations

from typing import Any

from workers.bots.base import Action, Observation

RANKS = "23456789TJQKA"
PIPS = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}
GAMES = ("seven_up", "pitch", "all_fives", "auction_pitch", "pedro", "snoozer")
JOKER = "JK"  # snoozer's 53rd card: no rank, no suit until trump is fixed
PEDRO_COUNTS = {"T": 1, "5": 5, "9": 9}  # pedro's cards besides High, Low, Jack
SNOOZER_COUNTS = {"T": 1, "3": 3, "5": 5, "9": 9}  # snoozer's, the joker's 15 apart


def rank(card: str) -> int:
    """0 for a two ... 12 for an ace; the joker -1, below the two."""
    return -1 if card == JOKER else RANKS.index(card[0])


def suit_of(card: str, trump: str | None) -> str:
    """The suit a card follows: the joker's is trump once it is fixed (docs/rules/snoozer.md#joker)."""
    return (trump or "") if card == JOKER else card[1]


def pips(card: str) -> int:
    return 0 if card == JOKER else PIPS.get(card[0], 0)


def strength(card: str, trump: str | None, lead: str | None) -> int:
    """How a card ranks in a trick: trumps above the led suit (the joker the lowest trump,
    99), other suits never win."""
    if trump and suit_of(card, trump) == trump:
        return 100 + rank(card)
    return rank(card) if card[1] == lead else -1


def suit_value(hand: list[str], suit: str) -> float:
    """What a suit is worth as trump: its high cards take High and the tricks, its
    length keeps them, the Jack and a low card are points of their own."""
    cards = [c for c in hand if c[1] == suit]
    if not cards:
        return 0.0
    top = max(rank(c) for c in cards)
    value = len(cards) + (2.0 if top == 12 else 1.0 if top >= 10 else 0.0)
    if any(c[0] == "J" for c in cards):
        value += 1.0 if len(cards) >= 2 else 0.3
    if min(rank(c) for c in cards) <= 1:
        value += 0.7
    return value


def turnup_suit(obs: Observation) -> str | None:
    turnups = obs.get("turnups") or []
    return turnups[-1][1] if turnups else None


def partner(obs: Observation, seat: str) -> str | None:
    """The seat across at four in partnership (the scores are the sides' NS and EW);
    nobody where each plays for himself (the auction games, any k but four)."""
    seats = obs["seats"]
    return seats[(seats.index(seat) + 2) % 4] if len(seats) == 4 and "NS" in obs.get("scores", {"NS": 0}) else None


def expected_points(hand: list[str], suit: str, ruleset: str) -> int:
    """What a pitcher holding ``hand`` may expect to make with ``suit`` as trump: High with
    the Ace, Low with a two or three, the Jack guarded, Game (auction_pitch) with length
    or pedro's Ten, Five and Nine (snoozer's Three too) guarded by a higher trump; in
    snoozer the joker's 15 when three trumps can draw the others before it is led."""
    cards = sorted((c for c in hand if c != JOKER and c[1] == suit), key=rank)
    if not cards:
        return 0
    points = (cards[-1][0] == "A") + (rank(cards[0]) <= 1)
    held = {c[0] for c in cards}
    guarded = len(cards) >= 2 and rank(cards[-1]) >= RANKS.index("Q")
    points += "J" in held and guarded
    if ruleset not in ("pedro", "snoozer"):
        return points + (len(cards) >= 3 and bool(held & {"A", "T"}))
    counts = SNOOZER_COUNTS if ruleset == "snoozer" else PEDRO_COUNTS
    points += sum(value for r, value in counts.items() if r in held and guarded)
    return points + 15 * (JOKER in hand and len(cards) >= 3)


def best_expected(obs: Observation) -> int:
    return max(expected_points(obs["hand"], s, obs["ruleset"]) for s in "CDHS")


def choose_bid(obs: Observation) -> Action:
    """Bid the expected points of the best suit when that is a legal bid, else pass."""
    amounts = [a["amount"] for a in obs["legal"] if a["type"] == "bid"]
    want = best_expected(obs)
    return {"type": "bid", "amount": want} if want in amounts else {"type": "pass"}


def choose_sale(obs: Observation) -> Action:
    """Sell when the bid is worth at least what the eldest would make pitching himself."""
    kinds = {a["type"] for a in obs["legal"]}
    high = max((b.get("amount", 0) for b in obs.get("bids", [])), default=0)
    if "sell" in kinds and high >= best_expected(obs):
        return {"type": "sell"}
    return {"type": "pitch"}


def current_trick(obs: Observation) -> dict[str, Any] | None:
    tricks = obs["tricks"]
    return tricks[-1] if tricks and tricks[-1]["winner"] is None else None


def played_cards(obs: Observation) -> set[str]:
    return {p["card"] for t in obs["tricks"] for p in t["plays"]}


def choose_play(obs: Observation, cards: list[str]) -> str:
    trump = obs["trump"]
    trick = current_trick(obs)
    if trump is None or trick is None:  # the pitch, or a lead
        return lead(obs, cards, trump)
    lead_suit = suit_of(trick["plays"][0]["card"], trump)
    best = max(trick["plays"], key=lambda p: strength(p["card"], trump, lead_suit))
    best_key = strength(best["card"], trump, lead_suit)
    last = len(trick["plays"]) == len(obs["seats"]) - 1
    mate = partner(obs, obs["seat"])
    on_table = sum(pips(p["card"]) for p in trick["plays"])
    jack_on_table = any(p["card"] == "J" + trump for p in trick["plays"])
    winners = sorted(
        (c for c in cards if strength(c, trump, lead_suit) > best_key), key=lambda c: strength(c, trump, lead_suit)
    )
    if best["seat"] == mate and (last or best_key >= 100 + 11):
        return max(cards, key=lambda c: (pips(c) if suit_of(c, trump) != trump else -1, -rank(c)))
    if JOKER in winners and last:  # a plain trick without a trump: the joker's sure 15
        return JOKER
    if winners and any(p["card"] == JOKER for p in trick["plays"]):
        return winners[-1]  # the joker's 15: taken with the strongest card, to keep it
    if winners and (jack_on_table or on_table >= 10 or last):
        return winners[0]
    jack = "J" + trump
    if jack in winners and last:
        return jack
    return min(
        cards,
        key=lambda c: (
            pips(c) + (50 if c == jack else 0) + (60 if c == JOKER else 0),
            suit_of(c, trump) == trump,
            rank(c),
        ),
    )


def lead(obs: Observation, cards: list[str], trump: str | None) -> str:
    """Lead the top trump when it is the boss (it draws the others), else the cheapest
    card; the pitch is the top card of the strongest suit (never the joker, which names
    no suit); the joker is led once every other trump is out (then nothing beats it)."""
    if trump is None:
        suit = max("CDHS", key=lambda s: (suit_value(obs["hand"], s), s))
        return max((c for c in cards if c != JOKER and c[1] == suit), key=rank)
    gone = played_cards(obs)
    trumps = sorted((c for c in cards if suit_of(c, trump) == trump), key=rank, reverse=True)
    if trumps and trumps[0] != JOKER:
        higher = [r + trump for r in RANKS[rank(trumps[0]) + 1 :]]
        if all(c in gone for c in higher):
            return trumps[0]
    if JOKER in cards and all(r + trump in gone or r + trump in cards for r in RANKS):
        return JOKER
    return min(cards, key=lambda c: (suit_of(c, trump) == trump, pips(c) + (60 if c == JOKER else 0), rank(c)))


def choose_discard(obs: Observation, choice: dict[str, Any]) -> list[str]:
    trump = obs["trump"]
    count = choice["min"]
    order = sorted(choice["from"], key=lambda c: (c[1] == trump, PIPS.get(c[0], 0) > 0, rank(c)))
    return order[:count]


def decide(obs: Observation) -> Action:
    """One legal action for an All Fours seat. Every choice is decided by the cards,
    ties by suit and rank, so no randomness is needed."""
    legal = obs["legal"]
    kinds = {a["type"] for a in legal}
    hand = obs["hand"]
    if obs["phase"] == "bidding":
        return choose_bid(obs)
    if "pitch" in kinds:
        return choose_sale(obs)
    if kinds == {"stand", "beg"}:
        suit = turnup_suit(obs)
        return {"type": "stand" if suit and suit_value(hand, suit) >= 3.0 else "beg"}
    if kinds == {"give", "run"}:
        suit = turnup_suit(obs)
        mine = suit_value(hand, suit) if suit else 0.0
        return {"type": "give" if mine >= max(suit_value(hand, s) for s in "CDHS") and mine >= 2.0 else "run"}
    if "pass" in kinds and "bunch" in kinds:
        return {"type": "pass"}
    if "refuse" in kinds:
        return {"type": "refuse"}
    if kinds == {"discard"}:
        return {"type": "discard", "cards": choose_discard(obs, legal[0])}
    if kinds == {"play"}:
        return {"type": "play", "card": choose_play(obs, [a["card"] for a in legal])}
    return dict(legal[0])
