"""The pure rules engine: no I/O, no Redis, no Flask; deterministic given board and actions.

Public surface: rulesets (``make_ruleset``), boards (``Board``, ``generate_board``),
one hand's state machine per game (``new_hand``; every game's class derives from
``Hand``; Cinch's is ``HandState``, with ``legal_actions``/``apply`` in the wire
format and a fast int layer for search), per-seat ``observation``, ``Game`` across
hands, and ``replay`` for auditing.
"""

from server.engine.boards import Board, BoardError, generate_board
from server.engine.cards import ALL_NAMES, CARD_NAMES, SEATS, SIDES, SUITS, seats_for
from server.engine.game import Game
from server.engine.games import GAMES
from server.engine.games.cinch_hand import HandState
from server.engine.hand import BIDDING, DISCARD, DONE, PLAY, ROB, TRUMP, Hand, IllegalAction, new_hand
from server.engine.observation import observation
from server.engine.replay import ReplayError, replay
from server.engine.rulesets import (
    BASE_RULESETS,
    DEFAULT_RULESET,
    GameSpec,
    Ruleset,
    RulesetError,
    game_spec,
    make_ruleset,
)

__all__ = [
    "ALL_NAMES",
    "BASE_RULESETS",
    "BIDDING",
    "Board",
    "BoardError",
    "CARD_NAMES",
    "DEFAULT_RULESET",
    "DISCARD",
    "DONE",
    "GAMES",
    "Game",
    "GameSpec",
    "Hand",
    "HandState",
    "IllegalAction",
    "PLAY",
    "ROB",
    "ReplayError",
    "Ruleset",
    "RulesetError",
    "SEATS",
    "SIDES",
    "SUITS",
    "TRUMP",
    "game_spec",
    "generate_board",
    "make_ruleset",
    "new_hand",
    "observation",
    "replay",
    "seats_for",
]
