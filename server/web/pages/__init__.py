"""Web pages for people: server-rendered, read-only, no login.

One module a page (``leaderboard``, ``tournaments``...), all on the blueprint in
``blueprint``; templates share ``base.html`` and draw cards with ``_cards.html``.
Nothing is loaded from another host, and no page shows a card that the API would not
show to a spectator at that moment.

Errors on these paths are HTML pages; under ``/api/`` they stay problem+json
(``init_pages`` wraps the app's problem handlers).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import cast

from flask import Flask, Response, render_template, request

from server.web.pages import boards, bots, downloads, leaderboard, matches, tables, tournaments  # noqa: F401  (their routes join the blueprint)
from server.web.pages.blueprint import bp


def _as_html(handler: Callable[[Exception], Response]) -> Callable[[Exception], Response]:
    """The problem handler for /api/ paths; elsewhere the same status and headers as an HTML page."""

    def handle(error: Exception) -> Response:
        response = handler(error)
        if request.path.startswith("/api/") or response.mimetype != "application/problem+json":
            return response
        body = json.loads(response.get_data())
        page = render_template(
            "error.html", status=response.status_code, title=body.get("title", ""), detail=body.get("detail", "")
        )
        html = Response(page, status=response.status_code, mimetype="text/html")
        for name, value in response.headers.items():
            if name.lower() not in ("content-type", "content-length"):
                html.headers[name] = value
        return html

    return handle


def init_pages(app: Flask) -> None:
    """Register the pages; call after every problem handler is registered."""
    app.register_blueprint(bp)
    for by_code in app.error_handler_spec[None].values():
        for cls, handler in list(by_code.items()):
            # Flask types a handler's result as any response value; every handler registered
            # before the pages is a problem handler answering a Response (api.problems, ratelimit).
            by_code[cls] = _as_html(cast(Callable[[Exception], Response], handler))
