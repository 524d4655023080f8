"""The SQLite store: one file, WAL, FTS5 search, named migrations."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from errdex.errors import StoreError
from errdex.facts import IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store.base import StoredSite, VersionStats
from errdex.store.migrations import migrate
from errdex.store.rows import match_expression, stored_site
from errdex.store.sqlbase import IDENTIFIER, SITE_COLUMNS, Connection, SqlStore, text_limit
from errdex.store.writing import delete_version_rows, write_version

BUSY_SECONDS = 30.0
CACHE_KIB = 64 * 1024  # a version's write fits in the page cache; taken only as needed

# bm25 weights of the search columns: message, reasons, exception.
_BM25 = "bm25(search_text, 1.0, 1.0, 0.5)"


class SqliteStore(SqlStore):
    """A `Store` in one SQLite file; safe to share between the threads of one process."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self._path = path
        self._vocabulary = False  # temp.search_vocab made on this connection
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the database {path}: {error}") from error
        try:
            with self._guard():
                self._configure()
                migrate(self._conn)
        except BaseException:
            self._conn.close()
            raise

    @property
    def location(self) -> str:
        return self._path

    def _configure(self) -> None:
        options = {row[0] for row in self._conn.execute("PRAGMA compile_options")}
        if "ENABLE_FTS5" not in options:
            raise StoreError(f"this SQLite ({sqlite3.sqlite_version}) lacks FTS5")
        self._conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = NORMAL")  # WAL: a crash loses no commit
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self._conn.execute(f"PRAGMA journal_size_limit = {CACHE_KIB * 1024}")

    @contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        """Serialise use of the connection and turn SQLite's errors into `StoreError`."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as error:
                raise StoreError(f"database {self._path}: {error}") from error

    # Writing -----------------------------------------------------------------------------

    def write_version(
        self,
        info: VersionInfo,
        sites: Iterable[IndexedSite],
        files: Mapping[str, bytes],
    ) -> VersionStats:
        with self._guard() as conn:
            return write_version(conn, info, sites, files)

    def delete_version(self, project: str, label: str) -> None:
        with self._guard() as conn:
            version_id = self._version_id(conn, project, label)
            conn.execute("BEGIN IMMEDIATE")
            try:
                delete_version_rows(conn, version_id)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    # Reading -----------------------------------------------------------------------------

    def search_candidates(
        self,
        terms: Sequence[str],
        project: str | None = None,
        version: str | None = None,
        limit: int = 200,
        rarest: int | None = None,
    ) -> list[StoredSite]:
        with self._guard() as conn:
            informative, _, _ = self._informative(conn, terms)
            if rarest is not None:  # only texts holding each of the rarest terms
                expression = match_expression(informative[:rarest], every=True)
            else:
                expression = match_expression(informative)
            # The best texts first (materialized, scored once), then the sites that carry
            # them, in scope: a text is shared by every version that has the same message.
            query = (
                "WITH hit AS MATERIALIZED ("
                f" SELECT rowid AS doc, {_BM25} AS score FROM search_text"
                " WHERE search_text MATCH ? ORDER BY score LIMIT ?)"
                f" SELECT {SITE_COLUMNS} JOIN hit ON hit.doc = s.search_id WHERE 1"
            )
            # Scoped searches cannot know how many texts fall outside the scope: look wider.
            args: list[Any] = [expression, text_limit(limit, project, version)]
            scope, scope_args = self._scope(conn, project, version)
            query += scope
            args.extend(scope_args)
            if expression is None or limit <= 0:
                return []
            query += " ORDER BY hit.score, s.id DESC LIMIT ?"
            rows = conn.execute(query, [*args, limit]).fetchall()
            return [stored_site(row) for row in rows]

    def sites_raising(
        self,
        name: str,
        project: str | None = None,
        version: str | None = None,
        limit: int = 200,
    ) -> list[StoredSite]:
        short = name.rsplit(".", 1)[-1]
        if not IDENTIFIER.fullmatch(short):
            return []
        with self._guard() as conn:
            # The newest texts naming the class (rowids grow with time), a bounded number.
            query = (
                "WITH hit AS MATERIALIZED ("
                " SELECT rowid AS doc FROM search_text WHERE search_text MATCH ?"
                " ORDER BY rowid DESC LIMIT ?)"
                f" SELECT {SITE_COLUMNS} JOIN hit ON hit.doc = s.search_id WHERE 1"
            )
            args: list[Any] = [f'exception : "{short}"', text_limit(limit, project, version)]
            scope, scope_args = self._scope(conn, project, version)
            query += scope
            args.extend(scope_args)
            rows = conn.execute(query + " ORDER BY s.id DESC LIMIT ?", [*args, limit]).fetchall()
            return [stored_site(row) for row in rows]

    def close(self) -> None:
        with self._lock:
            # Refresh planner statistics; a closed or read-only store has none to refresh.
            with suppress(sqlite3.Error):
                self._conn.execute("PRAGMA optimize")
            self._conn.close()

    # Helpers -----------------------------------------------------------------------------

    def _doc_counts(self, conn: Connection, tokens: list[str]) -> tuple[dict[str, int], int]:
        if not self._vocabulary:
            conn.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab"
                " USING fts5vocab(main, search_text, row)"
            )
            self._vocabulary = True
        counts = dict(
            conn.execute(
                "SELECT term, doc FROM temp.search_vocab"
                " WHERE term IN (SELECT value FROM json_each(?))",
                (json.dumps(tokens),),
            ).fetchall()
        )
        (total,) = conn.execute("SELECT count(*) FROM search_docs").fetchone()
        return counts, int(total)
