"""The arena's logs: one configuration for every process, JSON lines on stderr by default.

Every module logs through ``logger(name)``, a logger under the one root ``cinch``
(``cinch.api``, ``cinch.worker``, ``cinch.jobs``, ``cinch.supervisor``...). Each process
entry point calls ``configure`` once: the API (``server.web.gunicorn_conf``, for gunicorn's
own lines too, and the app factory when it is served otherwise), the RQ worker
(``workers.worker``), the supervisor (``workers.supervisor``) and the CLI
(``server.cli.main``). ``CINCH_LOG_FORMAT`` picks ``json`` (one object a line: the
default, for a log collector) or ``text`` (one readable line, for a terminal).

A line carries what ``context`` binds for the code it runs: the API binds the request's
id (``request_id``) for the whole request, a job its ``tournament``, ``match`` and
``job``. A context variable holds them, so under gevent every greenlet (every request)
has its own.

Nothing secret reaches a line by accident: the formatter replaces a bearer token
(``Bearer ...``) and the password of a URL (``redis://:pw@host``) wherever they appear,
the exception text included. That is a safety net; the code logs neither, nor any card
of a hand (a fault is logged by its seat and the error's class).
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

ROOT = "cinch"
FORMATS = ("auto", "json", "text")

_NOTHING: Mapping[str, Any] = MappingProxyType({})
_context: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar("cinch_log_context", default=_NOTHING)

_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"',;]+")
_URL_PASSWORD = re.compile(r"(\w+://)[^/\s:@]*:[^/\s@]+@")


def logger(name: str) -> logging.Logger:
    """The logger of a part of the arena: ``cinch.<name>``."""
    return logging.getLogger(f"{ROOT}.{name}")


def bind(**fields: Any) -> contextvars.Token[Mapping[str, Any]]:
    """Add ``fields`` to every line logged from here on in this context; ``unbind`` the token after."""
    return _context.set({**_context.get(), **fields})


def unbind(token: contextvars.Token[Mapping[str, Any]]) -> None:
    _context.reset(token)


@contextmanager
def context(**fields: Any) -> Iterator[None]:
    """``fields`` on every line logged inside the block."""
    token = bind(**fields)
    try:
        yield
    finally:
        unbind(token)


def current() -> Mapping[str, Any]:
    """The fields bound now."""
    return _context.get()


def scrub(text: str) -> str:
    """``text`` without bearer tokens or URL passwords."""
    return _URL_PASSWORD.sub(r"\1***@", _BEARER.sub(r"\1***", text))


class _Context(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.cinch_context = dict(_context.get())
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the bound fields, and the
    traceback of an exception as ``exc``."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrub(record.getMessage()),
            "pid": record.process,
        }
        entry.update(getattr(record, "cinch_context", None) or {})
        if record.exc_info:
            entry["exc"] = scrub(self.formatException(record.exc_info))
        elif record.exc_text:
            entry["exc"] = scrub(record.exc_text)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """A readable line: time, level, logger, message, then the bound fields as key=value."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = getattr(record, "cinch_context", None) or {}
        if fields:
            first, _, rest = line.partition("\n")
            line = first + " " + " ".join(f"{k}={v}" for k, v in fields.items()) + (f"\n{rest}" if rest else "")
        return scrub(line)


def formatter(fmt: str) -> logging.Formatter:
    """``auto``: text for a person at a terminal, JSON for whatever collects the lines."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be auto, json or text, not {fmt!r}")
    if fmt == "auto":
        fmt = "text" if sys.stderr.isatty() else "json"
    return JsonFormatter() if fmt == "json" else TextFormatter()


class _Stderr(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is when a line is logged (as logging's last resort
    does), so a handler made under a test's captured stderr never writes to a closed one."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def handler(fmt: str) -> logging.Handler:
    """The arena's handler: stderr, in ``fmt``, with the bound fields."""
    h = _Stderr()
    h.setFormatter(formatter(fmt))
    h.addFilter(_Context())
    h.set_name("cinch")
    return h


def configure(fmt: str = "json", level: str | int = "INFO") -> None:
    """Send every log line of this process to stderr in ``fmt`` (json or text): the
    arena's own (``cinch.*``) from ``level`` up, other libraries' from WARNING up. Called
    again, it replaces the handler it added (the format may have changed), nothing else."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "cinch"]:
        root.removeHandler(old)
    root.addHandler(handler(fmt))
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    logging.getLogger(ROOT).setLevel(level)
