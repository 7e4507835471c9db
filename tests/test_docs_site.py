"""The documentation site: `mkdocs build --strict` passes, and the built site loads nothing
from another host (it is served offline), and the rules' section map points at real anchors."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from support.browser import chromium_page

# One process runs the module (./dev test --dist loadgroup): its module-scoped site is built once.
pytestmark = pytest.mark.xdist_group("docs_site")

ROOT = Path(__file__).resolve().parent.parent

if not os.environ.get("CI"):  # in CI the test extra installs mkdocs: a missing one must fail there
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")

# A tag that makes the browser fetch a script, a style sheet, a font or an icon from elsewhere.
EXTERNAL_TAG = re.compile(r"<(script|link|img|iframe)\b[^>]*?\b(src|href)\s*=\s*[\"']?(https?:)?//", re.I)
EXTERNAL_CSS = re.compile(r"(@import\s+(url\()?|url\()\s*[\"']?(https?:)?//", re.I)
FONT_HOSTS = re.compile(r"fonts\.(googleapis|gstatic)\.com", re.I)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--clean",
            "-f",
            str(ROOT / "mkdocs.yml"),
            "-d",
            str(out),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stdout + run.stderr, run.stdout + run.stderr
    return out


def test_build_is_strict_and_complete(site: Path) -> None:
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    for page in ("index.html", "rules/index.html", "rules/american62.html", "rules/rulings.html", "glossary.html"):
        assert page in pages
    for md in (ROOT / "docs" / "rules").glob("*.md"):
        assert f"rules/{md.stem}.html" in pages


def test_nothing_is_loaded_from_another_host(site: Path) -> None:
    bad = []
    for path in site.rglob("*"):
        if path.suffix not in {".html", ".css"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(site)
        if path.suffix == ".html":
            bad += [f"{rel}: {m.group(0)}" for m in EXTERNAL_TAG.finditer(text)]
            for style in re.findall(r"<style\b[^>]*>(.*?)</style>", text, re.S | re.I):
                bad += [f"{rel}: {m.group(0)}" for m in EXTERNAL_CSS.finditer(style)]
        else:
            bad += [f"{rel}: {m.group(0)}" for m in EXTERNAL_CSS.finditer(text)]
        bad += [f"{rel}: {m.group(0)}" for m in FONT_HOSTS.finditer(text)]
    assert not bad, "\n".join(bad[:20])


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_a_browser_loads_nothing_from_another_host(site: Path) -> None:
    """What the tags above cannot show: the theme's scripts (search, its worker, icons) fetch
    only from the site's own host, on the start page, a rules page and a search."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with chromium_page() as (page, requested):
            for path in ("/index.html", "/rules/american62.html"):
                assert page.goto(base + path, wait_until="networkidle").status == 200
            page.keyboard.press("/")  # the theme's search shortcut: loads the index and its worker
            page.keyboard.type("pedro")
            page.wait_for_selector(".md-search-result__item", timeout=10_000)
    finally:
        server.shutdown()
        server.server_close()
    assert any(url.endswith("search_index.json") for url in requested)
    elsewhere = [url for url in requested if not url.startswith((base + "/", "data:", "blob:"))]
    assert not elsewhere, elsewhere


def cite_rules():
    spec = importlib.util.spec_from_file_location("cite_rules", ROOT / "tools" / "cite_rules.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_section_map_points_at_real_anchors() -> None:
    tool = cite_rules()
    assert tool.check_map() == []
    # docs/rules/sections.md is the tool's map, printed: the two must not drift apart
    assert tool.markdown() in (ROOT / "docs" / "rules" / "sections.md").read_text(encoding="utf-8")


def test_citation_rewrite_is_idempotent() -> None:
    tool = cite_rules()
    text = "# RULES.md section 6, RULES-family 11.2 and 12.5; RULES.md 3-4; RULES-family F2."
    once, changes = tool.rewrite(text)
    assert once == (
        "# docs/rules/actions.md#wire-format, docs/rules/progressive.md#base, docs/rules/duplicate.md#net; "
        "docs/rules/american62.md, docs/rules/foster51.md; docs/rules/common.md#cards."
    )
    assert len(changes) == 4
    assert tool.rewrite(once) == (once, [])


def test_readme_is_a_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    assert "./dev start" in readme and "./dev test" in readme
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme):
        if not target.startswith(("http://", "https://")):
            assert (ROOT / target).exists(), f"README links to {target}, which is not in the repository"


def test_code_cites_the_docs_not_section_numbers() -> None:
    """Every rules citation in the code points into docs/rules/. A module merged with an old
    citation (``RULES-family 11.2``) fails here until ``python tools/cite_rules.py`` is run."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "cite_rules.py"), "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, "run `python tools/cite_rules.py`:\n" + run.stdout
