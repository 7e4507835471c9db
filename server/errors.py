"""The arena's one base error: what went wrong, as a user should read it, with the HTTP
status and problem type it is served as.

A domain error subclasses one of the kinds below, so the web layer maps every one of
them to ``application/problem+json`` in one place (``server.web.api.problems``) and a
handler lets it rise instead of catching it to call ``abort``; the CLI prints its message
and exits 2. This module imports nothing of the project, so every layer may raise these.
Each kind also keeps the builtin class its callers caught before (``ValueError``,
``KeyError``), so an ``except ValueError`` written earlier still catches it.
"""

from __future__ import annotations


class ArenaError(Exception):
    """A refusal the user can act on; ``str(error)`` is the detail a problem body carries."""

    status = 400
    """The HTTP status it is served as."""
    type = "bad-request"
    """The problem type's slug: a problem body's ``type`` is ``PROBLEM_TYPES + slug``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else self.type


PROBLEM_TYPES = "urn:cinch:problem:"
"""Problem types are URNs: they name a kind of refusal and resolve to no page."""


class InvalidRequest(ArenaError, ValueError):
    """A well-formed request the arena cannot carry out as asked (a format and a ruleset
    that do not go together, too many boards, a deal set that does not fit)."""

    status = 422
    type = "invalid-request"


class NotFound(ArenaError, KeyError):
    """An id that names nothing stored."""

    status = 404
    type = "not-found"


class Conflict(ArenaError, ValueError):
    """A request at odds with what is stored (a name taken, a tournament already finished)."""

    status = 409
    type = "conflict"
