"""The contract as a bot author in another language meets it: generate a client from the
served OpenAPI document with openapi-python-client, type-check a bot written only with
it (``generated_bot.py``, mypy --strict, generated code included), and have it play a
tournament against ``random`` through a real server and RQ workers without a single
refused answer, then read its results."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.apiclient import ADMIN

pytestmark = pytest.mark.e2e

BOT = Path(__file__).parents[3] / "support" / "generated_bot.py"

# Strict for the bot and for every model and operation generated from the document. The
# generator's fixed client.py (the same for any document) passes ``*args: object`` to
# httpx's typed ``__exit__``, which mypy rejects whatever the document says; it is the
# one module let off.
MYPY = """[mypy]
strict = True

[mypy-arena_client.client]
ignore_errors = True
"""
BIN = Path(sys.executable).parent


def run(args, cwd, **env):
    done = subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **env},
    )
    assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
    return done


def test_a_bot_written_with_a_generated_client_plays_without_a_refusal(api, rq_workers, tmp_path):
    (tmp_path / "openapi.json").write_text(json.dumps(api.call("GET", "/api/v1/openapi.json").json()))
    (tmp_path / "config.yaml").write_text("package_name_override: arena_client\nproject_name_override: arena-client\n")
    generated = run(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path",
            "openapi.json",
            "--config",
            "config.yaml",
            "--meta",
            "none",
            "--output-path",
            "arena_client",
        ],
        tmp_path,
    )
    assert "Warning" not in generated.stdout + generated.stderr, generated.stdout[-3000:]
    assert (tmp_path / "arena_client" / "api" / "decisions" / "answer_decision.py").exists()

    (tmp_path / "mypy.ini").write_text(MYPY)
    run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", str(BOT)],
        tmp_path,
        MYPYPATH=str(tmp_path),
    )

    played = run([sys.executable, str(BOT), api.base, ADMIN, "typed-bot"], tmp_path, PYTHONPATH=str(tmp_path))
    report = json.loads(played.stdout.strip().splitlines()[-1])
    assert report["status"] == "finished" and report["refused"] == 0 and report["answered"] > 20, report
    assert sorted(row["bot"] for row in report["standings"]) == ["random", "typed-bot"]
    served = api.call("GET", f"/api/v1/tournaments/{report['tournament']}/results").json()
    assert report["standings"] == served["standings"]
