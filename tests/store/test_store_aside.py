"""A version written by another process as its sites come (`write_version_aside`) is the
version `write_version` writes; a failure half-way leaves the earlier contents."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import msgspec
import pytest
from store_checks import assert_sound
from store_samples import (
    FILES,
    PROJECT,
    SITES,
    as_indexed,
    synthetic_files,
    synthetic_sites,
    version_info,
)
from test_store_crash import assert_untouched, failing_after

from errdex.errors import StoreError
from errdex.linked_facts import IndexedSite
from errdex.store import Store, open_store
from errdex.store.base import VersionStats


@pytest.fixture
def backend() -> str:
    """SQLite only: another store writes in the caller's process (`Store.write_version_aside`)."""
    return "sqlite"


def _written(store: Store, aside: bool) -> tuple[list[IndexedSite], VersionStats]:
    files = synthetic_files(60, size=2_000)
    write = store.write_version_aside if aside else store.write_version
    stats = write(version_info("2.0", "b" * 40), synthetic_sites(3_000, file_count=60), files)
    return [as_indexed(s) for s in store.list_sites(PROJECT, version="2.0")], stats


def test_a_version_written_aside_is_the_one_written_here(tmp_path: Path) -> None:
    with (
        open_store(str(tmp_path / "here.db")) as here,
        open_store(str(tmp_path / "aside.db")) as aside,
    ):
        here.write_version(version_info("1.0"), SITES, FILES)
        aside.write_version(version_info("1.0"), SITES, FILES)
        here_sites, here_stats = _written(here, aside=False)
        aside_sites, aside_stats = _written(aside, aside=True)
        assert aside_sites == here_sites and len(aside_sites) == 3_000
        assert msgspec.structs.replace(aside_stats, seconds=0) == msgspec.structs.replace(
            here_stats, seconds=0
        )
        found = aside.search_candidates(["failure", "configuration"])
        assert found and found[0].id in {s.id for s in here_sites}
        assert_sound(aside)
    # the child keeps each site's bytes as the parent encoded them: the same bytes
    rows = "SELECT file, line, data FROM sites ORDER BY id"
    with (
        closing(sqlite3.connect(tmp_path / "here.db")) as here_db,
        closing(sqlite3.connect(tmp_path / "aside.db")) as aside_db,
    ):
        assert here_db.execute(rows).fetchall() == aside_db.execute(rows).fetchall()


def _failing_then_counted(
    count: int, error: BaseException, made: list[int]
) -> Iterator[IndexedSite]:
    for site in failing_after(count, error):
        made.append(1)
        yield site


@pytest.mark.parametrize("error", [RuntimeError("linker broke"), KeyboardInterrupt()])
def test_a_failure_of_the_sites_half_way_rolls_back(filled: Store, error: BaseException) -> None:
    made: list[int] = []
    with pytest.raises(type(error)):
        filled.write_version_aside(
            version_info("1.0", "e" * 40), _failing_then_counted(5_000, error, made), {}
        )
    assert len(made) == 5_000  # the child had sites to write when the failure came
    assert_untouched(filled)
    filled.write_version_aside(version_info("1.1"), iter(SITES), FILES)  # it still writes
    assert_sound(filled)


def test_a_failure_before_the_first_site_leaves_the_store_as_it_was(filled: Store) -> None:
    # the child has the files by then (it packs them while the caller links): it is told
    # to roll back before any site comes
    with pytest.raises(RuntimeError, match="linker broke"):
        filled.write_version_aside(
            version_info("1.0", "e" * 40),
            failing_after(0, RuntimeError("linker broke")),
            synthetic_files(60, size=2_000),
        )
    assert_untouched(filled)
    filled.write_version_aside(version_info("1.1"), iter(SITES), FILES)  # it still writes
    assert_sound(filled)


def test_a_site_the_database_refuses_is_a_store_error_and_rolls_back(filled: Store) -> None:
    bad = msgspec.structs.replace(SITES[0], id="not sixteen hex")  # errors.id's check
    with pytest.raises(StoreError, match="writing the version failed: StoreError"):
        filled.write_version_aside(version_info("1.0", "e" * 40), iter([*SITES[1:], bad]), {})
    assert_untouched(filled)


@pytest.mark.parametrize("place", ["aside.db", ":memory:"])
def test_meanwhile_is_called_once_the_last_site_is_made(tmp_path: Path, place: str) -> None:
    # (":memory:": no other process can reach it, the sites are written here)
    made: list[int] = []
    called: list[int] = []

    def sites() -> Iterator[IndexedSite]:
        for site in SITES:
            made.append(1)
            yield site

    location = place if place == ":memory:" else str(tmp_path / place)
    with open_store(location) as store:
        store.write_version_aside(
            version_info("1.0"), sites(), FILES, meanwhile=lambda: called.append(len(made))
        )
        assert called == [len(SITES)]
        assert len(store.list_sites(PROJECT, version="1.0")) == len(SITES)
