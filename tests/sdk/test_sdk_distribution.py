"""The SDK installed alone (``pip install ./sdk``: cinch-arena-sdk) into a fresh venv: none
of the arena comes with it, ``import sdk`` and ``cinch-bot`` work, and a bot made by
``cinch-bot new`` plays a tournament through a real server under that venv's ``cinch-bot run``.
"""

import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

import sdk

# One process runs the module (./dev test --dist loadgroup): its module-scoped fixture is built once.
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("sdk_distribution")]

ROOT = Path(__file__).resolve().parents[2]


def clean_env() -> dict[str, str]:
    """The environment without anything that would show the venv the checkout's packages."""
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "REDIS_URL", "CINCH_TOKEN", "CINCH_ADMIN_TOKEN")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    return env


@pytest.fixture(scope="module")
def sdk_venv(tmp_path_factory):
    """A venv with the SDK installed from a copy of ./sdk (so the build leaves nothing in the checkout)."""
    base = tmp_path_factory.mktemp("sdk-dist")
    source = base / "sdk"
    shutil.copytree(ROOT / "sdk", source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    install = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        env=clean_env(),
        cwd=base,
    )
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-3000:]
    return venv


def run_in(venv: Path, *args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(venv / "bin" / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=clean_env(),
    )


def test_the_sdk_installs_alone_and_imports_as_sdk(sdk_venv, tmp_path):
    for module in ("flask", "redis", "rq", "gevent", "gunicorn", "tqdm", "server", "workers"):
        found = run_in(sdk_venv, "python", "-c", f"import {module}", cwd=tmp_path)
        assert found.returncode != 0 and "ModuleNotFoundError" in found.stderr, (module, found.stderr)
    where = run_in(
        sdk_venv, "python", "-c", "import sdk; from sdk import Bot; print(sdk.__file__, sdk.__version__)", cwd=tmp_path
    )
    assert where.returncode == 0, where.stderr
    path, version = where.stdout.split()
    assert Path(path).is_relative_to(sdk_venv) and version == sdk.__version__
    meta = tomllib.loads((ROOT / "sdk" / "pyproject.toml").read_text())["project"]
    assert meta["name"] == "cinch-arena-sdk" and meta["version"] == sdk.__version__
    assert [re.split(r"[<>=!~ \[]", d)[0] for d in meta["dependencies"]] == ["requests"]
    helped = run_in(sdk_venv, "cinch-bot", "run", "--help", cwd=tmp_path)
    assert helped.returncode == 0 and "--cmd COMMAND" in helped.stdout and "--token-file" in helped.stdout


def test_a_new_bot_plays_through_a_real_server_with_the_venvs_cinch_bot(sdk_venv, server, rq_workers, admin, tmp_path):
    made = run_in(sdk_venv, "cinch-bot", "new", "solo_bot", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    # the generated test skips with the SDK alone (it needs the arena's engine), saying why
    assert "importorskip" in (tmp_path / "test_solo_bot.py").read_text()
    token = tmp_path / "solo.token"
    token.write_text(admin.register_bot("solo-bot").token + "\n")
    token.chmod(0o600)
    log = tmp_path / "solo.log"
    with open(log, "wb") as out:
        bot = subprocess.Popen(
            [
                str(sdk_venv / "bin" / "cinch-bot"),
                "run",
                "solo_bot.py:SoloBot",
                "--server",
                server.url,
                "--token-file",
                str(token),
                "--until-done",
                "--progress",
                "0.5",
                "--wait",
                "5",
            ],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**clean_env(), "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while "no tournaments yet" not in log.read_text(errors="replace"):
            assert bot.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.1)
        tid = admin.create_tournament(["solo-bot", "random"], boards=2)
        assert bot.wait(timeout=150) == 0, log.read_text(errors="replace")[-3000:]
    finally:
        if bot.poll() is None:
            os.killpg(bot.pid, 9)
            bot.wait(timeout=10)
    text = log.read_text(errors="replace")
    assert admin.tournament(tid).is_finished
    assert re.search(r"solo-bot: [1-9]\d* answered, 0 defaulted, 0 missed", text), text[-3000:]
    assert "Traceback" not in text
