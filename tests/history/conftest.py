"""Fixtures of the history tests: the `shop` repository indexed tag by tag into a real
SQLite file, once per module, through the command line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from history_samples import make_shop_repo

from errdex.cli import main
from errdex.store import Store, open_store


class Indexed:
    """The repository, its database, and what `errdex index --tags 'v*' --json` printed."""

    def __init__(self, repo: Path, db: Path, reports: list[dict[str, Any]]) -> None:
        self.repo = repo
        self.db = db
        self.reports = reports

    def run(self, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
        result = CliRunner().invoke(main, [*args, "--db", str(self.db)], input=stdin)
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr

    def json(self, *args: str, stdin: str | None = None) -> Any:
        code, out, err = self.run(*args, "--json", stdin=stdin)
        assert code == 0, err
        return json.loads(out)


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
