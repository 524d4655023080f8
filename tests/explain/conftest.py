"""Fixtures of the explain tests: the sample engine indexed into a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import ENGINE, PYPROJECT

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.sources import open_source
from errdex.store import Store, open_store
from samples import write_package


@pytest.fixture(scope="module")
def db_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("engine")
    write_package(root / "src", {**ENGINE, "pyproject.toml": PYPROJECT})
    path = root / "errdex.db"
    with open_store(path) as store:
        cache = FactsCache(root / "facts.sqlite3")
        index_source(open_source(str(root / "src")), store, cache=cache)
    return str(path)


@pytest.fixture
def store(db_path: str) -> Iterator[Store]:
    with open_store(db_path) as opened:
        yield opened
