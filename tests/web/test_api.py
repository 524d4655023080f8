"""The JSON API through the ASGI test client, on a real SQLite catalog."""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient
from web_samples import EVIL_PROJECT, Catalog

import errdex
from errdex.explain import build_page
from errdex.render.json import plain
from errdex.store import open_store


def error_id(catalog: Catalog, message_start: str, version: str = "1.1") -> str:
    with open_store(catalog.db) as store:
        for project in ("shop", EVIL_PROJECT):
            for record in store.versions(project):
                if record.label != version and project == "shop":
                    continue
                for site in store.list_sites(project=project, version=record.label):
                    message = site.site.message.text if site.site.message else ""
                    if message.startswith(message_start):
                        return site.id
    raise AssertionError(f"no site says {message_start!r}")


def test_projects_lists_every_project_with_its_newest_version(client: TestClient) -> None:
    body = client.get("/api/projects").json()
    by_name = {p["name"]: p for p in body["projects"]}
    assert set(by_name) == {"shop", EVIL_PROJECT}
    assert by_name["shop"]["versions"] == ["1.1", "1.0"]
    assert by_name["shop"]["newest"]["label"] == "1.1"
    assert by_name["shop"]["newest"]["errors"] == 4


def test_project_counts_by_kind_exception_and_file(client: TestClient) -> None:
    body = client.get("/api/projects/shop").json()
    assert body["version"] == "1.1"
    assert [v["label"] for v in body["versions"]] == ["1.1", "1.0"]
    assert body["by_kind"] == [{"kind": "raise", "count": 4}]
    assert {e["exception"]: e["count"] for e in body["by_exception"]} == {
        "ValueError": 2,
        "OutOfStock": 1,
        "KeyError": 1,
    }
    assert body["files"] == [{"path": "shop/cart.py", "sites": 4}]
    assert "source" not in body["versions"][0]  # where it was indexed from stays private
    older = client.get("/api/projects/shop", params={"version": "1.0"}).json()
    assert (older["version"], older["sites"]) == ("1.0", 5)


def test_file_lists_its_sites(client: TestClient) -> None:
    body = client.get("/api/projects/shop/1.0/files/shop/cart.py").json()
    assert (body["project"], body["version"], body["path"]) == ("shop", "1.0", "shop/cart.py")
    assert [s["line"] for s in body["sites"]] == [7, 9, 11, 15]


def test_search_ranks_matches_with_the_placeholder_values(client: TestClient) -> None:
    body = client.get("/api/search", params={"q": "ValueError: count must be positive, got -3"})
    matches = body.json()["matches"]
    assert matches[0]["message"] == "count must be positive, got {count}"
    assert matches[0]["values"] == {"count": "-3"}
    assert matches[0]["version"] == "1.1"
    assert "site" not in matches[0]


def test_search_by_post_for_long_pastes(client: TestClient) -> None:
    paste = "noise line\n" * 20_000 + "ValueError: count must be positive, got -4"
    as_text = client.post("/api/search", content=paste.encode()).json()
    as_form = client.post("/api/search", data={"q": paste}).json()
    assert as_text == as_form
    assert as_text["matches"][0]["values"] == {"count": "-4"}


def test_search_without_a_match_gives_the_nearest(client: TestClient) -> None:
    body = client.get("/api/search", params={"q": "nothing like any indexed message"}).json()
    assert body["matches"] == []
    assert isinstance(body["nearest"], list)


def test_error_is_the_page_model(client: TestClient, catalog: Catalog) -> None:
    wanted = error_id(catalog, "count must be positive")
    body = client.get(f"/api/errors/{wanted}").json()
    with open_store(catalog.db) as store:
        assert body == json.loads(json.dumps(plain(build_page(store, wanted))))
    assert (body["id"], body["version"], body["source"]["line"]) == (wanted, "1.1", 9)
    assert [v["version"] for v in body["versions"]] == ["1.1", "1.0"]
    old = client.get(f"/api/errors/{wanted}", params={"version": "1.0"}).json()
    assert (old["version"], old["source"]["line"]) == ("1.0", 7)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/api/errors/0123456789abcdef", "no error with id '0123456789abcdef'"),
        ("/api/errors/not-an-id", "an id is 16 hex digits"),
        ("/api/projects/nope", "no project named 'nope'"),
        ("/api/projects/shop?version=9.9", "no version '9.9' of shop"),
        ("/api/projects/shop/1.0/files/shop/nothing.py", "no error sites in 'shop/nothing.py'"),
        ("/api/no/such/route", "Not Found"),
    ],
)
def test_not_found_has_one_shape(client: TestClient, path: str, message: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "status"}
    assert body["status"] == 404
    assert message in body["error"]


def test_error_in_a_version_that_lacks_it(client: TestClient, catalog: Catalog) -> None:
    reworded = error_id(catalog, "at most 100", version="1.0")
    response = client.get(f"/api/errors/{reworded}", params={"version": "1.1"})
    assert response.status_code == 404
    assert "it is in 1.0" in response.json()["error"]


def test_bad_input_and_methods_have_the_same_shape(client: TestClient) -> None:
    empty = client.get("/api/search", params={"q": "  "})
    assert (empty.status_code, empty.json()["status"]) == (400, 400)
    assert "give the error to look up" in empty.json()["error"]
    wrong = client.delete("/api/projects")
    assert wrong.status_code == 405
    assert wrong.json() == {"error": "Method Not Allowed", "status": 405}


def test_an_unexpected_failure_is_a_plain_500_logged_once(
    app: Starlette, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals \x1b[2J\nforged line")

    monkeypatch.setattr(errdex, "list_projects", explode)
    monkeypatch.delenv("ERRDEX_DEBUG", raising=False)
    app.state.responses.clear()  # an answer kept by an earlier test would be served
    # The error is not raised on to the server, which would log it again, traceback and all.
    with TestClient(app, raise_server_exceptions=True) as client, caplog.at_level("ERROR"):
        response = client.get("/api/projects")
    assert response.status_code == 500
    assert response.json() == {
        "error": "internal error; the server log has the details",
        "status": 500,
    }
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    (record,) = [r for r in caplog.records if r.levelname == "ERROR"]
    assert record.exc_info is None  # ERRDEX_DEBUG=1 adds the traceback
    assert record.getMessage() == (
        "GET /api/projects failed with an internal error (RuntimeError: secret internals"
        " \\x1b[2J forged line): this is a bug in errdex "
        + importlib.metadata.version("errdex")
        + "; please report it; ERRDEX_DEBUG=1 shows the traceback"
    )


def test_openapi_describes_every_api_route(client: TestClient, app: Starlette) -> None:
    spec = client.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    described = {path.replace("{id}", "{error_id}") for path in spec["paths"]}
    served = {
        r.path.replace("{rest:path}", "{version}/files/{path}")
        for r in app.routes
        if isinstance(r, Route) and r.path.startswith("/api/")
    }
    assert described == served


def test_openapi_file_is_valid_json_in_the_package() -> None:
    import errdex.web

    text = (Path(errdex.web.__file__).parent / "openapi.json").read_text()
    assert json.loads(text)["paths"]["/api/errors/{id}"]["get"]["responses"]["404"]


def _refs(value: object) -> set[str]:
    if isinstance(value, dict):
        found = {value["$ref"]} if isinstance(value.get("$ref"), str) else set()
        return found.union(*(_refs(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_refs(v) for v in value))
    return set()


def test_openapi_schemas_are_the_records_the_routes_answer_with(
    client: TestClient, catalog: Catalog
) -> None:
    spec = client.get("/api/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for ref in _refs(spec):
        section, name = ref.removeprefix("#/components/").split("/")
        assert name in spec["components"][section], ref
    # Generated from the structs: every field the answer carries is described, and the
    # page's contract (DESIGN.md) is there.
    page = client.get(f"/api/errors/{error_id(catalog, 'Only ')}").json()
    assert set(page) <= set(schemas["Page"]["properties"])
    assert {"id", "project", "version", "revision", "exception", "kind", "message"} <= set(
        schemas["Page"]["required"]
    )
    sites = client.get("/api/projects/shop/1.1/files/shop/cart.py").json()["sites"]
    assert set(sites[0]) == set(schemas["SiteRecord"]["properties"])
    found = client.get("/api/search", params={"q": "ValueError: count must be positive, got 0"})
    match = found.json()["matches"][0]
    assert set(match) == set(schemas["MatchRecord"]["properties"])
