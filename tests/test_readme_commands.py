"""The commands the README and the docs show work as written: every block marked runnable runs.

A block is runnable when the line before its opening fence is ``<!-- runnable -->`` (hidden
on GitHub and on the site). Each runs as one bash script (``-e -o pipefail``: every command
must succeed) with a fresh, empty ``HOME`` and no ``REDIS_URL`` or ``CINCH_*`` variable, so
``cinch`` starts its own embedded Redis under ``~/.cinch`` as on a new machine, with the
checkout's ``.venv/bin`` first on ``PATH``. The working directory is a scratch folder holding
links to the checkout's top-level files and folders: a block reads ``deals/`` and
``examples/`` as it would in a clone and its own files stay in the scratch folder. The
contract is the exit status; docs/testing.md#commands-that-run says how to mark a block.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.cliharness import redis_servers

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- runnable -->"
FENCE = re.compile(r"^(\s*)(```+|~~~+)")
SKIPPED_LINKS = {".git", ".venv", "site", "build", "dist"}


@dataclass(frozen=True)
class Block:
    where: str  # path:line of the marker
    script: str


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def runnable_blocks(path: Path) -> list[Block]:
    """Every marked block of one Markdown file; a marker not followed by a fence is an error."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rel = path.relative_to(ROOT).as_posix()
    blocks = []
    for number, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        opening = next((i for i in range(number + 1, len(lines)) if lines[i].strip()), None)
        fence = FENCE.match(lines[opening]) if opening is not None else None
        assert fence, f"{rel}:{number + 1}: {MARKER} must come right before a fenced block"
        indent, mark = fence.groups()
        body = []
        for text in lines[opening + 1 :]:
            if text.strip().startswith(mark[0] * len(mark)) and not text.strip().strip(mark[0]):
                break
            body.append(text[len(indent) :] if text.startswith(indent) else text)
        else:
            raise AssertionError(f"{rel}:{opening + 1}: the fenced block is never closed")
        blocks.append(Block(f"{rel}:{number + 1}", "\n".join(body) + "\n"))
    return blocks


BLOCKS = [block for path in documents() for block in runnable_blocks(path)]


def test_the_readme_and_the_docs_mark_blocks_runnable() -> None:
    """The marker is easy to lose in an edit: the README and the docs keep theirs."""
    files = {block.where.split(":")[0] for block in BLOCKS}
    assert "README.md" in files
    assert len(BLOCKS) >= 6, [block.where for block in BLOCKS]


def scratch(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in SKIPPED_LINKS and not entry.name.startswith((".pytest", ".hypothesis")):
            (work / entry.name).symlink_to(entry)
    return work


def block_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("CINCH_")}
    env["HOME"] = str(home)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


@pytest.mark.e2e
@pytest.mark.parametrize("block", BLOCKS, ids=[block.where for block in BLOCKS])
def test_a_runnable_block_runs_as_written(block: Block, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    run = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", block.script],
        cwd=scratch(tmp_path),
        env=block_env(home),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, f"{block.where} exited {run.returncode}:\n{block.script}\n{run.stdout}\n{run.stderr}"
    assert not redis_servers(home / ".cinch"), f"{block.where} left its embedded Redis running"
