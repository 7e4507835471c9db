"""How a person with the admin token opens the operator's page in a browser.

The token never goes in a URL (it would stay in the history, the proxy's logs and a
``Referer``), and a page cannot send a bearer header by itself. So ``/ops`` answers a
login form; posting the admin token to ``/ops/login`` sets a cookie, and the page and
its forms are served to that cookie:

* **The cookie holds no token.** Its value is a random nonce and a timestamp, signed
  (``itsdangerous``) with a key derived from the admin token; it is good for
  ``MAX_AGE`` (8 h), and changing ``CINCH_ADMIN_TOKEN`` (then restarting the API) ends
  every session. ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no other
  site's page or link sends it), ``Path=/ops`` (no other page gets it), and ``Secure``
  when the request came over HTTPS (``X-Forwarded-Proto`` from the TLS proxy too).
* **Every form is CSRF-checked twice.** ``SameSite=Strict`` keeps a forged cross-site
  post from carrying the cookie; and each form carries a token bound to the session
  (an HMAC of the cookie's value with the same key, the synchronizer-token pattern
  without server state), compared in constant time; a request whose ``Origin`` is
  another site's is refused as well. The login form needs none: forging it would take
  the admin token.
* A wrong token at the login form counts against the address like any refused bearer
  token (``ratelimit``: 401s, then 429s).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from flask import abort, request
from itsdangerous import BadSignature, TimestampSigner
from werkzeug.wrappers import Response

from server.web.context import arena

COOKIE = "cinch_ops"
PATH = "/ops"
MAX_AGE = 8 * 3600


def _key() -> bytes | None:
    admin = arena().config.admin_token
    return hmac.new(admin.encode(), b"cinch operator page session", hashlib.sha256).digest() if admin else None


def _signer(key: bytes) -> TimestampSigner:
    return TimestampSigner(key, salt="cinch-ops")


def open_session(response: Response) -> None:
    """Set a fresh session cookie on ``response`` (the caller checked the admin token)."""
    key = _key()
    assert key is not None  # no admin token: no login succeeds
    value = _signer(key).sign(secrets.token_urlsafe(18)).decode()
    secure = request.is_secure or request.headers.get("X-Forwarded-Proto", "") == "https"
    response.set_cookie(COOKIE, value, max_age=MAX_AGE, path=PATH, httponly=True, samesite="Strict", secure=secure)


def close_session(response: Response) -> None:
    response.delete_cookie(COOKIE, path=PATH, httponly=True, samesite="Strict")


def session() -> str | None:
    """The request's session cookie if this arena's admin signed it less than ``MAX_AGE`` ago."""
    key, value = _key(), request.cookies.get(COOKIE)
    if key is None or not value:
        return None
    try:
        _signer(key).unsign(value, max_age=MAX_AGE)
    except BadSignature:  # forged, another token's, or expired (SignatureExpired)
        return None
    return value


def csrf_token(value: str) -> str:
    """The token every form of the session carries."""
    key = _key()
    assert key is not None
    return hmac.new(key, f"csrf:{value}".encode(), hashlib.sha256).hexdigest()


def require_form() -> None:
    """A form post of a live session from this site, or 403 (401 without a session)."""
    value = session()
    if value is None:
        abort(401, "sign in at /ops with the admin token first")
    origin = request.headers.get("Origin")
    if origin and urlsplit(origin).netloc != request.host:
        abort(403, "this form was posted from another site")
    if not hmac.compare_digest(request.form.get("csrf", "").encode(), csrf_token(value).encode()):
        abort(403, "the form's CSRF token is missing or not this session's: reload /ops and try again")
