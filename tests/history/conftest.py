"""Fixtures of the history tests: the `shop` repository indexed tag by tag into a real
SQLite file, once per module, through the command line."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from history_samples import Indexed, make_shop_repo

from errdex.cli import main
from errdex.store import Store, open_store


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("history")
    repo = make_shop_repo(root / "shop")
    db = root / "errdex.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ERRDEX_CACHE", str(root / "cache"))
        patch.delenv("ERRDEX_DB", raising=False)
        result = CliRunner().invoke(
            main,
            ["index", str(repo), "--tags", "v*", "--workers", "1", "--db", str(db), "--json"],
        )
        assert result.exit_code == 0, result.stderr
        yield Indexed(repo, db, json.loads(result.stdout))


@pytest.fixture
def store(indexed: Indexed) -> Iterator[Store]:
    with open_store(str(indexed.db)) as opened:
        yield opened
