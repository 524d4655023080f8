"""Fixtures of the lookup tests that need real releases: requests and urllib3, downloaded
once (never installed) and indexed into one real SQLite file for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store

# Four releases of requests whose sites moved, and two of the urllib3 it re-raises errors of.
RELEASES = (
    "requests==2.28.1",
    "requests==2.30.0",
    "requests==2.31.0",
    "requests==2.32.3",
    "urllib3==1.26.6",
    "urllib3==2.2.2",
)


@pytest.fixture(scope="session")
def releases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("releases")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ERRDEX_CACHE", str(root / "cache"))
        db = open_store(root / "errdex.db")
        cache = FactsCache(root / "facts.sqlite3")
        for spec in RELEASES:
            index_source(open_source(spec), db, cache=cache, workers=1)
    yield db
    db.close()
