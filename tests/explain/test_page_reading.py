"""A page reads what its site's source says from the facts kept at extraction, and says the
same as when it parsed the stored file itself: every page of a real package (pinned) and of
the sample engine, built both ways."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from explain_samples import ENGINE, PYPROJECT

import errdex.explain.build as build
from errdex.explain.reading import read_source
from errdex.facts import SourceRead
from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.sources import open_source
from errdex.sources.pypi import pypi_source
from errdex.store import open_store
from errdex.store.base import Store, StoredSite
from samples import write_package


def _pages_both_ways(store: Store, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    sites = [s for p in store.projects() for s in store.list_sites(project=p.name)]
    # what the pages compare is there to compare
    assert any(s.reading not in (None, SourceRead()) for s in sites)
    ids = sorted({s.id for s in sites})
    gather = build.gather_facts
    differ: list[str] = []
    for error_id in ids:
        kept = msgspec.json.encode(build.build_page(store, error_id))

        def parsed_now(stored: StoredSite, read: SourceRead | None = None) -> build.Facts:
            text = store.file_text(stored.version_id, stored.file)
            return gather(stored, read_source(text, stored.site.line, stored.site.function))

        with monkeypatch.context() as patched:
            patched.setattr(build, "gather_facts", parsed_now)
            parsed = msgspec.json.encode(build.build_page(store, error_id))
        if kept != parsed:
            differ.append(error_id)
    return len(ids), differ


def test_engine_pages_same_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_package(tmp_path / "src", {**ENGINE, "pyproject.toml": PYPROJECT})
    with open_store(tmp_path / "errdex.db") as store:
        cache = FactsCache(tmp_path / "facts.sqlite3")
        index_source(open_source(str(tmp_path / "src")), store, cache=cache, workers=1)
        count, differ = _pages_both_ways(store, monkeypatch)
    assert count >= 4
    assert differ == []


@pytest.mark.network
def test_real_package_pages_same_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(tmp_path / "errdex.db") as store:
        cache = FactsCache(tmp_path / "facts.sqlite3")
        index_source(pypi_source("click==8.1.7"), store, cache=cache, workers=1)
        count, differ = _pages_both_ways(store, monkeypatch)
    assert count > 50
    assert differ == []
