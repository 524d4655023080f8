"""The store's generation, on both backends: every committed write gives a new token, nothing
else does, and every store on the database sees it at once, in this process or another."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from store_samples import FILES, PIECEWISE, PROJECT, SITES, synthetic_sites, version_info

from errdex.errors import NotFoundError
from errdex.linked_facts import IndexedSite
from errdex.store import AnalysisRecord, Store, open_store
from samples import rejected_analysis

SRC = Path(__file__).resolve().parents[2] / "src"


def analysis(status: str = "rejected") -> AnalysisRecord:
    kept = rejected_analysis(PIECEWISE.id, "a" * 40)
    if status == "ok":
        return msgspec.structs.replace(kept, status="ok", reason=None, body='{"what": "x"}')
    return kept


def read_everything(store: Store) -> None:
    """Every kind of read the web and the lookups make."""
    store.projects()
    store.versions(PROJECT)
    store.list_sites(PROJECT)
    store.get_error(PIECEWISE.id)
    store.file_text((PROJECT, "1.0"), "demo/config.py")
    store.search_candidates(["PIECEWISE"])
    store.sites_raising("ValueError")
    store.sites_in_files(["demo/config.py"], line=6)
    store.stats(PROJECT)
    store.get_analysis(PIECEWISE.id, "a" * 40)
    store.analysed_errors("a" * 40, "tiny", "1")


def failing(error: BaseException) -> Iterator[IndexedSite]:
    yield from synthetic_sites(50, file_count=5)
    raise error


def test_reads_leave_the_generation_alone(filled: Store) -> None:
    before = filled.generation()
    read_everything(filled)
    assert filled.generation() == before


def test_every_write_gives_a_new_generation(store: Store) -> None:
    seen = [store.generation()]

    def changed() -> None:
        now = store.generation()
        assert now not in seen
        seen.append(now)

    store.write_version(version_info("1.0"), SITES, FILES)
    changed()
    store.write_version(version_info("1.0", "b" * 40), SITES, FILES)  # replaced
    changed()
    store.write_version(version_info("1.1"), SITES[:1], FILES)
    changed()
    store.put_analysis(analysis("rejected"))
    changed()
    store.put_analysis(analysis("ok"))  # the same key, replaced
    changed()
    store.delete_version(PROJECT, "1.1")
    changed()


def test_a_write_that_fails_leaves_the_generation(filled: Store) -> None:
    before = filled.generation()
    with pytest.raises(RuntimeError):
        filled.write_version(version_info("1.0", "e" * 40), failing(RuntimeError("broke")), {})
    with pytest.raises(KeyboardInterrupt):
        filled.write_version(version_info("2.0"), failing(KeyboardInterrupt()), {})
    with pytest.raises(NotFoundError):
        filled.delete_version(PROJECT, "9.9")
    assert filled.generation() == before


def test_the_token_outlives_the_process_and_differs_between_databases(
    backend: str, db_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    with open_store(db_url) as store:
        store.write_version(version_info("1.0"), SITES, FILES)
        token = store.generation()
    with open_store(db_url) as again:  # a restart
        assert again.generation() == token
    if backend == "postgres":
        other_url = request.getfixturevalue("pg_server").new_schema()
    else:
        other_url = str(tmp_path / "other.db")
    with open_store(other_url) as other:
        other.write_version(version_info("1.0"), SITES, FILES)  # as many writes, same data
        assert other.generation() != token


def test_two_stores_on_one_database_see_each_others_writes(db_url: str) -> None:
    with open_store(db_url) as reader, open_store(db_url) as writer:
        assert reader.generation() == writer.generation()
        writer.write_version(version_info("1.0"), SITES, FILES)
        assert reader.generation() == writer.generation()
        before = reader.generation()
        writer.put_analysis(analysis())
        assert reader.generation() == writer.generation() != before


WRITER = """
import sys
sys.path[:0] = [sys.argv[2], sys.argv[3]]
from errdex.store import open_store
from store_samples import FILES, SITES, version_info
with open_store(sys.argv[1]) as store:
    store.write_version(version_info("3.0"), SITES, FILES)
    print(store.generation())
"""


def test_a_write_in_another_process_is_seen_at_once(filled: Store, db_url: str) -> None:
    before = filled.generation()
    here = str(Path(__file__).parent)
    done = subprocess.run(
        [sys.executable, "-c", WRITER, db_url, str(SRC), here],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    after = filled.generation()
    assert after != before
    assert after == done.stdout.strip()  # the very token the writer committed
