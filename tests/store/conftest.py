"""Fixtures of the store tests: a real SQLite file in a temporary folder, or a store of its
own on the real PostgreSQL server started for the session (`pg_url`, tests/conftest.py).

Tests that take `store`, `filled` or `db_url` run once per backend.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("store_checks")  # its asserts say what differs

from store_samples import FILES, SITES, version_info  # noqa: E402

from errdex.store import Store, open_store  # noqa: E402

BACKENDS = ["sqlite", "postgres"]


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
