"""``cinch docs build [--out DIR]``: build the docs site that ``cinch serve`` serves at ``/docs/``.

mkdocs is the ``docs`` extra, not a runtime dependency: an arena serves its API without it,
and this command is how a checkout turns ``docs/`` into the site once. It writes to the
directory the app reads (``Config.docs_site``: ``CINCH_DOCS_DIR``, else ``site/`` under
``CINCH_HOME``), so ``cinch docs build`` then ``cinch serve`` works from any working
directory; ``--out`` builds elsewhere (set ``CINCH_DOCS_DIR`` to serve that). The build is
``--strict``: a broken link or anchor fails it rather than shipping a page that 404s.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from server.cli.errors import UsageError

CHECKOUT = Path(__file__).resolve().parents[2]
"""The repository the package runs from: mkdocs.yml and docs/ exist only in a checkout."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("docs", help="build the docs site that `cinch serve` serves at /docs/")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    build = actions.add_parser(
        "build",
        help="mkdocs build --strict into the served directory",
        description="Build docs/ with mkdocs (the docs extra) into --out, by default $CINCH_DOCS_DIR, "
        "else CINCH_HOME/site: the directory `cinch serve` serves at /docs/.",
    )
    build.add_argument("--out", type=Path, help="the site's directory (default: $CINCH_DOCS_DIR, else CINCH_HOME/site)")
    build.set_defaults(run=run_build)


def mkdocs_command(out: Path, config_file: Path) -> list[str]:
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-f", str(config_file), "-d", str(out)]


def run_build(args: argparse.Namespace) -> int:
    out = args.out.expanduser().resolve() if args.out else args.config.docs_site
    config_file = CHECKOUT / "mkdocs.yml"
    if not config_file.exists():
        raise UsageError(f"no {config_file}: the docs are built from a checkout of the repository")
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        raise UsageError('mkdocs is not installed: pip install -e ".[docs]" (in the checkout)')
    out.parent.mkdir(parents=True, exist_ok=True)
    run = subprocess.run(
        mkdocs_command(out, config_file),
        cwd=CHECKOUT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.stderr.write(run.stdout + run.stderr)
        raise UsageError(f"mkdocs build --strict failed (exit {run.returncode}); its output is above")
    pages = sum(1 for _ in out.rglob("*.html"))
    print(f"built {pages} pages into {out}; `cinch serve` serves them at /docs/")
    if args.out and out != args.config.docs_site:
        print(f"(cinch serve reads {args.config.docs_site}: set CINCH_DOCS_DIR={out} to serve this one)")
    return 0
