"""Bearer tokens: a bot's own token for its decisions, the configured admin token for the rest.

Tokens are compared by hash (bots) or in constant time (admin); failures are 401 when
no usable token was sent and 403 when a valid token lacks the right.
"""

from __future__ import annotations

import hmac

from flask import request
from flask_smorest import abort

from server import registry

from .context import arena

SECURITY = [{"bearer": []}]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def is_admin(token: str | None) -> bool:
    admin = arena().admin_token
    return bool(admin and token and hmac.compare_digest(token.encode(), admin.encode()))


def current_bot() -> str:
    """The name of the active bot whose token authorises this request, or a 401 problem."""
    token = bearer_token()
    return authorised(registry.authenticate(arena().store, token) if token else None)


def bot_token_hash() -> str:
    """The hash of the bearer token, for a store call that checks it in its own round trip."""
    return registry.token_hash(bearer_token() or "")


def authorised(bot: str | None) -> str:
    """``bot`` if a token check found one, else the 401 problem."""
    if bot is None:
        abort(401, message="a valid bot token is required (Authorization: Bearer <token>)",
              headers={"WWW-Authenticate": "Bearer"})
    return bot


def require_admin() -> None:
    token = bearer_token()
    if token is None:
        abort(401, message="the admin token is required (Authorization: Bearer <token>)",
              headers={"WWW-Authenticate": "Bearer"})
    if is_admin(token):
        return
    if registry.authenticate(arena().store, token) is None:
        abort(401, message="the token is not valid", headers={"WWW-Authenticate": "Bearer"})
    abort(403, message="this needs the admin token")
