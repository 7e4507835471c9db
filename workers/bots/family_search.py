"""``search`` for the rest of the family: determinized sampling on the engine's own states.

Cinch proper (``american62``, ``foster51``) has its tuned solver in ``search_bot``; every
other ruleset is searched here, on nothing but the engine:

* a *world* is a guess of every other seat's current cards: the cards this seat has not
  seen (not in its hand, not played, not shown face up) dealt at random to the other
  seats in their hand sizes; ``server.engine.world.world_state`` turns it into the
  engine's state and refuses a world that the play so far contradicts (a seat that
  showed out of a suit being given that suit), which is then drawn again;
* each legal card is tried in every world and the hand is played out by a cheap play
  policy (``rollout_card``) on the engine's fast layer; the card with the best mean result
  for this seat's unit (its score change minus the others' mean, docs/rules/duplicate.md#net) is
  played.

Budgets are counts (worlds, tries), never the clock, so a decision is the same on any
machine. Decisions before the play are the rule bot's, but for ``search``'s calls in the
auction games (``family_bid``), whose play-outs use this module's policy.
"""

from __future__ import annotations

from random import Random
from typing import Any

from server.engine.cards import ALL_NAMES, CARD_INDEX, PIPS, cards_of
from server.engine.games import GAMES
from server.engine.hand import Hand
from server.engine.world import WorldError, world_state
from workers.bots.base import Action, Observation, decision_rng

# Observation fields that name cards out of every other seat's hand: face-up turn-ups,
# discards shown or one's own, what the dealer left in the stock.
KNOWN_OUT_FIELDS = ("turnups", "shown", "cards", "left_in_stock", "discards")


def _known_out(value: Any, key: str | None = None) -> set[str]:
    if isinstance(value, dict):
        out: set[str] = set()
        for k, v in value.items():
            if k not in ("hand", "legal", "tricks"):
                out |= _known_out(v, k)
        return out
    if isinstance(value, list):
        if key in KNOWN_OUT_FIELDS:
            return {c for c in value if isinstance(c, str) and c in CARD_INDEX}
        out = set()
        for v in value:
            out |= _known_out(v, key)
        return out
    return set()


def unseen(obs: Observation) -> list[str]:
    """The cards of the game's pack (snoozer's joker included) that may be in another
    seat's hand, as this seat sees the hand. Face-up discards put back into a rebuilt stock
    (``restocked``, auction_cinch) are in play again: whoever drew them may hold them."""
    gone = (_known_out(obs) - set(obs.get("restocked") or ())) | set(obs["hand"])
    for trick in obs["tricks"]:
        for p in trick["plays"]:
            gone.add(p["card"])
            gone.update(p["extras"])
    return [c for c in ALL_NAMES[: GAMES[obs["ruleset"]].deck] if c not in gone]


def sample_world(obs: Observation, rng: Random, tries: int) -> Hand | None:
    """The engine's state of a random world that fits the play so far, or None."""
    me = obs["seat"]
    others = [s for s in obs["seats"] if s != me]
    pool = unseen(obs)
    placed = {seat: [card] for card, seat in public_holders(obs).items() if card in pool}
    pool = [c for c in pool if not any(c in cards for cards in placed.values())]
    for _ in range(tries):
        rng.shuffle(pool)
        world, at = {me: obs["hand"]}, 0
        for seat in others:
            known = placed.get(seat, [])
            size = obs["hand_sizes"][seat] - len(known)
            world[seat] = known + pool[at : at + size]
            at += size
        try:
            return world_state(obs, world)
        except WorldError:
            continue
    return None


def public_holders(obs: Observation) -> dict[str, str]:
    """Cards whose holder everyone knows: auction_cinch's called card is in its partner's
    hand (until played). A world that breaks such a fact is refused by ``world_state``."""
    if obs.get("partner") and obs.get("called"):
        return {obs["called"]: obs["partner"]}
    return {}


def unit_net(state: Hand, seat: int) -> float:
    """``seat``'s unit's score change minus the other units' mean (docs/rules/duplicate.md#net)."""
    delta = state.delta()
    mine = state.side_of[seat]
    others = [d for i, d in enumerate(delta) if i != mine]
    return delta[mine] - sum(others) / len(others)


def rollout_card(state: Hand, rng: Random) -> int:
    """The rollouts' cheap play policy, on the engine's fast layer: half the time a
    random legal card (so the worlds are not all played one way), else win a trick
    worth something with the cheapest card that does, and otherwise play the cheapest
    card. The pitch (no trump yet) is the highest card.

    A trick a teammate is winning (``team_of``: fixed sides, widow_cinch's sides of two,
    auction_cinch's makers once the call is made) is not overtaken: the last to play gives
    it his most valuable card, the others their cheapest. Without this the play-outs
    scored a maker who took his partner's trick as if he had won it from an opponent."""
    legal = state.legal_plays()
    tab = state.tables
    if len(legal) == 1 or tab is None:
        return legal[0] if tab is not None else max(legal, key=lambda c: c % 13)
    if rng.random() < 0.5:
        return legal[rng.randrange(len(legal))]
    trick = state.tricks[-1]
    key = tab.strength
    suits = tab.effective_suit
    if not trick.plays:
        return max(legal, key=lambda c: key[c])
    value = sum(tab.points[c] + PIPS[c] for _, c, _ in trick.plays)

    def beats(c: int) -> bool:
        return (suits[c] == tab.trump or suits[c] == trick.lead_suit) and key[c] > trick.best_key

    last = len(trick.plays) == len(state.seats) - 1
    if trick.best_seat is not None and state.team_of(trick.best_seat) == state.team_of(state.actor()):
        if last:
            return max(legal, key=lambda c: (tab.points[c] + PIPS[c], -key[c]))
        return min(legal, key=lambda c: (beats(c), tab.points[c] + PIPS[c], suits[c] == tab.trump, key[c]))
    winners = [c for c in legal if beats(c)]
    if winners and (value or last):
        return min(winners, key=lambda c: key[c])
    return min(legal, key=lambda c: (tab.points[c] + PIPS[c], suits[c] == tab.trump, key[c]))


def rollout_play(state: Hand, card: int, rng: Random) -> None:
    """Play ``card`` for the seat to act, with the cheapest extras when some are owed."""
    owed = state.extras_owed(state.actor())
    if owed:
        strength = state.trump_tables().strength
        spare = sorted(cards_of(state.extras_from(card)), key=lambda c: strength[c])
        state.do_play(card, sum(1 << c for c in spare[:owed]))
    else:
        state.do_play(card)


class FamilySearch:
    """Play decisions of the ``search`` bot for the rulesets without a dedicated solver."""

    def __init__(self, samples: int, tries: int = 40):
        self.samples = samples
        self.tries = tries

    def play(self, seed: int | str, obs: Observation, legal: list[dict[str, Any]]) -> Action | None:
        """The best card over sampled worlds, or None to leave the choice to the rule bot
        (a single legal card, or no world found)."""
        if len(legal) == 1:
            return None
        rng = decision_rng(seed, obs)
        cards = [CARD_INDEX[a["card"]] for a in legal]
        totals = [0.0] * len(cards)
        worlds = 0
        for _ in range(self.samples):
            state = sample_world(obs, rng, self.tries)
            if state is None:
                break
            me = state.actor()
            for j, card in enumerate(cards):
                trial = state.clone()
                rollout_play(trial, card, rng)
                while trial.phase != "done":
                    rollout_play(trial, rollout_card(trial, rng), rng)
                totals[j] += unit_net(trial, me)
            worlds += 1
        if not worlds:
            return None
        best = max(range(len(cards)), key=lambda j: (totals[j], -cards[j]))
        return {"type": "play", "card": ALL_NAMES[cards[best]]}
