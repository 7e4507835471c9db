"""Bearer tokens: a bot's own token for its decisions, the configured admin token for the rest.

Tokens are compared by hash (bots) or in constant time (admin); failures are 401 when
no usable token was sent and 403 when a valid token lacks the right. Every 401 counts
against the client's address, and past the limit on failed authentications it is a 429
(``ratelimit``): a client retrying a wrong token is told to stop and when to come back.
"""

from __future__ import annotations

import hmac
from typing import NoReturn

from flask import request
from flask_smorest import abort

from server.arena import humans, registry
from server.web.api.ratelimit import count_failed_authentication
from server.web.context import arena

SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]  # OpenAPI: the bearer scheme, no scopes


def bearer_token() -> str | None:
    return bearer_of(request.headers.get("Authorization", ""))


def bearer_of(header: str) -> str | None:
    """The token of an ``Authorization`` header's bearer scheme, or None (``server.web.fastpath`` reads the environ)."""
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def is_admin(token: str | None) -> bool:
    admin = arena().config.admin_token
    return bool(admin and token and hmac.compare_digest(token.encode(), admin.encode()))


SEAT_BLUEPRINTS = {"decisions"}
"""Where a human seat's token is a bot (``server.arena.humans``): its seat's decisions only."""


def current_bot() -> str:
    """The name of the active bot whose token authorises this request, or a 401 problem;
    a human seat's token is one only for the decisions (a 403 anywhere else)."""
    token = bearer_token()
    name = authorised(registry.authenticate(arena().store, token) if token else None)
    if humans.is_human(name) and request.blueprint not in SEAT_BLUEPRINTS:
        abort(403, message="a human seat's token plays its seat's decisions and reads its seat, nothing else")
    return name


def seat_principal() -> str:
    """The human seat whose token authorises this request: a 401 without a valid token, a
    403 for a bot's (or the admin's) token."""
    token = bearer_token()
    name = registry.authenticate(arena().store, token) if token else None
    if name is None and not is_admin(token):
        unauthorised("a human seat's token is required (Authorization: Bearer <token>, from the seat link)")
    if not humans.is_human(name):
        abort(403, message="this is a human seat's endpoint: use the token of the seat link")
    return str(name)


def bot_token_hash() -> str:
    """The hash of the bearer token, for a store call that checks it in its own round trip."""
    return registry.token_hash(bearer_token() or "")


def unauthorised(message: str) -> NoReturn:
    """The 401 problem, counted against the client's address: past the limit on failed
    authentications it is a 429 instead (``ratelimit``)."""
    count_failed_authentication()
    abort(401, message=message, headers={"WWW-Authenticate": "Bearer"})


def authorised(bot: str | None) -> str:
    """``bot`` if a token check found one; else a 403 for the admin's token (valid, but
    no bot's: the admin does not play), or the 401 problem."""
    if bot is None:
        if is_admin(bearer_token()):
            abort(403, message="this is a bot's endpoint: the admin token plays no bot; use the bot's own token")
        unauthorised("a valid bot token is required (Authorization: Bearer <token>)")
    return bot


def require_admin() -> None:
    token = bearer_token()
    if token is None:
        unauthorised("the admin token is required (Authorization: Bearer <token>)")
    if is_admin(token):
        return
    if registry.authenticate(arena().store, token) is None:
        unauthorised("the token is not valid")
    abort(403, message="this needs the admin token")
