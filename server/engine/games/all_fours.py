"""The All Fours hand (docs/rules/common.md#family, docs/rules/seven_up.md, docs/rules/pitch.md, docs/rules/all_fives.md): what seven_up, pitch and all_fives share.

Two classes, because pitch has no turn-up:

* ``AllFoursHand``: the deal of two rounds of three, the play (F5 with plain trumps), the
  scoring items High, Low, Jack and Game in their order, items scored *at once*, and a
  game's target (F9: on a board no target applies; in a game the first side to reach it
  wins and nothing later is applied or played);
* ``TurnUpHand``: the turn-up, the beg, give or run, runs and the refused suit, bunches
  (forced, and by agreement with ``two_player_bunch``) and the discard after a run.

The game modules keep only what differs (pitch's trump by the first lead and its Game
tie; all_fives' pegs and the Five counted for Game). Every item is kept as it is scored,
so ``points`` and ``delta`` are sums over the items, in the order a game applies them.
A hand built with scores (``new_hand(rules, board, scores)``, ``Hand.start``) is a game's hand;
otherwise it is a duplicate board's (scores 0, no target).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from random import Random
from typing import Any, Self

from server.engine.boards import Board, bunch_order
from server.engine.cards import (
    ALL_NAMES,
    CARD_NAMES,
    FIVE,
    JACK,
    PLAIN_TRUMP_TABLES,
    SUITS,
    cards_of,
    deck_mask,
    mask_of,
    names_of,
    seats_for,
)
from server.engine.hand import Hand, IllegalAction, card_set, one_card
from server.engine.rulesets import TARGET, Ruleset, flag, game_spec
from server.engine.tricks import Trick, follow_error, follow_mask

BEG, GIVE, BUNCH, ACCEPT, DISCARD, PLAY, DONE = "beg", "give", "bunch", "accept", "discard", "play", "done"

_FIELDS: dict[str, tuple[str, ...]] = {
    "stand": (),
    "beg": (),
    "give": (),
    "run": (),
    "bunch": (),
    "pass": (),
    "accept": (),
    "refuse": (),
    "discard": ("cards",),
    "play": ("card", "extras"),
}
_EXPECTED = {
    BEG: "stand or beg",
    GIVE: "give or run",
    BUNCH: "bunch or pass",
    ACCEPT: "accept or refuse",
    DISCARD: "discard",
    PLAY: "play",
}
_PLAY_ITEMS = frozenset({"peg", "high", "low", "jack", "game"})  # the rest (turned Jacks, gifts) is not won in play

# Pips for Game (F7) of the five honours T J Q K A of one suit, by their 5-bit pattern.
_HONOUR_PIPS = tuple(sum(p for bit, p in enumerate((10, 1, 2, 3, 4)) if i >> bit & 1) for i in range(32))

TURN_UP_OPTIONS = {
    "target": TARGET,
    "keep_nine": flag(
        "the dealer's side keeps nine cards and discards down after the turn-up (docs/rules/seven_up.md)"
    ),
    "two_player_bunch": flag("two players may agree to bunch (throw in) a deal they both dislike; ignored at 3 or 4"),
}


def pips(mask: int) -> int:
    """Pips for Game (F7) of the cards of ``mask``."""
    return (
        _HONOUR_PIPS[mask >> 8 & 31]
        + _HONOUR_PIPS[mask >> 21 & 31]
        + _HONOUR_PIPS[mask >> 34 & 31]
        + _HONOUR_PIPS[mask >> 47 & 31]
    )


class AllFoursHand(Hand):
    """One hand of an All Fours game from the deal to the last trick (or the target)."""

    contract: tuple[int, int] | None = (
        None  # no game here has a contract or a declarer (docs/rules/rulings.md#pitcher-seat)
    )
    declarer = -1
    five_for_game = 0  # all_fives: pips the Five of trumps adds for Game
    action_fields = _FIELDS  # the wire actions this game knows (the auction games add bid, sell, pitch)
    phase_words = _EXPECTED  # what each phase asks for, in refusals' words

    __slots__ = (
        "rules",
        "board",
        "seats",
        "sides",
        "side_of",
        "k",
        "dealer",
        "eldest",
        "in_game",
        "scores",
        "phase",
        "to_act",
        "trump",
        "tables",
        "hands",
        "hands_after_draw",
        "dealt",
        "tricks",
        "ntricks",
        "won",
        "items",
        "totals",
        "actions",
    )

    def __init__(self, rules: Ruleset, board: Board, scores: tuple[int, ...], in_game: bool = False):
        k = rules.players
        self.rules, self.board, self.k = rules, board, k
        self.seats, self.sides, self.side_of = _table(rules.name, k)
        self.dealer = self.seats.index(board.dealer)
        self.eldest = (self.dealer + 1) % k
        self.in_game = in_game
        self.scores = tuple(scores)
        self.phase, self.to_act = PLAY, None
        self.trump: int | None = None
        self.tables = None
        self.hands = [0] * k
        self.hands_after_draw: tuple[int, ...] | None = None
        self.dealt = 0
        self.tricks: list[Trick] = []
        self.ntricks = 0
        self.won = [0] * len(self.sides)  # cards won in tricks, per side
        self.items: list[dict[str, Any]] = []
        self.totals = [0] * len(self.sides)  # sum of the items per side
        self.actions: list[dict[str, Any]] = []
        self._start(board.deck)

    @classmethod
    def start(cls, rules: Ruleset, board: Board, scores: tuple[int, ...] | None) -> Self:
        """Scores None: a board's hand, from zeros and with no target; else a game's."""
        zeros = (0,) * len(game_spec(rules).sides(rules.players)[0])
        return cls(rules, board, zeros if scores is None else scores, in_game=scores is not None)

    def _start(self, deck: tuple[int, ...]) -> None:
        """Deal and reach the first decision."""
        self._deal(deck)
        self._start_play()

    def _deal(self, deck: tuple[int, ...]) -> None:
        """A round of 3 from 0 and a round of 3 from 3k (docs/rules/seven_up.md#deal). The masks are
        built inline: the deal is a fifth of a random hand's cost at seven seats."""
        k, eldest, hands = self.k, self.eldest, self.hands
        dealt = 0
        for i in range(k):
            a, b = 3 * i, 3 * (k + i)
            mask = (
                (1 << deck[a])
                | (1 << deck[a + 1])
                | (1 << deck[a + 2])
                | (1 << deck[b])
                | (1 << deck[b + 1])
                | (1 << deck[b + 2])
            )
            hands[(eldest + i) % k] = mask
            dealt |= mask
        self.dealt = dealt

    @classmethod
    def at_play(cls, rules: Ruleset, obs: Mapping[str, Any], hands: list[int]) -> Self:
        """The first lead with ``hands`` (see ``Hand.at_play``): trump from ``obs`` (none
        yet in pitch before the pitch), and what was scored before the play (turned
        Jacks, gifts) from its items; pegs are scored again as the tricks are replayed.
        The deal is unknown and replaced by ``hands``; it is a board's hand (the
        observation does not say whether a game's target applies)."""
        seats = obs["seats"]
        state = cls(
            rules,
            Board(obs["dealer"], tuple(range(game_spec(rules).deck)), "00"),
            tuple(obs["scores"][side] for side in _table(rules.name, len(seats))[1]),
        )
        state.hands = list(hands)
        state.dealt = 0
        for mask in hands:
            state.dealt |= mask
        state.items, state.totals = [], [0] * len(state.sides)
        index = {name: i for i, name in enumerate(state.sides)}
        for item in obs["items"]:
            if item["item"] != "peg":
                state.items.append(dict(item))
                state.totals[index[item["side"]]] += item["value"]
        state.trump, state.tables = None, None
        if obs["trump"]:
            state._fix_trump(SUITS.index(obs["trump"]))
        state.tricks = []
        state._public_from(obs)
        state._start_play()
        return state

    def _public_from(self, obs: Mapping[str, Any]) -> None:
        """Take the public facts that fix the play (the auction games' pitcher and
        contract) from ``obs`` before ``at_play`` starts the play (none here)."""

    def clone(self) -> Self:
        """An independent copy for search; board, ruleset and finished tricks are shared."""
        cls = type(self)
        new = object.__new__(cls)
        for name in _slots(cls):
            setattr(new, name, getattr(self, name))
        new.hands = self.hands.copy()
        new.tricks = self.tricks[:-1] + [self.tricks[-1].copy()] if self.tricks else []
        new.won, new.items, new.totals = self.won.copy(), self.items.copy(), self.totals.copy()
        new.actions = self.actions.copy()
        return new

    # ------------------------------------------------------------------ scoring items
    def _score(self, item: str, side: int, value: int, **extra: Any) -> bool:
        """Apply one item; True if it ends the game (F9: a side reached the target)."""
        self.items.append({"item": item, "side": self.sides[side], "value": value, **extra})
        self.totals[side] += value
        if self.in_game and self.scores[side] + self.totals[side] >= self.rules.target:
            self._finish()
            return True
        return False

    def _finish(self) -> None:
        self.phase, self.to_act = DONE, None

    def _holder_side(self, card: int) -> int:
        for seat, mask in enumerate(self.hands_in_play()):
            if mask >> card & 1:
                return self.side_of[seat]
        raise ValueError(f"{CARD_NAMES[card]} is not in play")

    def _winner_side(self, card: int) -> int:
        for side, mask in enumerate(self.won):
            if mask >> card & 1:
                return side
        raise ValueError(f"{CARD_NAMES[card]} was not won")

    def _score_hand(self) -> None:
        """High, Low, Jack, Game in order (docs/rules/seven_up.md#points, #game), then the hand is over."""
        in_play = 0
        for mask in self.hands_in_play():
            in_play |= mask
        tab = self.trump_tables()
        trumps = in_play & tab.trump_mask
        if trumps:  # no trump in play: High and Low for nobody (16.4)
            high, low = trumps.bit_length() - 1, (trumps & -trumps).bit_length() - 1
            if self._score("high", self._holder_side(high), 1, card=CARD_NAMES[high]):
                return
            if self._score("low", self._holder_side(low), 1, card=CARD_NAMES[low]):
                return
        jack = tab.trump * 13 + JACK
        if in_play >> jack & 1 and self._score("jack", self._winner_side(jack), 1, card=CARD_NAMES[jack]):
            return
        five = 1 << (tab.trump * 13 + FIVE)
        counts = [pips(w) + (self.five_for_game if w & five else 0) for w in self.won]
        top = max(counts)
        tied = [side for side, n in enumerate(counts) if n == top]
        side = tied[0] if len(tied) == 1 else self._game_tie(tied)
        if side is not None and self._score("game", side, 1):
            return
        self._finish()

    def _game_tie(self, tied: list[int]) -> int | None:
        """Who scores a tied Game (1.10): two sides, the one without the dealer; three
        players, the non-dealer tied with the dealer alone, else nobody."""
        dealer_side = self.side_of[self.dealer]
        if len(self.sides) == 2:
            return 1 - dealer_side
        if len(tied) == 2 and dealer_side in tied:
            return tied[0] if tied[1] == dealer_side else tied[1]
        return None

    def points(self) -> tuple[int, ...]:
        out = [0] * len(self.sides)
        index = {name: i for i, name in enumerate(self.sides)}
        for item in self.items:
            if item["item"] in _PLAY_ITEMS:
                out[index[item["side"]]] += item["value"]
        return tuple(out)

    def delta(self) -> tuple[int, ...]:
        return tuple(self.totals)

    # ------------------------------------------------------------------ play (fast layer)
    def _start_play(self) -> None:
        self.hands_after_draw = tuple(self.hands)
        self.ntricks = self.hands[self.eldest].bit_count()
        self.tricks.append(Trick(self.eldest))
        self.phase, self.to_act = PLAY, self.eldest

    def _fix_trump(self, suit: int) -> None:
        self.trump, self.tables = suit, PLAIN_TRUMP_TABLES[suit]

    def legal_mask(self) -> int:
        """The cards the player to act may play (F5), as a mask."""
        hand, tables = self.hands[self.actor()], self.tables
        if tables is None:  # pitch's first lead: any card, and it names trump
            return hand
        return follow_mask(hand, self.tricks[-1], tables)

    def legal_plays(self) -> list[int]:
        return cards_of(self.legal_mask())

    def do_play(self, card: int, extras: int = 0) -> None:
        """Play ``card`` for the seat to act (trusted: ``extras`` is always 0 here)."""
        seat = self.actor()
        self.hands[seat] &= ~(1 << card)
        tables = self.tables
        if tables is None:  # pitch: the first card played names trump
            self._fix_trump(card // 13)
            tables = self.trump_tables()
        trick = self.tricks[-1]
        trick.add(seat, card, 0, tables)
        if len(trick.plays) < self.k:
            self.to_act = (seat + 1) % self.k
            return
        winner = trick.winner = trick.best_seat
        side = self.side_of[winner]
        self.won[side] |= trick.cards()
        if self._trick_won(trick, side):
            return
        if len(self.tricks) == self.ntricks:
            self._score_hand()
            return
        self.tricks.append(Trick(winner))
        self.to_act = winner

    def _trick_won(self, trick: Trick, side: int) -> bool:
        """What a won trick scores at once (all_fives' pegs); True if that ends the game."""
        return False

    # ------------------------------------------------------------------ decisions (fast layer)
    def choices(self) -> tuple[str, ...]:
        """The argument-free action types legal now (none in the play or a discard)."""
        return ()

    def random_step(self, rng: Random) -> None:
        """Apply one uniformly random legal decision (benchmarks, properties, rollouts)."""
        if self.phase == PLAY:
            tables = self.tables  # None: the pitch, whose cards the game may restrict (legal_mask)
            legal = follow_mask(self.hands[self.actor()], self.tricks[-1], tables) if tables else self.legal_mask()
            for _ in range(int(rng.random() * legal.bit_count())):
                legal &= legal - 1  # drop the lowest card: the chosen one is then lowest
            self.do_play((legal & -legal).bit_length() - 1)
        else:
            self._random_decision(rng)

    def _random_decision(self, rng: Random) -> None:
        raise ValueError("the hand is over")

    def decide(self, kind: str) -> None:
        """Apply an argument-free decision (trusted)."""
        raise ValueError(f"no {kind!r} decision in this game")

    # ------------------------------------------------------------------ wire layer
    def legal_actions(self) -> list[dict[str, Any]] | None:
        if self.phase == DONE:
            return None
        if self.phase == PLAY:
            return [{"type": "play", "card": ALL_NAMES[c]} for c in self.legal_plays()]
        if self.phase == DISCARD:
            n = self.discard_count()
            return [{"type": "discard", "from": names_of(self.hands[self.actor()]), "min": n, "max": n}]
        return [{"type": kind} for kind in self.choices()]

    def apply(self, action: Any) -> None:
        """Validate and apply one wire-format action, or raise ``IllegalAction`` with the
        state unchanged."""
        self._refuse_rule(action)
        kind = self.check_envelope(action, self.action_fields, self.phase_words)
        seat = self.actor()
        if kind == "play":
            self.do_play(self._checked_play(action))
        elif kind == "discard":
            self.do_discard(self._checked_discard(action))
        else:
            self.decide_action(kind, action)
        self.record_action(action, seat)

    def decide_action(self, kind: str, action: dict[str, Any]) -> None:
        """Apply a checked decision other than a play or a discard; the auction games
        read a bid's amount here, the others have argument-free decisions only."""
        self.decide(kind)

    def _refuse_rule(self, action: Any) -> None:
        """Refusals that name a game rule rather than the decision asked (none here)."""

    def _checked_play(self, action: dict[str, Any]) -> int:
        card = one_card(action.get("card"))
        if action.get("extras", []) != []:
            raise IllegalAction("there are no extras in this game: 'extras' must be empty")
        seat = self.seats[self.actor()]
        if not self.hands[self.actor()] >> card & 1:
            raise IllegalAction(f"{seat} does not hold {ALL_NAMES[card]}")
        if not self.legal_mask() >> card & 1:
            raise IllegalAction(follow_error(card, self.tricks[-1], self.trump_tables()))
        return card

    def _checked_discard(self, action: dict[str, Any]) -> int:
        cards = card_set(action.get("cards"), "discard cards")
        for c in cards_of(cards & ~self.hands[self.actor()]):
            raise IllegalAction(f"{self.seats[self.actor()]} does not hold {ALL_NAMES[c]}")
        n = self.discard_count()
        if cards.bit_count() != n:
            raise IllegalAction(f"a discard here must be {n} cards, not {cards.bit_count()}")
        return cards

    def discard_count(self) -> int:
        raise ValueError("no discard in this game")

    def do_discard(self, cards: int) -> None:
        raise ValueError("no discard in this game")

    # ------------------------------------------------------------------ views
    def discards(self) -> list[int]:
        """Each seat's discards (face down: out of play, seen by their owner)."""
        return [0] * self.k

    def turnup_mask(self) -> int:
        return 0

    def _record(self) -> dict[str, Any]:
        held = self.dealt | self.turnup_mask()
        return {
            "discards": self.seat_dict(self.discards()),
            "stock": [],
            "out_of_play": names_of(deck_mask(len(self.board.deck)) & ~held),
            "widow": [],
            "turnups": self._turnup_names(),
        }

    def _turnup_names(self) -> list[str]:
        return []

    def describe_extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {"items": [dict(item) for item in self.items]}
        if self.phase == DONE:
            out["record"] = self._record()
        return out

    def public(self, me: int | None) -> dict[str, Any]:
        """Public: the items so far. Nothing here is any seat's hidden card."""
        return {"items": [dict(item) for item in self.items]}


class TurnUpHand(AllFoursHand):
    """seven_up (and all_fives): the turn-up, begging, runs, bunches and the discard."""

    __slots__ = (
        "deck",
        "turnups",
        "refused",
        "runs",
        "bunches",
        "agreed",
        "proposer",
        "asked",
        "discarded",
        "discard_turn",
    )

    def _start(self, deck: tuple[int, ...]) -> None:
        self.bunches = 0
        self.agreed = False
        self._new_deal(deck)

    def _new_deal(self, deck: tuple[int, ...]) -> None:
        """Deal (1.2), turn up (a turned Jack scores at once, 1.3) and ask the eldest."""
        self.deck = deck
        self.discarded = [0] * self.k
        self.refused, self.runs, self.proposer, self.asked, self.discard_turn = -1, 0, -1, -1, 0
        self.trump, self.tables = None, None
        self._deal(deck)
        t0 = deck[6 * self.k]
        self.turnups = [t0]
        self.phase, self.to_act = BEG, self.eldest
        if t0 % 13 == JACK:
            self._score("turned-jack", self.side_of[self.dealer], 1, card=CARD_NAMES[t0])

    def clone(self) -> Self:
        new = super().clone()
        new.turnups, new.discarded = self.turnups.copy(), self.discarded.copy()
        return new

    # ------------------------------------------------------------------ decisions
    def choices(self) -> tuple[str, ...]:
        phase = self.phase
        if phase == BEG:
            return ("stand", "beg")
        if phase == GIVE:
            return ("give", "run") if self.can_give() else ("run",)
        if phase == BUNCH:
            return ("bunch", "pass")
        if phase == ACCEPT:
            return ("accept", "refuse")
        return super().choices()

    def can_give(self) -> bool:
        """Give is illegal in a game if it would put a receiving side out (1.4, 16.2)."""
        if not self.in_game:
            return True
        target = self.rules.target
        return all(self.scores[side] + self.totals[side] + 1 < target for side in self._receivers())

    def _receivers(self) -> list[int]:
        """Who a gift scores for: the eldest's side; with k = 3 both non-dealers (1.4)."""
        if self.k == 3:
            return [self.side_of[self.eldest], self.side_of[(self.eldest + 1) % 3]]
        return [self.side_of[self.eldest]]

    def _refuse_rule(self, action: Any) -> None:
        if (
            self.phase == GIVE
            and isinstance(action, dict)
            and action.get("type") == "give"
            and action.get("seat", self.seats[self.dealer]) == self.seats[self.dealer]
            and not self.can_give()
        ):
            raise IllegalAction("the dealer cannot give: the point would put a player out (1.4); he must run")

    def decide(self, kind: str) -> None:
        if kind == "stand":
            self._trump_from_turnup()
        elif kind == "beg":
            self.phase, self.to_act = GIVE, self.dealer
        elif kind == "give":
            for side in self._receivers():
                if self._score("gift", side, 1):
                    return
            self._trump_from_turnup()
        elif kind == "run":
            self.refused = self.turnups[0] // 13
            self._run()
        elif kind == "bunch":
            self.proposer = self.actor()
            self.phase, self.to_act = ACCEPT, self._other(self.proposer)
        elif kind == "pass":
            if self.to_act == self.eldest:
                self.to_act = self.dealer
            else:
                self._after_question()
        elif kind == "accept":
            self.agreed = True
            self._bunch()
        elif kind == "refuse":
            self._after_question()
        else:
            super().decide(kind)

    def _other(self, seat: int) -> int:
        return self.dealer if seat == self.eldest else self.eldest

    def _trump_from_turnup(self) -> None:
        self._fix_trump(self.turnups[0] // 13)
        self._start_play()

    def _run(self) -> None:
        """Runs until a suit other than the refused one turns up, or a bunch (1.5, 1.6)."""
        k, deck = self.k, self.deck
        while True:
            self.runs += 1
            q = 6 * k + 1 + (self.runs - 1) * (3 * k + 1)
            if q + 3 * k > 51:
                self._bunch()
                return
            for i in range(k):
                seat = (self.eldest + i) % k
                self.hands[seat] |= mask_of(deck[q + 3 * i : q + 3 * i + 3])
            self.dealt |= mask_of(deck[q : q + 3 * k])
            turned = deck[q + 3 * k]
            self.turnups.append(turned)
            if turned // 13 != self.refused:
                break
        self._fix_trump(turned // 13)
        if turned % 13 == JACK and self._score("turned-jack", self.side_of[self.dealer], 1, card=CARD_NAMES[turned]):
            return
        if self.rules.two_player_bunch and k == 2 and not self.agreed:
            self.phase, self.to_act = BUNCH, self.eldest
        else:
            self._after_question()

    def _bunch(self) -> None:
        """The same dealer deals again from the next bunch order (1.6); points stand."""
        order = bunch_order(self.board.seed, self.bunches)
        self.bunches += 1
        self._new_deal(order)

    def _after_question(self) -> None:
        """After a run fixed trump: keep nine after exactly one run, else discard (1.8)."""
        if self.rules.keep_nine and self.runs == 1:
            self._start_play()
        else:
            self.phase, self.to_act, self.discard_turn = DISCARD, self.eldest, 0

    def discard_count(self) -> int:
        return self.hands[self.actor()].bit_count() - 6

    def do_discard(self, cards: int) -> None:
        seat = self.actor()
        self.hands[seat] &= ~cards
        self.discarded[seat] |= cards
        self.discard_turn += 1
        if self.discard_turn < self.k:
            self.to_act = (seat + 1) % self.k
        else:
            self._start_play()

    def _random_decision(self, rng: Random) -> None:
        if self.phase == DISCARD:
            held = cards_of(self.hands[self.actor()])
            self.do_discard(mask_of(rng.sample(held, len(held) - 6)))
        elif self.phase == DONE:
            super()._random_decision(rng)
        else:
            options = self.choices()
            self.decide(options[int(rng.random() * len(options))])

    # ------------------------------------------------------------------ views
    def discards(self) -> list[int]:
        return list(self.discarded)

    def turnup_mask(self) -> int:
        return mask_of(self.turnups)

    def _turnup_names(self) -> list[str]:
        return [CARD_NAMES[c] for c in self.turnups]

    def describe_extra(self) -> dict[str, Any]:
        out = super().describe_extra()
        out["turnups"] = self._turnup_names()
        out["bunches"] = self.bunches
        return out

    def public(self, me: int | None) -> dict[str, Any]:
        """Also public: turn-ups, the refused suit, bunches, how many cards each seat
        discarded; ``me``'s own discards are his alone."""
        out = super().public(me)
        out.update(
            {
                "turnups": self._turnup_names(),
                "refused": None if self.refused < 0 else SUITS[self.refused],
                "bunches": self.bunches,
                "discard_counts": {seat: mask.bit_count() for seat, mask in zip(self.seats, self.discarded)},
                "my_discards": None if me is None else names_of(self.discarded[me]),
            }
        )
        return out


@cache
def _table(name: str, k: int) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """(seats, sides, seat index -> side index) of ruleset ``name`` at ``k`` seats (F1, F8)."""
    from server.engine.games import GAMES  # the registry imports the game modules

    return (seats_for(k), *GAMES[name].sides(k))


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    """Every slot of ``cls`` and its bases (what a clone copies); built once per class."""
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _SLOTS[cls] = tuple(name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))
    return slots
