"""Fixtures of the lookup tests that need real releases: requests and urllib3, downloaded
once (never installed) and indexed into one real SQLite file for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.store.base import Store
from samples import indexed_releases

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
    db = indexed_releases(tmp_path_factory.mktemp("releases"), RELEASES)
    yield db
    db.close()
