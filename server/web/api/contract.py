"""What the OpenAPI document says across operations: the errors each can answer, the
links from one operation's response to the next, and an example for every request body
and for the decision a bot receives.

These follow the layers under the views and the flow between them, not any one view, so
they live here in one table each (an apispec plugin applies them as each path is added)
rather than as decorators repeated on every view.
"""

from __future__ import annotations

import http
from functools import cache
from typing import Any

from apispec import APISpec, BasePlugin

from server.engine import HandState, generate_board, make_ruleset, observation
from server.engine.cards import SEATS
from server.web.api.game_schemas import ENUM_KEY, ENUMS
from server.web.api.problems import PROBLEM

S = http.HTTPStatus


def implied_errors(path: str, method: str, operation: dict) -> list[http.HTTPStatus]:
    """The errors the layers under a view can answer for this operation (``limits``,
    ``auth``, ``ratelimit``, the app's body checks, the Redis handler)."""
    errors = [S.BAD_REQUEST]  # path and query strings (NUL, lone surrogates, too long)
    if "{" in path:
        errors.append(S.NOT_FOUND)
    if operation.get("security"):
        errors += [S.UNAUTHORIZED, S.FORBIDDEN, S.TOO_MANY_REQUESTS]
    if method.lower() == "post":
        errors += [S.REQUEST_ENTITY_TOO_LARGE, S.UNSUPPORTED_MEDIA_TYPE]
    if not path.endswith("/health"):
        errors.append(S.SERVICE_UNAVAILABLE)  # Redis away: Retry-After
    return errors


def _link(operation: str, description: str, request_body: str | None = None, **parameters: Any) -> dict[str, Any]:
    link: dict[str, Any] = {"operationId": operation, "description": description, "parameters": parameters}
    if request_body:
        link["requestBody"] = request_body
    return link


TOURNAMENT_ID = "$response.body#/id"

LINKS: dict[str, dict[str, dict[str, dict[str, Any]]]] = {
    "register_bot": {
        "201": {
            "GetBot": _link("get_bot", "the bot just registered", name="$response.body#/name"),
            "RotateToken": _link("rotate_token", "rotate the token just shown", name="$response.body#/name"),
        }
    },
    "next_decision": {
        "200": {
            "AnswerDecision": _link(
                "answer_decision",
                "answer it with its first legal entry (a plain action, or a choice that says what to send)",
                "$response.body#/legal/0",
                decision_id="$response.body#/id",
            )
        }
    },
    "answer_decision": {
        "200": {
            "AnswerNext": _link(
                "answer_decision",
                "answer the next open decision the response brought",
                "$response.body#/next/0/legal/0",
                decision_id="$response.body#/next/0/id",
            )
        }
    },
    "create_tournament": {
        "201": {
            "GetTournament": _link("get_tournament", "its status and progress", tid=TOURNAMENT_ID),
            "ListMatches": _link("list_matches", "its matches", tid=TOURNAMENT_ID),
            "GetResults": _link("get_results", "its results so far", tid=TOURNAMENT_ID),
            "CancelTournament": _link("cancel_tournament", "cancel it", tid=TOURNAMENT_ID),
        }
    },
    "get_tournament": {
        "200": {
            "ListMatches": _link("list_matches", "its matches", tid=TOURNAMENT_ID),
            "GetResults": _link("get_results", "its results so far", tid=TOURNAMENT_ID),
            "ResumeTournament": _link(
                "resume_tournament", "resume it (once interrupted or cancelled)", tid=TOURNAMENT_ID
            ),
        }
    },
    "list_matches": {
        "200": {
            "GetBoardPair": _link(
                "get_board_pair",
                "the first match's first board of the tournament, once finished "
                "in every match (the tournament's first board is 1 unless it says otherwise)",
                mid="$response.body#/0/id",
                board=1,
            )
        }
    },
    "create_table": {
        "201": {
            "GetTable": _link("get_table", "the table as a spectator sees it", tid="$response.body#/id"),
            "JoinTable": _link("join_table", "take a seat", tid="$response.body#/id"),
            "GetTableRecord": _link("get_table_record", "every card, once the game is over", tid="$response.body#/id"),
        }
    },
    "get_ratings": {
        "200": {
            "GetRatingHistory": _link(
                "get_rating_history",
                "the leader's rating history",
                ruleset="$response.body#/ruleset",
                bot="$response.body#/bots/0/bot",
            )
        }
    },
}

REQUEST_EXAMPLES: dict[str, Any] = {
    "register_bot": {"name": "my-bot", "description": "tries hard"},
    "trust_bot": {"trusted": True},
    "answer_decision": {"type": "bid", "amount": 8},
    "create_tournament": {"bots": ["random", "rule", "search"], "boards": 24, "ruleset": "american62"},
    "create_table": {
        "ruleset": "american62",
        "seats": {"N": "rule", "E": "random", "S": "rule"},
        "limits": {"decision_ms": 2000},
    },
    "join_table": {"seat": "W"},
}


@cache
def decision_example() -> dict[str, Any]:
    """A real decision: the first bid of a board, as the engine shows it to the seat."""
    state = HandState(make_ruleset("american62"), generate_board("example", 1))
    view = observation(state, SEATS[state.actor()])
    return {
        "id": "6f1c0d9e2b7a4c3f8e5d1a0b9c8d7e6f",
        "observation": view,
        "legal": view["legal"],
        "deadline": 1796000000.25,
        "deadline_in_ms": 1800,
    }


RESPONSE_EXAMPLES = {"next_decision": decision_example}


class ContractPlugin(BasePlugin):
    """Applies the tables above to every operation as apispec adds its path, and makes
    the shared enums (``game_schemas.ENUMS``) components that fields refer to."""

    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec
        for name, (values, description) in ENUMS.items():
            spec.components.schema(name, {"type": "string", "enum": values, "description": description})

    @staticmethod
    def enum_reference(converter: Any, field: Any, ret: dict, **kwargs: Any) -> dict:
        """An apispec attribute function: a field of a shared enum refers to its component
        instead of repeating the values (``allOf`` keeps its description and nullability)."""
        name = field.metadata.get(ENUM_KEY)
        if name is None:
            return {}
        ret.pop("type", None)
        ret.pop("enum", None)
        ref = {"$ref": f"#/components/schemas/{name}"}
        return {"allOf": [ref]} if ret else ref

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            responses = operation.setdefault("responses", {})
            _problems(path or "", method, operation, responses)
            name = operation.get("operationId", "")
            for status, links in LINKS.get(name, {}).items():
                _response(responses, status)["links"] = links
            if name in REQUEST_EXAMPLES:
                for media in operation["requestBody"]["content"].values():
                    media["example"] = REQUEST_EXAMPLES[name]
            if name in RESPONSE_EXAMPLES:
                for media in _response(responses, "200")["content"].values():
                    media["example"] = RESPONSE_EXAMPLES[name]()


def _response(responses: dict, status: str) -> dict:
    """A response of the operation by its code (flask-smorest's keys are numbers)."""
    return responses[int(status)] if int(status) in responses else responses[status]


def _problems(path: str, method: str, operation: dict, responses: dict) -> None:
    """Every error the operation can answer, each with the Problem body. Errors a view
    documents itself (``alt_response`` with a description) get the Problem body; the
    layers' errors are added as the shared response components."""
    for code in list(responses):
        value = responses[code]
        if str(code)[0] in "45" and isinstance(value, dict) and "content" not in value:
            value["content"] = {PROBLEM: {"schema": "Problem"}}
    documented = {str(code) for code in responses}
    for status in implied_errors(path, method, operation):
        if str(int(status)) not in documented:
            responses[str(int(status))] = status.name
