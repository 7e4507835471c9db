"""The arena's log lines (``server.logs``): JSON or text, the bound ids, nothing secret."""

import json
import logging
import sys

import pytest

from server import logs
from server.config import Config, ConfigError


def record(message, *args, exc_info=None):
    rec = logging.LogRecord("cinch.test", logging.WARNING, __file__, 1, message, args, exc_info)
    logs._Context().filter(rec)
    return rec


def test_a_json_line_carries_the_bound_fields_and_the_traceback():
    with logs.context(tournament="t1", match="t1.m2"):
        try:
            raise ZeroDivisionError("division by zero")
        except ZeroDivisionError:
            rec = record("board %d failed", 3, exc_info=sys.exc_info())
    line = json.loads(logs.JsonFormatter().format(rec))
    assert line["message"] == "board 3 failed" and line["level"] == "warning" and line["logger"] == "cinch.test"
    assert line["tournament"] == "t1" and line["match"] == "t1.m2"
    assert "ZeroDivisionError" in line["exc"] and line["time"].endswith("Z")
    assert "tournament" not in json.loads(logs.JsonFormatter().format(record("after")))  # unbound on leaving


def test_tokens_and_url_passwords_never_reach_a_line():
    rec = record("sent Authorization: Bearer s3cr3t-token to redis://:hunter2@redis:6379/0 and rediss://u:pw@h/1")
    for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
        text = formatter.format(rec)
        assert "s3cr3t-token" not in text and "hunter2" not in text and ":pw@" not in text
        assert "Bearer ***" in text and "redis://***@redis:6379/0" in text


def test_text_lines_end_with_the_bound_fields():
    with logs.context(request_id="abc12345"):
        text = logs.TextFormatter().format(record("refused"))
    assert text.endswith("cinch.test refused request_id=abc12345")


def test_configure_replaces_its_own_handler_only(capsys):
    root = logging.getLogger()
    before = [h for h in root.handlers if h.get_name() != "cinch"]  # an earlier test may have configured
    try:
        logs.configure("json")
        logs.configure("text")
        ours = [h for h in root.handlers if h.get_name() == "cinch"]
        assert len(ours) == 1 and isinstance(ours[0].formatter, logs.TextFormatter)
        assert [h for h in root.handlers if h.get_name() != "cinch"] == before
    finally:
        for h in [h for h in root.handlers if h.get_name() == "cinch"]:
            root.removeHandler(h)


def test_auto_is_text_on_a_terminal_and_json_otherwise(monkeypatch):
    """A person at a terminal reads lines; a service manager, a pipe or a file collects JSON."""
    for tty, kind in ((True, logs.TextFormatter), (False, logs.JsonFormatter)):
        monkeypatch.setattr(sys.stderr, "isatty", lambda tty=tty: tty)
        assert isinstance(logs.formatter("auto"), kind)


def test_the_log_format_is_a_checked_setting(tmp_path):
    assert Config.from_env({}).log_format == "auto"
    assert Config.from_env({"CINCH_LOG_FORMAT": "text"}).log_format == "text"
    with pytest.raises(ConfigError, match="CINCH_LOG_FORMAT"):
        Config.from_env({"CINCH_LOG_FORMAT": "xml"})
    with pytest.raises(ConfigError, match="PROMETHEUS_MULTIPROC_DIR"):
        Config.from_env({"PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "absent")})
    assert Config.from_env({"PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}).metrics_dir == tmp_path
