"""Building a page: what it leaves behind."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain import build as build_module
from errdex.explain import build_page
from errdex.explain.context import Facts
from errdex.store import Store
from errdex.store.base import StoredSite

FILES = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": (
        "class Shape:\n"
        "    def check(self, sides):\n"
        "        if sides < 0:\n"
        "            raise ValueError('no shape has fewer than no sides')\n"
    ),
    "pkg/io.py": (
        "from pkg.shapes import Shape\n"
        "\n"
        "def load(path, mode):\n"
        "    if mode not in ('r', 'w'):\n"
        "        raise ValueError(f'bad mode {mode!r}')\n"
        "    return open(path, mode)\n"
    ),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("build"), "pkg", FILES)


def _load(store: Store) -> StoredSite:
    return next(s for s in store.list_sites("pkg") if s.file == "pkg/io.py")


def test_a_pages_facts_are_freed_when_it_is_built_not_by_the_collector(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The facts a page gathers (its reads, sites, views, memo) are freed as the page is
    returned: no closure they keep holds them in a cycle for the collector's next pass."""
    made: list[weakref.ref[Facts]] = []
    real = build_module.gather_facts

    def gather(stored: StoredSite) -> Facts:
        facts = real(stored)
        made.append(weakref.ref(facts))
        return facts

    monkeypatch.setattr(build_module, "gather_facts", gather)
    site = _load(store)
    gc.collect()
    gc.disable()
    try:
        page = build_page(store, site.id)
        assert page.id == site.id
        assert len(made) == 1
        assert made[0]() is None
    finally:
        gc.enable()


def test_a_class_the_file_imports_is_read_while_the_page_is_built(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The facts' reader of imported classes, holding them weakly, reads as before."""
    read: list[object] = []
    real = build_module.gather_facts

    def gather(stored: StoredSite) -> Facts:
        facts = real(stored)
        read.append(facts)  # kept alive here: the reader is asked after the build
        return facts

    monkeypatch.setattr(build_module, "gather_facts", gather)
    build_page(store, _load(store).id)
    facts = read[0]
    assert isinstance(facts, Facts) and facts.imported_class is not None
    found = facts.imported_class("Shape")
    assert found is not None and found.name == "Shape"
