"""The Python SDK for Cinch arena bots: ``requests`` and the standard library only.

    import sdk

    class MyBot(sdk.Bot):
        def play(self, obs):                    # or bid/trump/discard/rob, or act()
            return obs.legal_cards[0]

    sdk.main(MyBot)                             # --server URL, $CINCH_TOKEN or --token-file F; Ctrl-C stops

* ``Client(base_url, token=None, admin_token=None, timeout=10)``: one method per API
  operation, typed results (``sdk.models``), ``ApiError`` carrying the problem body.
* ``Bot``: the base class; ``Observation``: the seat's view with helpers.
* ``Runner`` / ``run(bot, client)``: serves every seat concurrently, reconnects,
  answers each decision exactly once, stops on Ctrl-C or ``stop()``.
* ``sdk.cards``: cards, seats, trumps and trick helpers.
"""

from sdk import cards
from sdk.bot import Bot, FunctionBot, as_bot, load_bot
from sdk.client import Client, __version__
from sdk.errors import ApiError, NetworkError, SdkError
from sdk.launch import main
from sdk.models import (
    BoardPair,
    BotInfo,
    BotToken,
    Decision,
    Health,
    HumanSeat,
    Leaderboard,
    LeaderboardEntry,
    Match,
    MatchStats,
    OpenedTable,
    ProgressiveRound,
    ProgressiveTable,
    Rating,
    RatingHistory,
    RatingPoint,
    Results,
    Room,
    Standing,
    Table,
    TableRecord,
    Tournament,
)
from sdk.observation import Action, IllegalAction, Observation, check, first_action, is_legal, random_action
from sdk.runner import Runner, run

__all__ = [
    "Action",
    "ApiError",
    "BoardPair",
    "Bot",
    "BotInfo",
    "BotToken",
    "Client",
    "Decision",
    "FunctionBot",
    "Health",
    "HumanSeat",
    "IllegalAction",
    "Leaderboard",
    "LeaderboardEntry",
    "Match",
    "MatchStats",
    "NetworkError",
    "Observation",
    "ProgressiveRound",
    "OpenedTable",
    "ProgressiveTable",
    "Rating",
    "RatingHistory",
    "RatingPoint",
    "Results",
    "Room",
    "Runner",
    "SdkError",
    "Standing",
    "Table",
    "TableRecord",
    "Tournament",
    "__version__",
    "as_bot",
    "cards",
    "check",
    "first_action",
    "is_legal",
    "load_bot",
    "main",
    "random_action",
    "run",
]
