"""HTTP behaviour: ETags and 304s, gzip, security headers, and the request log."""

from __future__ import annotations

import logging

import pytest
from starlette.testclient import TestClient
from test_api import error_id
from web_samples import Catalog

from errdex.web.responses import etag


@pytest.fixture
def error_path(catalog: Catalog) -> str:
    return f"/errors/{error_id(catalog, 'count must be positive')}"


@pytest.mark.parametrize("api", ["", "/api"])
def test_an_error_revalidates_to_304(client: TestClient, error_path: str, api: str) -> None:
    first = client.get(api + error_path)
    tag = first.headers["etag"]
    assert tag.startswith('W/"') and "max-age" in first.headers["cache-control"]
    again = client.get(api + error_path, headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == tag
    listed = client.get(api + error_path, headers={"If-None-Match": f'"other", {tag}'})
    assert listed.status_code == 304
    stale = client.get(api + error_path, headers={"If-None-Match": 'W/"stale"'})
    assert stale.status_code == 200 and stale.content == first.content


def test_tags_differ_by_version_and_face(client: TestClient, error_path: str) -> None:
    tags = {
        client.get(error_path).headers["etag"],
        client.get(error_path, params={"version": "1.0"}).headers["etag"],
        client.get("/api" + error_path).headers["etag"],
        client.get("/api" + error_path, params={"version": "1.0"}).headers["etag"],
    }
    assert len(tags) == 4
    assert client.get(error_path).headers["etag"] == client.get(error_path).headers["etag"]


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/api/projects",
        "/projects/shop",
        "/api/projects/shop",
        "/projects/shop/1.1/files/shop/cart.py",
        "/api/search?q=count+must+be+positive%2C+got+1",
    ],
)
def test_catalog_pages_revalidate_too(client: TestClient, path: str) -> None:
    tag = client.get(path).headers["etag"]
    assert client.get(path, headers={"If-None-Match": tag}).status_code == 304


def test_tags_are_weak_hashes_of_their_parts() -> None:
    assert etag("a", 1) == etag("a", 1) != etag("a", 2)
    assert etag(("x", None)) == etag(["x", None])


def test_gzip_when_asked(client: TestClient, error_path: str) -> None:
    zipped = client.get(error_path, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert "<h2>What it means</h2>" in zipped.text  # the client unzipped it
    plain = client.get(error_path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.text == zipped.text


def test_every_response_forbids_scripts(client: TestClient, error_path: str) -> None:
    for path in ("/", error_path, "/api/projects", "/nope", "/static/style.css"):
        headers = client.get(path).headers
        assert "script-src" not in headers["content-security-policy"]  # default-src 'none'
        assert headers["content-security-policy"].startswith("default-src 'none'")
        assert headers["x-content-type-options"] == "nosniff"


def test_one_log_line_per_request_without_the_paste(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="errdex.web"):
        client.get("/api/search", params={"q": "secret token abc123 failed"})
        client.get("/api/errors/0123456789abcdef")
    lines = [r.getMessage() for r in caplog.records if r.name == "errdex.web"]
    assert len(lines) == 2
    assert " GET /api/search?[" in lines[0] and " 200 " in lines[0]
    assert "secret" not in lines[0]
    assert " GET /api/errors/0123456789abcdef 404 " in lines[1]
