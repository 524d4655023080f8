"""The SQLite store: one file, WAL, FTS5 search, named migrations."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path
from typing import Any

from errdex.errors import StoreError
from errdex.linked_facts import IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store.base import VersionStats
from errdex.store.contents import PackedFiles
from errdex.store.function_parts import SplitChunk
from errdex.store.migrations import migrate
from errdex.store.rows import match_expression
from errdex.store.sqlbase import Connection, SqlStore
from errdex.store.writing import (
    changing,
    delete_version_rows,
    write_encoded_version,
    write_version,
)

BUSY_SECONDS = 30.0
CACHE_KIB = 64 * 1024  # a version's write fits in the page cache; taken only as needed
# Pages read in place from the file mapped into memory, not copied in by a read() each: a
# cold error page reads its site, its file's text and its neighbours' rows (0.15 of those
# reads' 1.1 ms). Address space only, shared with the OS's cache of the file.
MMAP_BYTES = 1 << 30

# bm25 weights of the search columns: message, reasons, exception.
_BM25 = "bm25(search_text, 1.0, 1.0, 0.5)"
_MAX_COUNTED = 200_000  # tokens whose counts are kept (a catalog's vocabulary is smaller)


class SqliteStore(SqlStore):
    """A `Store` in one SQLite file; safe to share between the threads of one process."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self._vocabulary = False  # temp.search_vocab made on this connection
        # Texts per search token, and all texts, as of a state of the database (`_doc_counts`).
        self._counted: dict[str, int] = {}
        self._total: int | None = None
        self._counted_at: tuple[int, int] | None = None
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the database {path}: {error}") from error
        self._set_up(self._configure, self._conn.close)

    def _configure(self) -> None:
        """Check for FTS5, set the connection up (WAL, foreign keys, cache), migrate."""
        options = {row[0] for row in self._conn.execute("PRAGMA compile_options")}
        if "ENABLE_FTS5" not in options:
            raise StoreError(f"this SQLite ({sqlite3.sqlite_version}) lacks FTS5")
        self._conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        # A new database is made without waiting on the disk: switching a new file to WAL
        # and making its tables waited for six syncs (40 to 120 ms on a plain disk, most
        # of a first answer's wait for its database). It holds nothing a crash could lose:
        # a migration whose commit is lost is made again at the next open, and the first
        # checkpoint (synchronous NORMAL by then) syncs the log before the database file.
        new = self._conn.execute("PRAGMA page_count").fetchone()[0] == 0
        if new:
            self._conn.execute("PRAGMA synchronous = OFF")
        self._use_wal()
        if not new:
            self._conn.execute("PRAGMA synchronous = NORMAL")  # WAL: a crash loses no commit
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self._conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        self._conn.execute(f"PRAGMA journal_size_limit = {CACHE_KIB * 1024}")
        migrate(self._conn)
        if new:
            self._conn.execute("PRAGMA synchronous = NORMAL")

    def _use_wal(self) -> None:
        """Switch to WAL, waiting for others as busy_timeout would.

        Changing the journal mode needs the database to itself, and SQLite answers
        "locked" at once, without the busy handler, while another connection is opening
        the same new file (workers starting together).
        """
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                self._conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    @contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        """Serialise use of the connection and turn SQLite's errors into `StoreError`."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as error:
                raise StoreError(f"database {self._location}: {error}") from error

    # Writing -----------------------------------------------------------------------------

    def write_version(
        self,
        info: VersionInfo,
        sites: Iterable[IndexedSite],
        files: Mapping[str, bytes],
    ) -> VersionStats:
        with self._guard() as conn:
            return write_version(conn, info, sites, files)

    def write_encoded_version(
        self,
        info: VersionInfo,
        chunks: Iterable[SplitChunk],
        files: PackedFiles,
    ) -> VersionStats:
        """`write_version` of sites split and given with their msgpack encoding (`aside`'s
        child)."""
        with self._guard() as conn:
            return write_encoded_version(conn, info, chunks, files)

    def write_version_aside(
        self,
        info: VersionInfo,
        sites: Iterable[IndexedSite],
        files: Mapping[str, bytes],
        meanwhile: Callable[[], None] | None = None,
    ) -> VersionStats:
        if self._location == ":memory:":  # no other process can reach it
            return super().write_version_aside(info, sites, files, meanwhile)
        # Imported here: only a large version's index needs the child (and multiprocessing).
        from errdex.store.aside import write_version_aside

        with self._lock:  # the child may start elsewhere than this process's folder
            path = str(Path(self._location).resolve())
            return write_version_aside(SqliteStore, path, info, sites, files, meanwhile)

    def delete_version(self, project: str, label: str) -> None:
        with self._guard() as conn:
            version_id = self._version_id(conn, project, label)
            with changing(conn):
                delete_version_rows(conn, version_id)

    def close(self) -> None:
        with self._lock:
            # Refresh planner statistics; a closed or read-only store has none to refresh.
            with suppress(sqlite3.Error):
                self._conn.execute("PRAGMA optimize")
            self._conn.close()

    # Helpers -----------------------------------------------------------------------------

    def _changing(self, conn: Connection) -> AbstractContextManager[None]:
        assert conn is self._conn
        return changing(self._conn)

    def _doc_counts(self, conn: Connection, tokens: list[str]) -> tuple[dict[str, int], int]:
        """The texts holding each token (those no text holds left out), and all texts.

        FTS5 counts a token's texts by reading its whole list of postings, and the common
        words of messages come back in lookup after lookup: counts are kept until the
        database changes (`data_version` says another connection wrote; `total_changes`,
        this one)."""
        if not self._vocabulary:
            conn.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab"
                " USING fts5vocab(main, search_text, row)"
            )
            self._vocabulary = True
        (written,) = conn.execute("PRAGMA data_version").fetchone()
        state = (int(written), self._conn.total_changes)
        if state != self._counted_at or len(self._counted) > _MAX_COUNTED:
            self._counted, self._counted_at, self._total = {}, state, None
        missing = [token for token in tokens if token not in self._counted]
        if missing:
            found = dict(
                conn.execute(
                    "SELECT term, doc FROM temp.search_vocab"
                    " WHERE term IN (SELECT value FROM json_each(?))",
                    (json.dumps(missing),),
                ).fetchall()
            )
            self._counted.update((token, int(found.get(token, 0))) for token in missing)
        if self._total is None:
            (total,) = conn.execute("SELECT count(*) FROM search_docs").fetchone()
            self._total = int(total)
        counts = {token: self._counted[token] for token in tokens if self._counted[token]}
        return counts, self._total

    def _best_texts(
        self, terms: list[str], every: bool, counts: dict[str, int], total: int
    ) -> tuple[str, list[Any]] | None:
        expression = match_expression(terms, every=every)
        if expression is None:
            return None
        query = f"SELECT rowid AS doc, {_BM25} AS score FROM search_text"
        return query + " WHERE search_text MATCH ? ORDER BY score", [expression]

    def _texts_raising(self, name: str, *, bare: bool = False) -> tuple[str, list[Any]]:
        # Rowids grow with time: the highest are the newest texts.
        query = "SELECT rowid AS doc FROM search_text WHERE search_text MATCH ?"
        query += " AND message = ''" if bare else ""
        return query + " ORDER BY rowid DESC", [f'exception : "{name}"']
