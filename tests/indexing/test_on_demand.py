"""Indexing on the spot: a first answer's subset leaves no facts in the cache file (they are
of files cut to what the paste needs); the whole index after it fills the cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.indexing import index_source
from errdex.indexing.on_demand import index_subset
from errdex.match.partial import SubsetSource
from errdex.sources import open_source
from errdex.sources.base import SourceFile
from errdex.store import open_store

MODULE = b"def check(n):\n    if n < 0:\n        raise ValueError('n must be positive')\n"


def test_a_subset_is_indexed_without_the_cache_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "quota.py").write_bytes(MODULE)
    source = open_source(str(tmp_path / "pkg"), project="pkg", version="1.0")
    subset = SubsetSource(source, [SourceFile("quota.py", MODULE)], 1)
    with open_store(tmp_path / "errdex.db", create=True) as store:
        report = index_subset(store, subset)
        assert report.partial and report.sites == 1
        assert not (tmp_path / "cache" / "facts.sqlite3").exists()
        whole = index_source(source, store)
        assert not whole.partial and whole.sites == 1
    assert (tmp_path / "cache" / "facts.sqlite3").is_file()
