"""The facts cache: what is put is got back, in a new cache file and in one an earlier
errdex made (its table WITHOUT ROWID)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from errdex.extract import EXTRACTOR_VERSION
from errdex.indexing.cache import FactsCache, content_key

_EARLIER_TABLE = (
    "CREATE TABLE facts (key TEXT NOT NULL, extractor TEXT NOT NULL,"
    " data BLOB NOT NULL, PRIMARY KEY (key, extractor)) WITHOUT ROWID"
)


@pytest.mark.parametrize("earlier", [False, True], ids=["new", "earlier"])
def test_put_facts_are_got_back(tmp_path: Path, earlier: bool) -> None:
    path = tmp_path / "facts.sqlite3"
    kept_key = content_key("pkg/kept.py", b"raise ValueError('kept')\n")
    if earlier:
        db = sqlite3.connect(path)
        db.execute(_EARLIER_TABLE)
        db.execute("INSERT INTO facts VALUES (?, ?, ?)", (kept_key, EXTRACTOR_VERSION, b"old"))
        db.commit()
        db.close()
    cache = FactsCache(path)
    blobs = {
        content_key(f"pkg/m{i}.py", b"x = %d\n" % i): bytes([i]) * (i * 997) for i in range(40)
    }
    cache.put_many(blobs)
    cache.put_many({next(iter(blobs)): b"replaced"})
    cache.close()
    again = FactsCache(path)
    try:
        found = again.get_many([*blobs, kept_key, content_key("pkg/absent.py", b"")])
    finally:
        again.close()
    expected = {**blobs, next(iter(blobs)): b"replaced"}
    if earlier:
        expected[kept_key] = b"old"
    assert found == expected
