"""Bots: register (token shown once), list, show with ratings, rotate token, disable, enable.

Registration is open, closed or by invitation (``CINCH_REGISTRATION``, the admin's
choice), and limited per client address (``ratelimit``); the admin may always register.
"""

import hmac

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint, abort

from server.arena import registry
from server.web.api.auth import SECURITY, bearer_token, current_bot, is_admin, require_admin
from server.web.api.ratelimit import limiter, registrations
from server.web.api.schemas import BotRegisterSchema, BotSchema, BotTokenSchema, TrustSchema
from server.web.context import arena
from server.web.readmodel import bot_view, bot_views

ME = "me"  # /bots/me: the token's own bot; no bot may be called that

blp = Blueprint("bots", __name__, url_prefix="/api/v1/bots", description="Bot registration and profiles")


@blp.before_request
def admin_for_trust():
    """Trust is the admin's to give; a refusal comes before the body is even read."""
    if request.method == "POST" and request.url_rule is not None and request.url_rule.rule.endswith("/trust"):
        require_admin()


@blp.route("")
class Bots(MethodView):
    @blp.response(200, BotSchema(many=True))
    @blp.doc(operationId="list_bots")
    def get(self):
        """Every bot, built-in and remote."""
        return bot_views(arena().store.bots())

    @limiter.limit(
        registrations,
        error_message="too many registrations from this address",
        exempt_when=lambda: is_admin(bearer_token()),  # a flood from the admin's address never locks the admin out
    )
    @blp.arguments(BotRegisterSchema())
    @blp.response(201, BotTokenSchema)
    @blp.alt_response(403, description="registration is closed, or needs an invitation code")
    @blp.alt_response(409, description="the name is taken")
    @blp.alt_response(429, description="too many registrations from this address")
    @blp.doc(operationId="register_bot")
    def post(self, body):
        """Register a remote bot. The token in the answer is shown this once."""
        check_registration(body.get("invite"))
        if body["name"] == ME:
            abort(422, message=f"name: {ME!r} is reserved (GET /api/v1/bots/me is the token's own bot)")
        token = registry.register(arena().store, body["name"], body["description"])  # RegistryError: a 409
        return {"name": body["name"], "token": token}


def check_registration(invite: str | None) -> None:
    """A 403 problem saying how to register, unless the arena's policy lets this one in."""
    policy, code = arena().config.registration, arena().config.invite_code
    if policy == "open" or is_admin(bearer_token()):
        return
    if policy == "closed":
        abort(
            403,
            message="registration is closed on this arena: its admin registers bots "
            "(POST /api/v1/bots with the admin token)",
        )
    if not invite:
        abort(
            403,
            message="registration is by invitation on this arena: send the code the admin gave you "
            'as "invite" in the body',
        )
    assert code is not None, "Config refuses CINCH_REGISTRATION=invite without CINCH_INVITE_CODE"
    if not hmac.compare_digest(invite.encode(), code.encode()):
        abort(403, message="the invitation code is not valid; ask the arena's admin for one")


@blp.route("/" + ME)
class Me(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, BotSchema)
    @blp.doc(operationId="get_me")
    def get(self):
        """The bot whose token authorises the request (a runner learns its own name here)."""
        return bot_view(current_bot())


@blp.route("/<name>")
class Bot(MethodView):
    @blp.response(200, BotSchema)
    @blp.doc(operationId="get_bot")
    def get(self, name):
        """A bot with its ratings per ruleset."""
        return bot_view(name)


@blp.route("/<name>/token")
class Token(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, BotTokenSchema)
    @blp.doc(operationId="rotate_token")
    def post(self, name):
        """Rotate the token: the old one stops working at once. The bot itself or the admin."""
        if not is_admin(bearer_token()) and current_bot() != name:
            abort(403, message="only the bot itself or the admin may rotate its token")
        bot_view(name)
        token = registry.rotate(arena().store, name)  # RegistryError: a 409
        return {"name": name, "token": token}


def set_status(name: str, status: str) -> dict:
    require_admin()
    bot_view(name)
    arena().store.set_bot_fields(name, status=status)
    return bot_view(name)


@blp.route("/<name>/disable")
class Disable(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, BotSchema)
    @blp.alt_response(404, description="no such bot")
    @blp.doc(operationId="disable_bot")
    def post(self, name):
        """Disable a bot (admin): its token stops working and it cannot enter tournaments.
        ``enable`` undoes it."""
        return set_status(name, "disabled")


@blp.route("/<name>/enable")
class Enable(MethodView):
    @blp.doc(security=SECURITY)
    @blp.response(200, BotSchema)
    @blp.alt_response(404, description="no such bot")
    @blp.doc(operationId="enable_bot")
    def post(self, name):
        """Enable a disabled bot again (admin), built-in or remote: its token works again
        (the same token; rotate it if it leaked)."""
        return set_status(name, "active")


@blp.route("/<name>/trust")
class Trust(MethodView):
    @blp.doc(security=SECURITY)
    @blp.arguments(TrustSchema())
    @blp.response(200, BotSchema)
    @blp.alt_response(404, description="no such bot")
    @blp.alt_response(409, description="a built-in bot is always trusted")
    @blp.doc(operationId="trust_bot")
    def post(self, body, name):
        """Mark a remote bot trusted or not (admin). Trusted bots may play two-room
        matches (each board twice, seats swapped); untrusted ones play only the blind
        movement, in which no bot meets a board twice. Trust it only if you know its
        author and that it forgets what it was dealt."""
        bot = bot_view(name)
        if bot["kind"] == "builtin":
            abort(409, message=f"{name} is a built-in bot: always trusted")
        arena().store.set_bot_fields(name, trusted=body["trusted"])
        return bot_view(name)
