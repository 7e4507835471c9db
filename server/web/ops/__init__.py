"""The operator's page, ``/ops``, for the admin token only (``session`` says how a
browser signs in): RQ's queues and registries, the workers, the failed jobs with their
error and a re-queue button, the supervisors' lead and each live tournament's driver,
each live tournament's remote entrants with their waiting decisions, and Redis's memory.

Nothing on it shows a card or a token: the remote entrants' decisions are counts and
ages (``Store.open_ages``), never an id or an observation, and a failed job's error is
its type and scrubbed last line (``workers.overview``). Its answers are never cached.

Why not ``rq-dashboard``: it would need mounting behind the admin token, it loads its
scripts and styles in ways this CSP refuses (inline scripts, and in its releases Bootstrap
and jQuery from a CDN), it shows every job's arguments and whole traceback, and it
offers actions (empty a queue, delete jobs) that would break the supervisor's
bookkeeping; and it knows nothing of leases or remote entrants, which are most of
this page.

A blueprint of its own beside the API and the pages (as ``/metrics`` and the docs site
are), since it takes the API's admin check and its limit on failed authentications,
which the pages never import; it draws on the pages' ``base.html`` and stylesheets (``ops.css`` among them).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from server.arena.tournaments import waiting_for
from server.web.api.auth import is_admin
from server.web.api.ratelimit import count_failed_authentication
from server.web.context import arena
from server.web.limits import check_request
from server.web.ops import session as ops_session
from workers import overview

bp = Blueprint("ops", __name__, template_folder="templates")
bp.before_request(check_request)  # path and query strings within bounds, as on every page

FORMS = ops_session.PATH + "/"
"""The paths that take HTML forms (``application/x-www-form-urlencoded``), not JSON."""

NOTICES = {
    "requeued": "re-queued",
    "not failed": "not re-queued: it is no longer failed (re-queued already, or expired)",
}


def _private(body: str, status: int = 200) -> Response:
    response = Response(body, status=status, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def state() -> dict[str, Any]:
    """Everything the page shows, read now."""
    store = arena().store
    live = []
    for tid in store.active_tournaments():
        t = store.tournament(tid)
        remote = [{**w, "ages": store.open_ages(w["bot"])} for w in waiting_for(store, t)]
        live.append({"t": t, "lease": store.lease_holder(tid), "remote": remote})
    return {
        "queues": overview.queues(store.redis),
        "workers": overview.workers(store.redis),
        "failed": overview.failed_jobs(store.redis),
        "lead": store.lease_holder(),
        "live": live,
        "memory": overview.redis_memory(store.redis),
        "now": store.now(),
    }


@bp.get("/ops")
def ops_page() -> Response:
    value = ops_session.session()
    if value is None:
        return _private(render_template("ops_login.html", admin=bool(arena().config.admin_token)))
    notice = NOTICES.get(request.args.get("outcome", ""))
    job = request.args.get("job", "")[:200] if notice else ""
    page = render_template("ops.html", csrf=ops_session.csrf_token(value), notice=notice, job=job, **state())
    return _private(page)


@bp.post("/ops/login")
def ops_login() -> Response:
    if not arena().config.admin_token:
        return _private(render_template("ops_login.html", admin=False), 404)
    if not is_admin(request.form.get("token", "").strip()):
        count_failed_authentication()  # past the limit: the 429
        page = render_template("ops_login.html", admin=True, refused="That is not this arena's admin token.")
        return _private(page, 401)
    response = redirect(url_for("ops.ops_page"), 303)
    ops_session.open_session(response)
    return response


@bp.post("/ops/logout")
def ops_logout() -> Response:
    ops_session.require_form()
    response = redirect(url_for("ops.ops_page"), 303)
    ops_session.close_session(response)
    return response


@bp.post("/ops/jobs/<job_id>/requeue")
def ops_requeue(job_id: str) -> Response:
    ops_session.require_form()
    outcome = overview.requeue(arena().store, job_id)
    return redirect(url_for("ops.ops_page", outcome=outcome, job=job_id), 303)
