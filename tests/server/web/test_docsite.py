"""The docs site at /docs/: built by ``cinch docs build`` into the home, served from there by
the app, a page saying how to build it until then, and no file outside the site reachable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.cli import main
from server.config import Config
from server.web.app import create_app

# One process runs the module (./dev test --dist loadgroup): its module-scoped site is built once.
pytestmark = pytest.mark.xdist_group("docsite")

if not os.environ.get("CI"):  # in CI the test extra installs mkdocs: a missing one must fail there
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")

SECRET = "not-for-the-docs-site"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home whose site ``cinch docs build`` built with no --out, beside a file it must not serve."""
    home = tmp_path_factory.mktemp("home")
    assert main(["docs", "build"], config=Config(home=home)) == 0
    (home / "secret.txt").write_text(SECRET)
    return home


def client_for(redis_url, store, **settings):
    app = create_app(
        {"REDIS_URL": redis_url, "CINCH_PREFIX": store.prefix, "CINCH_QUEUE": store.queue_name, **settings}
    )
    return app.test_client()


def test_docs_build_writes_the_site_into_the_home(home: Path) -> None:
    assert (home / "site" / "index.html").is_file()
    assert (home / "site" / "rules" / "american62.html").is_file()


def test_the_built_site_is_served_at_docs(redis_url, store, home: Path) -> None:
    client = client_for(redis_url, store, CINCH_HOME=home)
    start = client.get("/docs/")
    assert start.status_code == 200 and start.mimetype == "text/html"
    assert "Cinch bot arena" in start.get_data(as_text=True)
    rules = client.get("/docs/rules/american62.html")
    assert rules.status_code == 200 and "american62" in rules.get_data(as_text=True)
    css = next((home / "site" / "assets" / "stylesheets").glob("main.*.css")).name
    assert client.get(f"/docs/assets/stylesheets/{css}").mimetype == "text/css"
    assert client.get("/docs/rules/").status_code == 200  # a folder answers its index.html
    assert client.get("/docs").status_code in (301, 308)  # to /docs/, so relative links resolve


def test_the_api_docs_stay_swagger_ui(redis_url, store, home: Path) -> None:
    page = client_for(redis_url, store, CINCH_HOME=home).get("/api/v1/docs/")
    assert page.status_code == 200 and "swagger" in page.get_data(as_text=True).lower()


@pytest.mark.parametrize(
    "path",
    [
        "/docs/../secret.txt",
        "/docs/%2e%2e/secret.txt",
        "/docs/..%2fsecret.txt",
        "/docs/rules/..%2f..%2fsecret.txt",
        "/docs/%2f" + "%2f".join(["..", "..", "etc", "passwd"]),
        "/docs//etc/passwd",
        "/docs/missing.html",
    ],
)
def test_nothing_outside_the_site_is_served(redis_url, store, home: Path, path: str) -> None:
    response = client_for(redis_url, store, CINCH_HOME=home).get(path, follow_redirects=True)  # merged slashes
    body = response.get_data(as_text=True)
    assert response.status_code == 404, path
    assert SECRET not in body and "root:" not in body


def test_an_unbuilt_site_answers_how_to_build_it(redis_url, store, tmp_path: Path) -> None:
    client = client_for(redis_url, store, CINCH_DOCS_DIR=tmp_path / "nowhere")
    for path in ("/docs/", "/docs/rules/american62.html"):
        response = client.get(path)
        text = response.get_data(as_text=True)
        assert response.status_code == 404 and response.mimetype == "text/html"
        assert "cinch docs build" in text and str(tmp_path / "nowhere") in text
