"""The docs site at ``/docs/``: the pages ``cinch docs build`` wrote, served as they are.

Its own blueprint, beside the API and the pages rather than in either: it reads files from
one directory (``Config.docs_site``) and nothing else of the arena. The site is built with
no web fonts and nothing from another host (mkdocs.yml), so served from here it works with no
network. ``send_from_directory`` joins paths with ``safe_join``: a ``..`` or an absolute path
is a 404, never a file outside the site. When the site has not been built, every ``/docs/``
path answers a page saying how to build it. ``/api/v1/docs`` (Swagger UI) is another route.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory

PREFIX = "/docs/"
"""Where the site is served."""

bp = Blueprint("docsite", __name__, url_prefix=PREFIX.rstrip("/"))

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs not built - Cinch arena</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto">
<h1>The docs site has not been built</h1>
<p>This server serves the documentation from <code>{site}</code>, which has no <code>index.html</code>.
Build it from a checkout of the repository, then reload this page (no restart needed):</p>
<pre>pip install -e ".[docs]"
cinch docs build</pre>
<p><code>cinch docs build --out DIR</code> builds elsewhere; set <code>CINCH_DOCS_DIR=DIR</code> to serve that.
The API's own documentation is at <a href="/api/v1/docs">/api/v1/docs</a>.</p>
</body></html>
"""


def site() -> Path:
    return current_app.extensions["cinch"].config.docs_site


@bp.route("/", defaults={"filename": "index.html"})
@bp.route("/<path:filename>")
def page(filename: str) -> Response:
    root = site()
    if not (root / "index.html").is_file():
        return Response(NOT_BUILT.format(site=escape(str(root))), status=404, mimetype="text/html")
    if filename.endswith("/"):  # a folder's page, as a static server would answer it
        filename += "index.html"
    return send_from_directory(root, filename)
