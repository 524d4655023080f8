"""Fixtures of the store tests: a real SQLite file in a temporary folder, or a store of its
own on a real PostgreSQL server started for the session (`pg_server.py`).

Tests that take `store`, `filled` or `db_url` run once per backend.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("store_checks")  # its asserts say what differs

from pg_server import REQUIRE, PostgresServer, unavailable  # noqa: E402
from store_samples import FILES, SITES, version_info  # noqa: E402

from errdex.store import Store, open_store  # noqa: E402

BACKENDS = ["sqlite", "postgres"]


def skip_or_fail(reason: str) -> None:
    """Skip a PostgreSQL test that cannot run here, unless CI says they must all run
    (ERRDEX_REQUIRE_POSTGRES=1): then fail it."""
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{reason} ({REQUIRE}=1: PostgreSQL tests must run)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_driver() -> None:
    """psycopg can be imported (tests of failures that need no server)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        skip_or_fail("psycopg is not installed (pip install -e '.[dev]')")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session."""
    reason = unavailable()
    if reason is not None:
        skip_or_fail(reason)
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> str:
    """The URL of a new, empty PostgreSQL store (a schema of its own)."""
    return pg_server.new_schema()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "errdex.db"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """Where a new store lives: a SQLite path, or a PostgreSQL URL."""
    if backend == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(db_path)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with open_store(db_url) as opened:
        yield opened


@pytest.fixture
def filled(store: Store) -> Store:
    """A store holding version 1.0 of the demo project with the three sample sites."""
    store.write_version(version_info("1.0"), SITES, FILES)
    return store
