"""Property-based testing of every operation in the OpenAPI document with every check
schemathesis has, in all four phases (the document's examples, coverage, fuzzing, and
the stateful phase, which follows the document's links from one response to the next
request), once with a bot's token and once with the admin's, each on a throwaway
server: zero failures.

One check is off: ``positive_data_acceptance`` ("a schema-valid request was refused").
The document states rules that no JSON Schema can hold: a bot name must name a
registered bot, a round robin needs two of them, a table's limits must be within the
caps the admin configured. A schema-valid request that breaks one gets a 422 saying which
(the descriptions in the document say so too); that refusal is right, not a failure.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from support.apiclient import ADMIN

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

OFF = "positive_data_acceptance"


def schemathesis(api, token, tmp_path):
    run = subprocess.run(
        [
            str(Path(sys.executable).parent / "schemathesis"),
            "run",
            f"{api.base}/api/v1/openapi.json",
            "--checks",
            "all",
            "--exclude-checks",
            OFF,
            "--max-examples",
            "10",
            # a long-poll may rightly take its whole wait (up to 25 s)
            "--request-timeout",
            "30",
            "--max-response-time",
            "30",
            "-H",
            f"Authorization: Bearer {token}",
            "--generation-deterministic",
            "--warnings",
            "off",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    tail = run.stdout[-4000:]
    assert run.returncode == 0, tail
    operations = sum(
        1
        for item in api.call("GET", "/api/v1/openapi.json").json()["paths"].values()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    )
    assert f"Tested: {operations}" in run.stdout, tail
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅  {phase}" in run.stdout or f"✅ {phase}" in run.stdout, (phase, tail)
    return run.stdout


def test_every_check_with_a_bot_token(api, rq_workers, tmp_path):
    token = api.register("fuzzer")
    # A match waits on the fuzzer all along, so its long-polls answer at once and the link
    # from a decision to its answer has real decisions to follow.
    created = api.call(
        "POST",
        "/api/v1/tournaments",
        ADMIN,
        json={
            "format": "blind",
            "bots": ["fuzzer"],
            "references": ["rule"],
            "boards": 200,
            "limits": {"decision_ms": 600_000},
        },
    )
    assert created.status_code == 201, created.text
    out = schemathesis(api, token, tmp_path)
    assert "API Links:" in out


def test_every_check_with_the_admin_token(api, tmp_path):
    schemathesis(api, ADMIN, tmp_path)
