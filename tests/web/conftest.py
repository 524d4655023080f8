"""Fixtures of the web tests: one catalog per module, the app, and a test client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from web_samples import Catalog, build_catalog

from errdex.web import create_app


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return build_catalog(tmp_path_factory.mktemp("catalog"))


@pytest.fixture(scope="module")
def app(catalog: Catalog) -> Iterator[Starlette]:
    made = create_app(catalog.db)
    yield made
    made.state.pool.close()


@pytest.fixture
def client(app: Starlette) -> Iterator[TestClient]:
    with TestClient(app) as opened:
        yield opened
