"""Fixtures of the store tests: a real SQLite file in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from store_samples import FILES, SITES, version_info

from errdex.store import Store, open_store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "errdex.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with open_store(str(db_path)) as opened:
        yield opened


@pytest.fixture
def filled(store: Store) -> Store:
    """A store holding version 1.0 of the demo project with the three sample sites."""
    store.write_version(version_info("1.0"), SITES, FILES)
    return store
