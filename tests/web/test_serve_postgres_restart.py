"""PostgreSQL restarted under a running `errdex serve`: the next request is answered, not
refused, since each worker opens its dropped connection again and tries once more."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_api import error_id
from test_serve import get, serving
from web_samples import build_catalog

from pg_server import PostgresServer


@pytest.fixture(scope="module")
def own_server(pg_server: PostgresServer) -> Iterator[PostgresServer]:
    """A server of this module's own (where the session's can run, or skipped as it is):
    restarting the session's would drop other tests' connections."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


def test_the_first_request_after_a_restart_is_answered(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    catalog = build_catalog(tmp_path, db=own_server.new_schema())
    wanted = error_id(catalog, "count must be positive")
    with serving(catalog) as base:
        assert get(f"{base}/api/errors/{wanted}")[0] == 200
        own_server.restart()
        status, body = get(f"{base}/api/projects")
        assert status == 200, body
        assert {p["name"] for p in json.loads(body)["projects"]} >= {"shop"}
        status, body = get(f"{base}/api/errors/{wanted}")
        assert status == 200 and json.loads(body)["id"] == wanted
