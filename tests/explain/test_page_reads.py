"""A page's repeated reads of the catalog: each asked of the store once, answered alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from explain_samples import indexed_package

from errdex.explain import build_page
from errdex.explain.page_reads import page_reads
from errdex.store import Store
from errdex.store.base import AnalysisRecord

FILES = {
    "pkg/__init__.py": "",
    "pkg/io.py": (
        "def load(path, mode):\n"
        "    if mode not in ('r', 'w'):\n"
        "        raise ValueError(f'bad mode {mode!r}')\n"
        "    if not path:\n"
        "        raise ValueError('no path given')\n"
        "    return open(path, mode)\n"
    ),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("reads"), "pkg", FILES)


class Counting:
    """The real store, counting what it is asked."""

    def __init__(self, store: Store) -> None:
        self.store, self.asked = store, Counter[str]()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.store, name)

        def call(*args: Any, **keywords: Any) -> Any:
            self.asked[name] += 1
            return method(*args, **keywords)

        return call


def test_a_read_repeated_is_asked_once_and_answered_alike(store: Store) -> None:
    site = store.list_sites("pkg")[0]
    counting = Counting(store)
    reads = page_reads(counting)  # type: ignore[arg-type]
    first = reads.neighbours(site.version_id, site.file)
    second = reads.neighbours(site.version_id, site.file)
    assert first == second == store.neighbours(site.version_id, site.file)
    assert first is not second  # a rule that sorts its list leaves the next one's alone
    assert reads.get_error(site.id) == reads.get_error(site.id) == store.get_error(site.id)
    assert counting.asked == Counter({"neighbours": 1, "get_error": 1})


def test_other_reads_go_to_the_store_each_time(store: Store) -> None:
    counting = Counting(store)
    reads = page_reads(counting)  # type: ignore[arg-type]
    reads.list_sites("pkg")
    reads.list_sites("pkg")
    assert counting.asked["list_sites"] == 2


def test_a_page_asks_each_read_once(store: Store) -> None:
    counting = Counting(store)
    for site in store.list_sites("pkg"):
        counting.asked.clear()
        page = build_page(counting, site.id)  # type: ignore[arg-type]
        assert page == build_page(store, site.id)
        repeated = {name: n for name, n in counting.asked.items() if n > 1}
        assert not repeated.keys() & {"neighbours", "get_error", "file_text", "versions"}


def test_a_page_built_on_page_reads_leaves_its_reads_to_the_caller(store: Store) -> None:
    # the web's error page reads the project's versions after the page: asked once
    site = store.list_sites("pkg")[0]
    counting = Counting(store)
    reads = page_reads(counting)  # type: ignore[arg-type]
    assert page_reads(reads) is reads
    assert isinstance(reads, Store)  # errdex.show(..., db=reads) takes it as it is
    page = build_page(reads, site.id)
    assert reads.versions(page.project) == store.versions(page.project)
    assert counting.asked["versions"] == 1
    assert page == build_page(store, site.id)


class CountingByLocation(Counting):
    """`Counting`, its location the store's (catalog lists are kept per database)."""

    def __getattr__(self, name: str) -> Any:
        return self.store.location if name == "location" else super().__getattr__(name)


def _write(store: Store, error_id: str) -> None:
    """A write to the catalog (a model's rejected analysis): a new generation."""
    store.put_analysis(
        AnalysisRecord(
            error_id=error_id,
            revision="r" * 40,
            model="m",
            prompt_version="p",
            status="rejected",
            reason="test",
            created_at="2026-01-01T00:00:00+00:00",
        )
    )


def test_the_catalog_lists_are_read_once_across_pages_until_a_write(store: Store) -> None:
    sites = store.list_sites("pkg")
    assert len(sites) > 1
    _write(store, sites[0].id)  # a generation no other test's pages read
    counting = CountingByLocation(store)
    pages = [build_page(counting, site.id) for site in sites]  # type: ignore[arg-type]
    assert pages == [build_page(store, site.id) for site in sites]
    # one small read of the generation per page; the projects and versions once
    assert counting.asked["generation"] == len(sites)
    assert counting.asked["versions"] == counting.asked["projects"] == 1
    _write(store, sites[0].id)
    assert build_page(counting, sites[0].id) == pages[0]  # type: ignore[arg-type]
    assert counting.asked["versions"] == counting.asked["projects"] == 2
