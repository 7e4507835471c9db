"""Every setting the arena's processes take from the environment, read and checked once.

The API (``server.web.wsgi``), the CLI (``server.cli.main``) and the supervisor
(``python -m workers.supervisor``) each build one ``Config`` at start-up with
``Config.from_env()`` and hand it down; no other module reads the environment, so a
setting has one name, one default and one check, and a bad value stops the process at
once with a message naming the variable (``ConfigError``), not a 500 an hour later.

This module imports nothing of the project, so every layer may import it. The settings
page (docs/settings.md) is generated from the fields below: ``python -m server.config
--markdown``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LOCAL_REDIS = "redis://127.0.0.1:6379/0"
"""The Redis a service process uses when ``REDIS_URL`` is unset."""

REGISTRATION_POLICIES = ("open", "closed", "invite")
LOG_FORMATS = ("auto", "json", "text")


def masked(url: str) -> str:
    """A Redis URL as it may be shown or logged: its password (and user) replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return url
    credentials, host = rest.split("@", 1)
    return f"{scheme}://***@{host}"


class ConfigError(ValueError):
    """A setting the arena cannot run with; the message names its environment variable."""


def setting(
    env: str, default: Any, why: str, shown: str | None = None, factory: Callable[[], Any] | None = None
) -> Any:
    """A field read from ``env``: ``why`` is its line in docs/settings.md, ``shown`` its
    default as the page writes it when the value itself would be machine-specific."""
    metadata = {"env": env, "why": why, "shown": shown}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def _default_home() -> Path:
    return (Path.home() / ".cinch").resolve()


@dataclass(frozen=True)
class Config:
    # ------------------------------------------------------------------ Redis and the job queue
    redis_url: str | None = setting(
        "REDIS_URL",
        None,
        "The arena's Redis. Unset, every `cinch` command starts an embedded one under CINCH_HOME, "
        f"and the API and supervisor use {LOCAL_REDIS}.",
    )
    prefix: str = setting(
        "CINCH_PREFIX", "cinch", "Starts every Redis key, so several arenas (and test runs) share one Redis."
    )
    queue: str = setting(
        "CINCH_QUEUE", "cinch", "The RQ queue of board jobs: the API, the supervisor and the workers must agree on it."
    )
    redis_connections: int = setting(
        "CINCH_REDIS_CONNECTIONS",
        100,
        "Redis connections per API process; a command waits up to 5 s for a free one, then answers 503.",
    )
    # ------------------------------------------------------------------ the API
    bind: str = setting("CINCH_BIND", "127.0.0.1:8000", "Where `cinch serve` listens (host:port); --bind overrides it.")
    admin_token: str | None = setting(
        "CINCH_ADMIN_TOKEN",
        None,
        "The admin's bearer token (creates tournaments, registers bots when registration is closed). "
        "Unset, the API has no admin and `cinch serve` makes one up and prints it.",
    )
    long_polls: int = setting(
        "CINCH_LONG_POLLS",
        1000,
        "Long-polls waiting at once in one API process; below gunicorn's 1,100 worker connections "
        "(`cinch serve --connections`), so answers and other calls always find a free slot.",
    )
    registration: str = setting(
        "CINCH_REGISTRATION",
        "open",
        "Who may register a bot: open (anyone), closed (the admin registers bots) or invite (with CINCH_INVITE_CODE).",
    )
    invite_code: str | None = setting(
        "CINCH_INVITE_CODE",
        None,
        "The code a bot sends as `invite` to register; needed with CINCH_REGISTRATION=invite.",
    )
    limit_failed_auth: str = setting(
        "CINCH_LIMIT_FAILED_AUTH",
        "20/minute",
        "Refused tokens per client address before the 401s turn into 429s (a brute-force brake).",
    )
    limit_registrations: str = setting(
        "CINCH_LIMIT_REGISTRATIONS", "10/hour", "Registrations per client address, refused ones included."
    )
    limit_empty_polls: str = setting(
        "CINCH_LIMIT_EMPTY_POLLS",
        "5/second",
        "Long-polls that find nothing, per token: slows a client polling in a busy loop, never a bot in play.",
    )
    # ------------------------------------------------------------------ casual tables
    table_max_decision_ms: int = setting(
        "CINCH_TABLE_MAX_DECISION_MS", 10_000, "The longest per-decision time limit a table may set."
    )
    table_max_bank_ms: int = setting(
        "CINCH_TABLE_MAX_BANK_MS",
        60_000,
        "The largest time bank a table may set: a slow table holds a worker as long as its bots think.",
    )
    table_max_per_bot: int = setting(
        "CINCH_TABLE_MAX_PER_BOT", 3, "Live (open or running) tables a remote bot may create or sit at."
    )
    table_max_live: int = setting(
        "CINCH_TABLE_MAX_LIVE", 50, "Live tables in the whole arena, so tables never starve tournaments of workers."
    )
    # ------------------------------------------------------------------ files and clients
    deals_dir: Path | None = setting(
        "CINCH_DEALS_DIR",
        None,
        "Where a deal set named without a path (`standard`) is looked up. Unset: the sets shipped in deals/.",
    )
    home: Path = setting(
        "CINCH_HOME",
        None,
        "The embedded Redis's directory (its socket, locks and arena.rdb), shared by every command on it.",
        shown="~/.cinch",
        factory=_default_home,
    )
    docs_dir: Path | None = setting(
        "CINCH_DOCS_DIR",
        None,
        "The built docs site `cinch serve` serves at /docs/ (`cinch docs build` writes it there). "
        "Unset: site/ under CINCH_HOME, beside the arena it documents, whatever the working directory.",
        shown="CINCH_HOME/site",
    )

    # ------------------------------------------------------------------ metrics and logs
    log_format: str = setting(
        "CINCH_LOG_FORMAT",
        "auto",
        "How every process logs to stderr: json (one object a line, with request, tournament and match ids), "
        "text (one readable line), or auto: text on a terminal, json otherwise (a service manager, a pipe, a file).",
    )
    metrics_dir: Path | None = setting(
        "PROMETHEUS_MULTIPROC_DIR",
        None,
        "Where the processes of one arena on this machine write their metrics for `GET /metrics` to add up "
        "(prometheus-client's multiprocess mode). `cinch serve` sets a fresh private one per run and removes it; "
        "set it yourself only for processes you start beside it (`cinch worker`), to the one it prints.",
    )

    # ------------------------------------------------------------------ building
    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, overrides: Mapping[str, Any] | None = None) -> Config:
        """The configuration the environment describes (``os.environ`` by default), with
        ``overrides`` on top: keyed by variable name (``CINCH_PREFIX``) or by field name in
        capitals (``ADMIN_TOKEN``), as the app factory's tests pass them. An empty value
        counts as unset. Raises ``ConfigError`` naming the first bad variable."""
        environ = os.environ if environ is None else environ
        given: dict[str, str | None] = {
            f.metadata["env"]: environ[f.metadata["env"]] for f in _fields() if environ.get(f.metadata["env"])
        }
        for key, value in (overrides or {}).items():
            env = cls.variable(key)
            if env is None:
                raise ConfigError(f"{key} is not an arena setting")
            given[env] = None if value is None else str(value)
        values = {f.name: _parse(f, text) for f in _fields() if (text := given.get(f.metadata["env"]))}
        return cls(**values)

    @classmethod
    def variable(cls, key: str) -> str | None:
        """The environment variable ``key`` names (itself, or a field's name in capitals), or None."""
        for f in _fields():
            env: str = f.metadata["env"]
            if key in (env, f.name.upper()):
                return env
        return None

    def __post_init__(self) -> None:
        for f in _fields():
            value = getattr(self, f.name)
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ConfigError(f"{f.metadata['env']} must be a whole number above 0, not {value!r}")
            if f.type == "str" and not value:
                raise ConfigError(f"{f.metadata['env']} must not be empty")
        if self.registration not in REGISTRATION_POLICIES:
            raise ConfigError(f"CINCH_REGISTRATION must be open, closed or invite, not {self.registration!r}")
        if self.registration == "invite" and not self.invite_code:
            raise ConfigError("CINCH_REGISTRATION=invite needs CINCH_INVITE_CODE")
        for name in ("limit_failed_auth", "limit_registrations", "limit_empty_polls"):
            _check_rate(_field(name).metadata["env"], getattr(self, name))
        if self.log_format not in LOG_FORMATS:
            raise ConfigError(f"CINCH_LOG_FORMAT must be auto, json or text, not {self.log_format!r}")
        if self.metrics_dir is not None and not self.metrics_dir.is_dir():
            raise ConfigError(f"PROMETHEUS_MULTIPROC_DIR must be an existing directory, not {str(self.metrics_dir)!r}")
        host, _, port = self.bind.rpartition(":")
        if not host or not port.isdigit():
            raise ConfigError(f"CINCH_BIND must be host:port, not {self.bind!r}")

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)

    # ------------------------------------------------------------------ reading
    @property
    def service_redis_url(self) -> str:
        """The Redis a service process (the API, the supervisor) uses."""
        return self.redis_url or LOCAL_REDIS

    @property
    def docs_site(self) -> Path:
        """Where the built docs site is: the one answer for ``cinch docs build`` and the app."""
        return self.docs_dir or self.home / "site"

    def environ(self) -> dict[str, str]:
        """The settings as environment variables, for a child process that builds its own
        ``Config`` (gunicorn's API processes, the supervisor): every one that has a value."""
        return {f.metadata["env"]: str(getattr(self, f.name)) for f in _fields() if getattr(self, f.name) is not None}


def _fields() -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(Config)


def _field(name: str) -> dataclasses.Field[Any]:
    return next(f for f in _fields() if f.name == name)


def _parse(f: dataclasses.Field[Any], text: str) -> Any:
    """A variable's text as the field's type (the dataclass then checks its range)."""
    if f.type == "int":
        try:
            return int(text)
        except ValueError:
            raise ConfigError(f"{f.metadata['env']} must be a whole number, not {text!r}") from None
    if "Path" in f.type:
        return Path(text).expanduser().resolve()
    return text


def _check_rate(env: str, text: str) -> None:
    """A rate limit in the ``limits`` library's notation (``20/minute``, ``5 per second``)."""
    from limits import parse_many  # flask-limiter's own parser; imported only to check

    try:
        parse_many(text)
    except ValueError:
        raise ConfigError(f"{env} must be a rate such as 20/minute or 5/second, not {text!r}") from None


# ---------------------------------------------------------------------- the settings page
def markdown() -> str:
    """docs/settings.md: every setting, its variable, default and why (a test keeps the page equal to this)."""
    lines = [
        "# Settings",
        "",
        "Every process of the arena reads these environment variables once, at start-up, into one",
        "`server.config.Config`, and refuses to start on a bad value with a message naming the variable.",
        "An empty value counts as unset. This page is generated: `python -m server.config --markdown > docs/settings.md`.",
        "",
        "A bot's side reads its own: `CINCH_SERVER` and `CINCH_TOKEN` (the SDK, `cinch bot run`), and",
        "`CINCH_ADMIN_TOKEN` for `cinch remote` commands that need the admin.",
        "",
        "| Variable | Default | Why |",
        "| --- | --- | --- |",
    ]
    for f in _fields():
        if f.metadata["shown"] is not None:
            default = f.metadata["shown"]
        else:
            default = "unset" if f.default is None else str(f.default)
        lines.append(f"| `{f.metadata['env']}` | `{default}` | {f.metadata['why']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.config", description="The arena's settings page.")
    parser.add_argument("--markdown", action="store_true", required=True, help="print docs/settings.md")
    parser.parse_args(argv)
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
