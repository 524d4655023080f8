"""A real package (the installed click, errdex's own dependency) indexed through the command
line into SQLite and into PostgreSQL: `list`, `show` and `lookup` of a real traceback answer
the same from both, and `serve` answers from PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from errdex.cli import main
from errdex.web import create_app
from pg_server import PostgresServer
from samples import real_click_traceback


@pytest.fixture(scope="module")
def databases(
    tmp_path_factory: pytest.TempPathFactory, pg_server: PostgresServer
) -> dict[str, str]:
    """Both backends, each holding the installed click, indexed by `errdex index`."""
    root = tmp_path_factory.mktemp("end-to-end")
    found = {"sqlite": str(root / "errdex.db"), "postgres": pg_server.new_schema()}
    for db in found.values():
        result = run(db, "index", "installed:click", "--workers", "1", "--json", cache=root)
        assert result["stored"]["sites"] > 100
    return found


def run(db: str, *args: str, paste: str | None = None, cache: Path | None = None) -> Any:
    """`errdex ARGS`, the database given by --db when indexing, else by ERRDEX_DB; the
    JSON it prints."""
    if args[0] == "index":
        env = {"ERRDEX_DB": None, "ERRDEX_CACHE": str(cache) if cache else None}
        args = (*args, "--db", db)
    else:
        env = {"ERRDEX_DB": db}
    result = CliRunner(env=env).invoke(main, list(args), input=paste)
    assert result.exit_code == 0, result.stderr
    found = json.loads(result.stdout)
    return found[0] if args[0] == "index" else found


def both(databases: dict[str, str], *args: str, paste: str | None = None) -> list[Any]:
    return [run(db, *args, paste=paste) for db in databases.values()]


def test_indexing_again_finds_the_version_up_to_date(
    databases: dict[str, str], tmp_path: Path
) -> None:
    again = run(databases["postgres"], "index", "installed:click", "--json", cache=tmp_path)
    assert again["up_to_date"]


def test_list_is_the_same(databases: dict[str, str]) -> None:
    sqlite, postgres = both(databases, "list", "--project", "click", "--json")
    assert sqlite == postgres
    assert len(postgres) > 100


def test_show_is_the_same(databases: dict[str, str]) -> None:
    ids = [site["id"] for site in run(databases["postgres"], "list", "--json")]
    for error_id in ids[::8]:  # a sample of all kinds and files; every one takes seconds
        pages = both(databases, "show", error_id, "--json")
        for page in pages:
            page["analysis"].pop("at")  # when each database indexed the version
        assert pages[0] == pages[1], error_id


@pytest.mark.parametrize("what", ["traceback", "message"])
def test_lookup_is_the_same(databases: dict[str, str], what: str) -> None:
    paste = real_click_traceback()
    if what == "message":  # full-text search alone: no frame points at the site
        paste = paste.strip().splitlines()[-1].split(": ", 1)[1]

    sqlite, postgres = both(databases, "lookup", "-", "--json", paste=paste)

    assert sqlite == postgres
    best = postgres["matches"][0]
    # the raise inside `Context.fail`, naming the call `ctx.fail(...)` that gave it the text
    assert (best["project"], best["file"], best["kind"]) == ("click", "click/core.py", "raise")
    assert best["called_at"]["function"] == "Command.parse_args"
    assert best["shown"].startswith("Got unexpected extra argument (")
    assert list(best["values"].values()) == ["b"]


def test_serve_answers_from_postgresql(databases: dict[str, str]) -> None:
    paste = real_click_traceback()
    app = create_app(databases["postgres"])
    try:
        with TestClient(app) as client:
            projects = client.get("/api/projects").json()
            found = client.get("/api/search", params={"q": paste}).json()
    finally:
        app.state.pool.close()

    assert "click" in json.dumps(projects)
    expected = run(databases["sqlite"], "lookup", "-", "--json", paste=paste)
    assert [m["id"] for m in found["matches"]] == [m["id"] for m in expected["matches"]]
