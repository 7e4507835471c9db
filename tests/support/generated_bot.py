"""A bot written with nothing but the client that openapi-python-client generates from
the arena's OpenAPI document (the package ``arena_client``, on the path): a bot author's
first program in any language, minus the README.

    python generated_bot.py BASE_URL ADMIN_TOKEN NAME

It registers NAME, has the admin trust it and start a round robin against ``random``,
answers every decision with the first answer the first legal entry allows until the
tournament is finished, and prints its counts and the results as JSON. It is checked
with ``mypy --strict``: every field it reads or sends has a type from the document.
"""

from __future__ import annotations

import json
import sys
import time

from arena_client import AuthenticatedClient, Client
from arena_client.api.bots import register_bot, trust_bot
from arena_client.api.decisions import answer_decision, next_decision
from arena_client.api.tournaments import create_tournament, get_results, get_tournament
from arena_client.models import (
    AcceptAction,
    BegAction,
    BidAction,
    BotRegister,
    BotToken,
    BunchAction,
    CallAction,
    Decision,
    DiscardAction,
    DiscardActionType,
    DiscardChoice,
    GiveAction,
    PassAction,
    PitchAction,
    PlayAction,
    PlayActionType,
    PlayChoice,
    RefuseAction,
    Results,
    RobAction,
    RobActionType,
    RobChoice,
    RunAction,
    SellAction,
    StandAction,
    Tournament,
    TournamentCreate,
    TournamentCreated,
    TournamentStatus,
    TrumpAction,
    Trust,
    WidowAction,
)
from arena_client.types import UNSET

# The actions that are their type alone (the All Fours games' begging and bunching, the
# auction games' sale) and widow_cinch's widow (its ``take`` in the entry), sent back as
# the legal entry gives them, like a pass, a bid or auction_cinch's call.
Bare = (
    AcceptAction
    | BegAction
    | BunchAction
    | GiveAction
    | PitchAction
    | RefuseAction
    | RunAction
    | SellAction
    | StandAction
    | WidowAction
)
Answer = BidAction | CallAction | DiscardAction | PassAction | PlayAction | RobAction | TrumpAction | Bare
Entry = BidAction | CallAction | DiscardChoice | PassAction | PlayChoice | RobChoice | TrumpAction | Bare


def answer_for(entry: Entry) -> Answer:
    """A plain action is sent as it is; a choice says what to send, and this sends the
    fewest cards it allows."""
    if isinstance(entry, PlayChoice):
        if isinstance(entry.extras_count, int) and isinstance(entry.extras_from, list):
            return PlayAction(
                type_=PlayActionType.PLAY, card=entry.card, extras=entry.extras_from[: entry.extras_count]
            )
        return PlayAction(type_=PlayActionType.PLAY, card=entry.card, extras=UNSET)
    if isinstance(entry, DiscardChoice):
        must = entry.must_include if isinstance(entry.must_include, list) else []
        rest = [card for card in entry.from_ if card not in must]
        return DiscardAction(type_=DiscardActionType.DISCARD, cards=must + rest[: max(0, entry.min_ - len(must))])
    if isinstance(entry, RobChoice):
        rest = [card for card in entry.from_ if card not in entry.must_keep]
        return RobAction(type_=RobActionType.ROB, keep=entry.must_keep + rest[: entry.size - len(entry.must_keep)])
    return entry


def main(base: str, admin_token: str, name: str) -> None:
    public = Client(base_url=base, raise_on_unexpected_status=True)
    admin = AuthenticatedClient(base_url=base, token=admin_token, raise_on_unexpected_status=True)
    token = register_bot.sync(client=public, body=BotRegister(name=name))
    assert isinstance(token, BotToken), token
    trust_bot.sync(name, client=admin, body=Trust(trusted=True))
    created = create_tournament.sync(client=admin, body=TournamentCreate(bots=[name, "random"], boards=4))
    assert isinstance(created, TournamentCreated), created
    me = AuthenticatedClient(base_url=base, token=token.token, raise_on_unexpected_status=True)
    answered = refused = 0
    status = TournamentStatus.QUEUED
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        tournament = get_tournament.sync(created.id, client=public)
        assert isinstance(tournament, Tournament), tournament
        status = tournament.status
        if status == TournamentStatus.FINISHED:
            break
        decision = next_decision.sync(client=me, wait=1.0)
        if not isinstance(decision, Decision):
            continue
        reply = answer_decision.sync_detailed(decision.id, client=me, body=answer_for(decision.legal[0]))
        if reply.status_code == 200:
            answered += 1
        else:
            refused += 1
    results = get_results.sync(created.id, client=public)
    assert isinstance(results, Results), results
    print(
        json.dumps(
            {
                "tournament": created.id,
                "status": str(status),
                "answered": answered,
                "refused": refused,
                "standings": [row.to_dict() for row in results.standings],
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:4])
