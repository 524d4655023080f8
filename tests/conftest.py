"""Fixtures every test folder shares: one real PostgreSQL server for the whole session
(`pg_server.py`), and a store of its own on it for each test that asks."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

from errdex.extract.walker import ERROR_UNKNOWN_ENV
from pg_server import REQUIRE, PostgresServer, unavailable

# pytester drives the pytest plugin the way pytest itself loads it (tests/integrations).
pytest_plugins = ["pytester"]

# A statement kind the extraction walker has no handler for fails the tests (it is skipped
# quietly in use), so new syntax is noticed. Set here, before any test runs, and inherited
# by the indexer's worker processes.
os.environ[ERROR_UNKNOWN_ENV] = "1"

# The tests never read or write the database of whoever runs them: a command run without
# --db opens the default store in the user data folder, which another errdex (a newer
# schema, a branch) may have written. The session gets an empty data folder of its own;
# the download cache stays shared (it holds only hashed downloads and facts keyed by
# extractor version).
os.environ.pop("ERRDEX_DB", None)
_DATA_HOME = tempfile.mkdtemp(prefix="errdex-tests-data-")
os.environ["XDG_DATA_HOME"] = _DATA_HOME
atexit.register(shutil.rmtree, _DATA_HOME, True)


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
