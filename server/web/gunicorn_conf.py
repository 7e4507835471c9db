"""Gunicorn's configuration for the arena (``gunicorn -c python:server.web.gunicorn_conf``,
given by ``server.cli.serve_cmd.gunicorn_command``): its logs and its metrics.

* Gunicorn's own lines (workers booting, timing out, exiting) go through the arena's
  handler (``server.logs``): JSON lines on stderr, or text, as ``CINCH_LOG_FORMAT`` says.
  There is no access log: every response is counted (``cinch_http_responses``) and every
  refusal logged by the app with its request id.
* A process that exits is marked dead for prometheus-client's multiprocess mode, so the
  open long-polls it held (a ``livesum`` gauge) leave the sum.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from server import logs
from server.config import Config

_config = Config.from_env()


class ArenaLogger(Logger):
    """Gunicorn's error log through the arena's handler."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        logs.configure(_config.log_format)
        for handler in list(self.error_log.handlers):
            self.error_log.removeHandler(handler)
        self.error_log.addHandler(logs.handler(_config.log_format))


logger_class = ArenaLogger


def child_exit(server: Any, worker: Any) -> None:
    if _config.metrics_dir is not None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid, str(_config.metrics_dir))
