"""``cinch docs build``: a site where it was asked for, and a failed build as a message and
exit 2 with mkdocs's own output, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.cli import docs_cmd, main
from server.config import Config

if not os.environ.get("CI"):  # in CI the test extra installs mkdocs: a missing one must fail there
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")


def checkout(root: Path, index: str) -> Path:
    """A checkout of two files: a strict mkdocs.yml and one page."""
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text(index)
    (root / "mkdocs.yml").write_text("site_name: t\ndocs_dir: docs\nvalidation:\n  links:\n    not_found: warn\n")
    return root


def test_out_builds_elsewhere_and_says_how_to_serve_it(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(docs_cmd, "CHECKOUT", checkout(tmp_path / "repo", "# Hello\n"))
    out = tmp_path / "out"
    assert main(["docs", "build", "--out", str(out)], config=Config(home=tmp_path / "home")) == 0
    assert "Hello" in (out / "index.html").read_text()
    printed = capsys.readouterr().out
    assert f"CINCH_DOCS_DIR={out}" in printed and not (tmp_path / "home" / "site").exists()


def test_a_broken_link_fails_the_build_with_exit_2(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(docs_cmd, "CHECKOUT", checkout(tmp_path / "repo", "[gone](missing.md)\n"))
    assert main(["docs", "build"], config=Config(home=tmp_path / "home")) == 2
    err = capsys.readouterr().err
    assert "missing.md" in err and "cinch docs: mkdocs build --strict failed" in err
    assert "Traceback" not in err


def test_outside_a_checkout_it_says_so(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(docs_cmd, "CHECKOUT", tmp_path)
    assert main(["docs", "build"], config=Config(home=tmp_path / "home")) == 2
    assert "built from a checkout of the repository" in capsys.readouterr().err
