"""Where a lookup runs in the user's environment (the CLI and the agents' server, which index
what is installed there), the release installed there tells which release a paste came from
when the paste does not. Two releases of a project named as a distribution installed where
the tests run (pytest), indexed into a real SQLite file; nothing of it is imported."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator

import pytest

from errdex.match.answer import answer_paste
from errdex.match.installed import InstalledHere
from errdex.store.base import Store
from samples import indexed_store

HERE = importlib.metadata.version("pytest")
OLD = """
    def load(path):
        if not path:
            raise ValueError("no path to load the plugin from")
        return path
    """
# The newer release moved the raise down a few lines.
NEW = """
    import os


    def load(path):
        path = os.fspath(path)
        if not path:
            raise ValueError("no path to load the plugin from")
        return path
    """
MESSAGE = "ValueError: no path to load the plugin from"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    # The release installed here is the older one: a newer one is in the catalog too.
    releases = {
        v: {"plug/__init__.py": "", "plug/load.py": src}
        for v, src in ((HERE, OLD), ("9999.0", NEW))
    }
    db = indexed_store(tmp_path_factory.mktemp("installed"), "pytest", releases)
    yield db
    db.close()


def test_the_installed_release_decides_where_the_lookup_runs_there(store: Store) -> None:
    best = answer_paste(store, MESSAGE, auto_index=True).result.matches[0]
    assert (best.version, best.line, best.confident) == (HERE, 4, True)
    assert best.why[-1] == f"version {HERE}: the installed release of pytest"


def test_elsewhere_nothing_decides(store: Store) -> None:
    # A lookup that may not read this environment (a hosted catalog) cannot tell.
    best = answer_paste(store, MESSAGE, auto_index=False).result.matches[0]
    assert (best.version, best.line, best.confident) == ("9999.0", 8, False)


def test_installed_versions_are_read_when_asked() -> None:
    here = InstalledHere()
    assert len(here) == 0  # nothing read yet
    assert here["pytest"] == HERE
    assert "no-such-distribution-errdex-test" not in here
    assert dict(here) == {"pytest": HERE}
