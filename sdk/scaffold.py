"""``cinch bot new NAME`` (and ``cinch-bot new``): a new bot to start from, and its test.

``write_bot(name, ruleset, directory)`` writes ``NAME.py``, a ``sdk.Bot`` subclass with a
method for every decision the ruleset asks, each answering something legal and sensible
(the lowest bid with a good suit, else a pass; the longest suit as trump; trumps kept
in a discard or a rob; a simple rule of play), and ``test_NAME.py``, a pytest file that
plays the bot against the ``random`` bot on a few boards, offline, and fails on any
illegal answer or exception (``workers.trial.play_offline``, part of the arena: with the
SDK alone installed the test is skipped, saying so). Existing files are never
overwritten.

``DECISIONS`` lists the decisions of every ruleset the arena plays; the SDK does not
import the arena, so a test keeps this table equal to what the engine asks.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from sdk.errors import SdkError

DECISIONS: dict[str, tuple[str, ...]] = {
    "american62": ("bid", "trump", "rob", "play"),
    "foster51": ("bid", "trump", "discard", "rob", "play"),
    "seven_up": ("beg", "give", "bunch", "accept", "discard", "play"),
    "pitch": ("play",),
    "all_fives": ("beg", "give", "bunch", "accept", "discard", "play"),
    "blind_cinch": ("bid", "trump", "discard", "play"),
    "sixty_three": ("bid", "trump", "discard", "rob", "play"),
    "auction_pitch": ("bid", "sale", "play"),
    "pedro": ("bid", "sale", "play"),
    "snoozer": ("bid", "sale", "play"),
    "widow_cinch": ("bid", "widow", "trump", "discard", "play"),
    "auction_cinch": ("bid", "trump", "discard", "call", "play"),
}
"""Every ruleset's decisions, in the order a hand asks them (``bunch`` and ``accept``: with
two players and the ``two_player_bunch`` option)."""

UNITS: dict[str, int] = {
    "american62": 2,
    "foster51": 2,
    "seven_up": 2,
    "pitch": 2,
    "all_fives": 2,
    "blind_cinch": 2,
    "sixty_three": 2,
    "auction_pitch": 4,
    "pedro": 4,
    "snoozer": 4,
    "widow_cinch": 3,
    "auction_cinch": 5,
}
"""Units (sides, or players where each plays alone) at each ruleset's default table: the
bots ``cinch compare`` takes."""

RULESETS = tuple(DECISIONS)
DEFAULT_RULESET = "american62"

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

_HEAD = '''"""{class_name}: a bot for {ruleset}, made by `cinch bot new`. Every decision is answered by
its own method below with something legal and simple; make it better one method at a time
(docs/writing-a-bot.md; what each observation holds: docs/observations.md).

    pytest test_{name}.py                                   # plays it offline against random
    {compare}
    cinch-bot run {name}.py:{class_name} --server URL --token-file FILE   # (or: cinch bot run ...)
"""

from collections import Counter

import sdk
from sdk import cards as C


class {class_name}(sdk.Bot):
    name = "{bot_name}"
    ruleset = "{ruleset}"

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def longest_suit(hand, suits=None):
        """The suit I hold most of (among ``suits`` if given), high cards breaking ties."""
        suits = suits or sorted({{C.suit(c) for c in hand if C.suit(c)}}) or list(C.SUITS)
        count = Counter(C.suit(c) for c in hand)
        high = Counter(C.suit(c) for c in hand if C.rank(c) in "AKQJ")
        return max(suits, key=lambda s: (count[s], high[s]))

    @staticmethod
    def prefer(obs, *types):
        """The first of ``types`` that is legal now, else the first legal action's type."""
        legal = {{a["type"] for a in obs.legal}}
        return next((t for t in types if t in legal), obs.legal[0]["type"])

    def kept(self, obs, cards, size):
        """``size`` of ``cards`` to keep: trumps (of trump, or of my longest suit) highest first, then high cards."""
        trump = obs.trump or self.longest_suit(obs.hand)
        return C.by_strength(cards, trump, highest_first=True, plain=obs.plain_trumps)[:size]
'''

_METHODS = {
    "bid": '''
    def bid(self, obs):
        """The lowest legal bid with a good suit (four cards, or its ace), else a pass."""
        if not obs.legal_bids:
            return None
        suit = self.longest_suit(obs.hand)
        mine = [c for c in obs.hand if C.suit(c) == suit]
        if not obs.can_pass or len(mine) >= 4 or "A" + suit in mine:
            return min(obs.legal_bids)
        return None
''',
    "trump": '''
    def trump(self, obs):
        """My longest suit."""
        return self.longest_suit(obs.hand, obs.legal_suits)
''',
    "discard": '''
    def discard(self, obs):
        """Keep trumps and high cards: discard the weakest cards, as few as allowed beyond non-trumps."""
        choice = obs.choice
        must = list(choice.get("must_include", []))
        pool = [c for c in choice["from"] if c not in must]
        trump = obs.trump or self.longest_suit(obs.hand)
        weak = [c for c in C.by_strength(pool, trump, plain=obs.plain_trumps) if not C.is_trump(c, trump, obs.plain_trumps)]
        low, high = choice.get("min", 0), choice.get("max", len(pool) + len(must))
        count = max(low, min(high, len(must) + len(weak))) - len(must)
        rest = weak + [c for c in C.by_strength(pool, trump, plain=obs.plain_trumps) if c not in weak]
        return must + rest[: max(0, count)]
''',
    "rob": '''
    def rob(self, obs):
        """The cards I must keep, then the strongest trumps and high cards."""
        choice = obs.choice
        must = list(choice["must_keep"])
        rest = self.kept(obs, [c for c in choice["from"] if c not in must], choice["size"] - len(must))
        return must + rest
''',
    "play": '''
    def play(self, obs):
        """Lead my strongest card; win the trick as cheaply as I can unless my partner has it; else play low."""
        cards = C.by_strength(obs.legal_cards, obs.trump, plain=obs.plain_trumps)
        if obs.leading:
            return cards[-1]
        if obs.partner_winning:
            return cards[0]
        trick = obs.current_cards
        winners = [c for c in cards if C.winning_index([*trick, c], obs.trump, obs.plain_trumps) == len(trick)]
        return winners[0] if winners else cards[0]
''',
    "beg": '''
    def beg(self, obs):
        """Stand on two cards of the turn-up's suit or a high one, else beg."""
        suit = obs.trump or self.longest_suit(obs.hand)
        mine = [c for c in obs.hand if C.suit(c) == suit]
        return self.prefer(obs, "stand" if len(mine) >= 2 or any(C.rank(c) in "AK" for c in mine) else "beg")
''',
    "give": '''
    def give(self, obs):
        """Give the point (running the cards is a gamble)."""
        return self.prefer(obs, "give", "run")
''',
    "bunch": '''
    def bunch(self, obs):
        """Keep the deal."""
        return self.prefer(obs, "pass", "bunch")
''',
    "accept": '''
    def accept(self, obs):
        """Accept a bunch."""
        return self.prefer(obs, "accept", "refuse")
''',
    "sale": '''
    def sale(self, obs):
        """Pitch myself with a good suit, else sell."""
        suit = self.longest_suit(obs.hand)
        strong = sum(C.suit(c) == suit for c in obs.hand) >= 4
        return self.prefer(obs, "pitch" if strong else "sell", "sell", "pitch")
''',
    "widow": '''
    def widow(self, obs):
        """Take the widow: more cards to choose trumps from."""
        return any(a.get("take") is True for a in obs.legal)
''',
    "call": '''
    def call(self, obs):
        """Call the highest trump I do not hold: its holder becomes my partner."""
        legal = [a["card"] for a in obs.legal if a["type"] == "call"]
        wanted = [c for c in C.all_trumps(obs.trump) if c in legal and c not in obs.hand] if obs.trump else []
        return (wanted or legal)[0]
''',
}

_TAIL = """

if __name__ == "__main__":
    sdk.main({class_name})  # python {name}.py --server URL --token-file FILE
"""

_TEST = '''"""{class_name} against the random bot, offline: every answer legal, no exception.

Runs with `pytest test_{name}.py`: no server, no Redis. The games are played by the arena's
engine (workers.trial.play_offline, as `cinch compare` judges an entrant); with the SDK alone
installed (pip install cinch-arena-sdk) the test is skipped: play the bot on a server with
`cinch-bot run` instead.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from {name} import {class_name}  # noqa: E402

RULESET = "{ruleset}"
BOARDS = 4


def test_plays_every_decision_legally_against_random():
    trial = pytest.importorskip(
        "workers.trial", reason="the offline games need the arena (cinch-arena); the SDK alone cannot play a hand"
    )
    result = trial.play_offline({class_name}(), RULESET, boards=BOARDS, opponent="random")
    assert result.decisions > 0
    assert result.faults == [], "illegal answers or exceptions (each replaced by the default action)"
'''


def class_name_of(name: str) -> str:
    """``my_bot`` -> ``MyBot``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) or "Bot"


def bot_source(name: str, ruleset: str = DEFAULT_RULESET) -> str:
    """The text of ``NAME.py``."""
    check_name(name)
    if ruleset not in DECISIONS:
        raise SdkError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
    fields = {
        "name": name,
        "class_name": class_name_of(name),
        "bot_name": name.replace("_", "-").lower().strip("-")[:32],
        "ruleset": ruleset,
        "compare": compare_command(name, ruleset),
    }
    methods = "".join(_METHODS[d] for d in DECISIONS[ruleset])
    return _HEAD.format(**fields) + methods + _TAIL.format(**fields)


def compare_command(name: str, ruleset: str) -> str:
    """``cinch compare`` of the new bot against the rule bot, one bot per unit of the table."""
    others = " ".join(["rule"] * (UNITS[ruleset] - 1))
    return f"cinch compare {name}.py:{class_name_of(name)} {others} --ruleset {ruleset} --boards 20"


def test_source(name: str, ruleset: str = DEFAULT_RULESET) -> str:
    """The text of ``test_NAME.py``."""
    check_name(name)
    return _TEST.format(name=name, class_name=class_name_of(name), ruleset=ruleset)


def check_name(name: str) -> None:
    if not _NAME.fullmatch(name) or keyword.iskeyword(name):
        suggestion = re.sub(r"\W", "_", name).strip("_") or "my_bot"
        raise SdkError(
            f"{name!r} is not a Python module name (letters, digits and _, not starting with a digit): "
            f"try {suggestion!r}"
        )


def write_bot(name: str, ruleset: str = DEFAULT_RULESET, directory: str | Path = ".") -> list[Path]:
    """Write ``NAME.py`` and ``test_NAME.py`` in ``directory`` (made if missing); SdkError,
    writing nothing, if either exists."""
    if name.endswith(".py"):
        name = name[:-3]
    folder = Path(directory)
    texts = {folder / f"{name}.py": bot_source(name, ruleset), folder / f"test_{name}.py": test_source(name, ruleset)}
    existing = [str(p) for p in texts if p.exists()]
    if existing:
        raise SdkError(f"{' and '.join(existing)} exist{'s' if len(existing) == 1 else ''}; nothing was written")
    folder.mkdir(parents=True, exist_ok=True)
    for path, text in texts.items():
        with path.open("x", encoding="utf-8") as out:
            out.write(text)
    return list(texts)
