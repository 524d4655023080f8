"""A write that fails, is interrupted or is killed leaves the earlier contents intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_checks import assert_sound
from store_samples import FILES, PIECEWISE, PROJECT, SITES, synthetic_sites, version_info

from errdex.linked_facts import IndexedSite
from errdex.store import Store, open_store

SRC = Path(__file__).resolve().parents[2] / "src"


def failing_after(count: int, error: BaseException) -> Iterator[IndexedSite]:
    """Many new sites for version 1.0, then `error`."""
    yield from synthetic_sites(count, file_count=40)
    raise error


def assert_untouched(store: Store) -> None:
    assert [s.id for s in store.list_sites(PROJECT)] == [s.id for s in SITES]
    assert [v.revision for v in store.versions(PROJECT)] == ["a" * 40]
    assert store.search_candidates(["PIECEWISE"])[0].id == PIECEWISE.id
    assert store.search_candidates(["failure", "configuration"]) == []


def test_an_exception_half_way_rolls_back(filled: Store) -> None:
    with pytest.raises(RuntimeError, match="extractor broke"):
        filled.write_version(
            version_info("1.0", "e" * 40), failing_after(5_000, RuntimeError("extractor broke")), {}
        )

    assert_untouched(filled)
    assert_sound(filled)


def test_ctrl_c_half_way_rolls_back(filled: Store) -> None:
    with pytest.raises(KeyboardInterrupt):
        filled.write_version(
            version_info("1.0", "e" * 40), failing_after(5_000, KeyboardInterrupt()), {}
        )

    assert_untouched(filled)
    filled.write_version(version_info("1.1"), SITES, FILES)  # the store still writes
    assert_sound(filled)


# Writes a big version 1.0 over the sample one; says "mid" half-way, inside the
# transaction, then waits to be killed. With a small SQLite page cache (argv[3]) uncommitted
# pages have already been spilled into the WAL file by then.
KILLED_WRITER = """
import sys, time
sys.path.insert(0, sys.argv[2])
from store_samples import synthetic_sites, synthetic_files, version_info
from errdex.store import open_store

def sites():
    for n, site in enumerate(synthetic_sites(12_000, file_count=400)):
        if n == 8_000:
            print("mid", flush=True)
            time.sleep(120)
        yield site

store = open_store(sys.argv[1])
if sys.argv[3]:
    store._conn.execute(f"PRAGMA cache_size = {sys.argv[3]}")
store.write_version(version_info("1.0", "f" * 40), sites(), synthetic_files(400))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
@pytest.mark.parametrize(
    ("backend", "spilled"),
    [("sqlite", False), ("sqlite", True), ("postgres", False)],
    ids=["sqlite-in-memory", "sqlite-spilled-to-wal", "postgres"],
    indirect=["backend"],
)
def test_a_killed_writer_leaves_the_previous_version(
    filled: Store, backend: str, db_url: str, db_path: Path, spilled: bool
) -> None:
    filled.close()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            KILLED_WRITER,
            db_url,
            str(Path(__file__).parent),
            {"sqlite": "-200000", "postgres": ""}[backend] if not spilled else "-500",
        ],
        stdout=subprocess.PIPE,
        env=env,
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline() == b"mid\n"
        if spilled:
            wal = db_path.with_name(db_path.name + "-wal")
            assert wal.stat().st_size > 1_000_000  # uncommitted pages did reach the disk
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        assert writer.stdout is not None
        writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL

    with open_store(db_url) as store:
        assert_untouched(store)
        assert_sound(store)
