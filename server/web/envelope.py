"""What every request may carry and every response carries, for Flask's hooks
(``server.web.app``) and for the decisions' fast path (``server.web.fastpath``) alike:
the bounds on the request line and headers, the request id, the security headers."""

from __future__ import annotations

import re
import uuid

from server.web import docsite

MAX_URI = 4094  # gunicorn's own default request-line limit, now the app's
MAX_HEADERS = 100  # gunicorn's default header count
MAX_HEADER = 8000  # a header (name and value): below gevent's own 8,192-byte line limit, so the app answers
REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{7,127}")
"""An incoming ``X-Request-Id`` kept as it is (a proxy's, a client's): 8 to 128 characters
that cannot break a log line or a header; any other is replaced by one of ours."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


CONTENT_POLICY = (
    "default-src 'self'; script-src 'self'{inline}; style-src 'self'{inline}; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""Everything from this host and nothing from elsewhere (no CDN, so an offline arena
works, and a script injected into a page has nowhere to send what it reads). The pages
have no inline script or style; the two sites built by others (Swagger UI's page, the
mkdocs site) do, and only they may run it."""


DOCS_PATH = "/api/v1/docs"
"""The interactive API docs: Swagger UI served from the files in the flask-swagger-ui
package (pinned), so the page works without internet and loads nothing from another host."""

_OURS, _OTHERS = (CONTENT_POLICY.format(inline=inline) for inline in ("", " 'unsafe-inline'"))


def content_policy(path: str) -> str:
    """The Content-Security-Policy of a response to ``path``."""
    return _OTHERS if path.startswith((DOCS_PATH, docsite.PREFIX)) else _OURS


def security_headers_of(path: str) -> list[tuple[str, str]]:
    """What a browser is told of every response to ``path``: sniff no types, frame nothing,
    send no referrer off the site, and load nothing from anywhere but this host
    (``content_policy``)."""
    return [
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
        ("Content-Security-Policy", content_policy(path)),
    ]


def request_id_of(given: str) -> str:
    """A request's id: its ``X-Request-Id`` if well-formed (``REQUEST_ID``), else a new one."""
    return given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


def out_of_bounds(uri: str, headers: list[tuple[str, str]]) -> tuple[int, str] | None:
    """The status and detail of a request line or headers over the bounds (414, 431), or None."""
    if len(uri) > MAX_URI:
        return 414, f"the request URI is {len(uri)} characters; the limit is {MAX_URI}"
    if len(headers) > MAX_HEADERS:
        return 431, f"the request has {len(headers)} headers; the limit is {MAX_HEADERS}"
    long = next(((k, v) for k, v in headers if len(k) + len(v) > MAX_HEADER), None)
    if long is not None:
        return 431, f"the {long[0]} header is over {MAX_HEADER} characters"
    return None
