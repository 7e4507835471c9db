"""The pages' blueprint and the template filters every page shares.

Each page module (``leaderboard``, ``tournaments``...) adds its routes to ``bp``; this
module holds only what they have in common, so a new page is one new module.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, url_for

from server.arena.progressive import bot_of
from server.arena.ratings import PROVISIONAL_BOARDS, PROVISIONAL_HALF_WIDTH
from server.web.limits import check_request

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static", static_url_path="/assets")
bp.before_request(check_request)  # path and query strings within bounds; never a token

FINAL = ("finished", "cancelled", "failed")

PROVISIONAL_RULE = (
    f"interval wider than \u00b1{PROVISIONAL_HALF_WIDTH:g} points per board or fewer than {PROVISIONAL_BOARDS} boards"
)
"""What a provisional mark means, in the words of every page's legend (``server.arena.ratings``'s rule)."""


def provisional_rule() -> str:
    return PROVISIONAL_RULE


bp.add_app_template_global(provisional_rule, "provisional_rule")

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@bp.app_template_filter("when")
def _when(stamp: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(stamp)) if stamp else ""


@bp.app_template_filter("signed")
def _signed(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value + 0.0:+.{digits}f}"  # + 0.0: no "-0.00"


def card_parts(name: str) -> dict[str, Any]:
    """How a card is drawn: its rank as printed on a card ("10" for T), its suit symbol and
    colour. Wire names stay as they are (``data-card``), so tests and scripts read those."""
    if name == "JK":
        return {"rank": "Jkr", "symbol": "\u2605", "colour": "black", "name": name}
    rank, suit = name[:-1], name[-1]
    return {
        "rank": "10" if rank == "T" else rank,
        "symbol": SUIT_SYMBOLS.get(suit, suit),
        "colour": "red" if suit in "DH" else "black",
        "name": name,
    }


bp.add_app_template_global(card_parts, "card_parts")


def bot_url(entrant: str) -> str:
    """The page of the bot behind an entrant: a progressive entrant ``rule#2`` (or a house
    ``rule#h1``) links to ``rule``'s page, never to a URL cut at its ``#``."""
    return url_for("pages.bot_page", name=bot_of(entrant))


bp.add_app_template_global(bot_url, "bot_url")
