"""Writers in separate processes on one PostgreSQL store: different versions are written at
the same time, the same version in turn, and a search text one writer drops as unused is
kept or written again for another writer that uses it."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_checks import assert_sound
from store_samples import FILES, PIECEWISE, PROJECT, TOO_LONG, UNSUPPORTED, version_info

from errdex.store import Store
from pg_server import PostgresServer

SRC = Path(__file__).resolve().parents[2] / "src"
SECONDS = 60  # no step of a writer takes nearly this long; past it, something hangs

# Writes version argv[3]: the sample sites, then argv[4] synthetic ones whose messages
# start with argv[5]. Half-way through the synthetic ones (inside the transaction) it says
# "mid" and waits for a line on stdin; at the end it says "done" and how many sites.
WRITER = """
import sys
sys.path.insert(0, sys.argv[2])
from store_samples import FILES, SITES, synthetic_files, synthetic_sites, version_info
from errdex.store import open_store

url, _, label, count, tag = sys.argv[1:6]

def sites():
    yield from SITES
    for n, site in enumerate(synthetic_sites(int(count), file_count=50, tag=tag)):
        if n == int(count) // 2:
            print("mid", flush=True)
            sys.stdin.readline()
        yield site

with open_store(url) as store:
    stats = store.write_version(version_info(label), sites(), {**FILES, **synthetic_files(50)})
print("done", stats.sites, "replaced" if stats.replaced else "new", flush=True)
"""


@pytest.fixture
def backend() -> str:
    """`store` and `filled` are PostgreSQL stores here."""
    return "postgres"


class Writer:
    """A writer process, driven line by line."""

    def __init__(self, url: str, label: str, count: int = 2_000, tag: str = "") -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-c", WRITER, url, str(Path(__file__).parent), label, str(count), tag],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def says(self) -> str:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], SECONDS)
        assert ready, "the writer said nothing in time"
        return self.process.stdout.readline().strip()

    def go_on(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def finish(self) -> str:
        said = self.says()
        assert self.process.wait(SECONDS) == 0
        return said

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


@pytest.fixture
def writers() -> Iterator[list[Writer]]:
    started: list[Writer] = []
    yield started
    for writer in started:
        writer.stop()


def waiting_on_a_version_lock(server: PostgresServer) -> bool:
    rows = server.admin("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
    return bool(rows)


def test_writers_of_different_versions_write_at_the_same_time(
    filled: Store, pg_url: str, writers: list[Writer]
) -> None:
    # Both add the same new errors and texts, and reuse the sample ones.
    writers += [Writer(pg_url, "2.0"), Writer(pg_url, "3.0")]
    assert [w.says() for w in writers] == ["mid", "mid"]  # both inside their transactions
    for writer in writers:
        writer.go_on()

    assert [w.finish() for w in writers] == ["done 2003 new", "done 2003 new"]
    assert [v.label for v in filled.versions(PROJECT)] == ["3.0", "2.0", "1.0"]
    assert {len(filled.list_sites(PROJECT, label)) for label in ("2.0", "3.0")} == {2003}
    assert sorted(s.version for s in filled.search_candidates(["PIECEWISE"])) == [
        "1.0",
        "2.0",
        "3.0",
    ]
    assert_sound(filled)


def test_writers_of_the_same_version_take_turns(
    filled: Store, pg_url: str, pg_server: PostgresServer, writers: list[Writer]
) -> None:
    first = Writer(pg_url, "2.0", tag="first ")
    writers.append(first)
    assert first.says() == "mid"
    second = Writer(pg_url, "2.0", tag="second ")
    writers.append(second)
    deadline = time.monotonic() + SECONDS
    while not waiting_on_a_version_lock(pg_server):
        assert time.monotonic() < deadline, "the second writer never waited for the first"
        time.sleep(0.05)

    first.go_on()
    assert first.finish() == "done 2003 new"
    assert second.says() == "mid"
    second.go_on()
    assert second.finish() == "done 2003 replaced"

    [version] = [v for v in filled.versions(PROJECT) if v.label == "2.0"]
    sites = filled.list_sites(PROJECT, "2.0")
    assert len(sites) == 2003
    assert not any(s.site.message and "first" in s.site.message.text for s in sites)
    assert version.stats.replaced
    assert_sound(filled)


def test_a_text_dropped_as_unused_is_written_again_for_a_writer_using_it(
    filled: Store, pg_url: str, writers: list[Writer]
) -> None:
    # The writer of 2.0 uses the sample texts; before it stores its texts, 1.0 is indexed
    # again without them, so they are dropped as unused.
    writer = Writer(pg_url, "2.0", count=400)
    writers.append(writer)
    assert writer.says() == "mid"
    filled.write_version(version_info("1.0", "d" * 40), [TOO_LONG], FILES)
    assert filled.search_candidates(["PIECEWISE"]) == []

    writer.go_on()
    assert writer.finish() == "done 403 new"
    assert [s.version for s in filled.search_candidates(["PIECEWISE"])] == ["2.0"]
    assert_sound(filled)


def test_a_text_another_writer_holds_is_not_dropped(filled: Store, pg_url: str) -> None:
    import psycopg  # here: without it, the server fixture skips (or fails) with a reason

    with psycopg.connect(pg_url) as holder:  # like a writer reusing every text, uncommitted
        holder.execute("SELECT key FROM search_docs FOR KEY SHARE")
        filled.write_version(version_info("1.0", "d" * 40), [TOO_LONG], FILES)

    conn = filled._conn  # type: ignore[attr-defined]
    assert conn.execute("SELECT count(*) FROM search_docs").fetchone() == (3,)
    assert filled.search_candidates(["PIECEWISE"]) == []
    # The texts left behind still count their words; writing them again reuses them.
    filled.write_version(version_info("2.0"), [PIECEWISE, UNSUPPORTED], FILES)
    assert conn.execute("SELECT count(*) FROM search_docs").fetchone() == (3,)
    assert [s.version for s in filled.search_candidates(["PIECEWISE"])] == ["2.0"]
    assert_sound(filled)
