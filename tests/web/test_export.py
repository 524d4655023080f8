"""`errdex export`: the static catalog, read back through a plain static file server (at a
prefix, as a project's docs site would host it) and in a real Chromium from `file://`."""

from __future__ import annotations

import html
import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from click.testing import CliRunner
from web_samples import EVIL_PROJECT, Catalog, build_catalog

from errdex.cli import main

LINK = re.compile(r'\b(?:href|src)="([^"]*)"')


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return build_catalog(tmp_path_factory.mktemp("export"))


def export(catalog: Catalog, out: Path, *args: str) -> dict[str, object]:
    result = CliRunner().invoke(
        main, ["export", *args, "--out", str(out), "--db", catalog.db, "--json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def shop(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:  # type: ignore[type-arg]
    out = tmp_path_factory.mktemp("site") / "catalog"
    return out, export(catalog, out, "shop", "--base-url", "https://docs.example.org/errors")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def static_server(shop: tuple[Path, dict]) -> Iterator[str]:  # type: ignore[type-arg]
    """Python's own static file server over the folder that holds the export."""
    out, _ = shop
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(out.parent)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/{out.name}/"
    try:
        for _ in range(100):
            try:
                httpx.get(base, timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def crawl(start: str) -> tuple[set[str], list[tuple[str, str, int]]]:
    """Every address reachable from `start` by links; the broken ones (page, link, status)."""
    seen, broken, queue = {start}, [], [start]
    with httpx.Client(timeout=10) as client:
        while queue:
            page = queue.pop()
            response = client.get(page)
            if "html" not in response.headers.get("content-type", ""):
                continue
            for raw in LINK.findall(response.text):
                link = urljoin(page, html.unescape(raw)).partition("#")[0]
                if urlsplit(link).netloc != urlsplit(start).netloc or link in seen:
                    continue
                seen.add(link)
                status = client.get(link).status_code
                if status != 200:
                    broken.append((page, raw, status))
                else:
                    queue.append(link)
    return seen, broken


def test_every_error_page_its_json_and_the_index_are_written(shop: tuple[Path, dict]) -> None:  # type: ignore[type-arg]
    out, report = shop
    errors = report["errors"]
    assert isinstance(errors, list) and errors
    for error_id in errors:
        assert (out / "errors" / error_id / "index.html").is_file()
        twin = json.loads((out / "api" / "errors" / f"{error_id}.json").read_text())
        assert twin["id"] == error_id
        assert twin["version"] == "1.1"
    index = (out / "index.html").read_text()
    assert all(f'href="errors/{error_id}/index.html"' in index for error_id in errors)
    sitemap = (out / "sitemap.xml").read_text()
    assert f"<loc>https://docs.example.org/errors/errors/{errors[0]}/</loc>" in sitemap
    # Nothing of another project, and no form that needs the server.
    assert EVIL_PROJECT not in index
    assert "<form" not in (out / "errors" / errors[0] / "index.html").read_text()


def test_a_static_server_at_a_prefix_resolves_every_link(
    static_server: str,
    shop: tuple[Path, dict],  # type: ignore[type-arg]
) -> None:
    seen, broken = crawl(static_server + "index.html")
    assert broken == []
    _, report = shop
    errors = report["errors"]
    assert isinstance(errors, list)
    assert {static_server + f"errors/{e}/index.html" for e in errors} <= seen
    assert static_server + "static/style.css" in seen


def test_an_older_version_exports_its_own_pages(catalog: Catalog, tmp_path: Path) -> None:
    report = export(catalog, tmp_path / "old", "shop", "1.0")
    assert report["version"] == "1.0"
    errors = report["errors"]
    assert isinstance(errors, list)
    twin = json.loads((tmp_path / "old" / "api" / "errors" / f"{errors[0]}.json").read_text())
    assert twin["version"] == "1.0"


def test_bad_input_is_one_line(catalog: Catalog, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("mine")
    for args, code in (
        (["nope"], 1),
        (["shop", "9.9"], 1),
        (["shop"], 2),
    ):
        out = tmp_path / "full" if code == 2 else tmp_path / "new"
        result = CliRunner().invoke(main, ["export", *args, "--out", str(out), "--db", catalog.db])
        assert result.exit_code == code, result.stderr
        assert "Traceback" not in result.stderr
    assert (tmp_path / "full" / "x").read_text() == "mine"


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_a_browser_opens_the_export_from_file_and_follows_its_links(
    shop: tuple[Path, dict],  # type: ignore[type-arg]
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from test_browser import ARGS

    out, report = shop
    errors = report["errors"]
    assert isinstance(errors, list)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page()
            page.goto((out / "index.html").as_uri())
            assert "every error" in page.title()
            page.click(f'a[href="errors/{errors[0]}/index.html"]')
            assert page.url.endswith(f"/errors/{errors[0]}/index.html")
            assert page.locator("h1").count() >= 1
            # The stylesheet loads from its relative path.
            loaded = "[...document.styleSheets].filter(s => s.href.endsWith('style.css')).length"
            assert page.evaluate(loaded) == 1
            page.click("a.json-link")
            assert json.loads(page.locator("body").inner_text())["id"] == errors[0]
        finally:
            browser.close()
