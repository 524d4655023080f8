"""The PostgreSQL store: the shared store for many processes and machines.

The same tables and reads as the SQLite store (`store/sqlbase.py`); its own writing
(`writing.py`, concurrent writers), schema (`schema.py`) and full-text search
(`textsearch.py`). Needs psycopg 3 (`errdex[postgres]`) and PostgreSQL 12 or newer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg

from errdex.errors import ConnectionLostError, NotFoundError, StoreError
from errdex.linked_facts import IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store.base import VersionStats
from errdex.store.postgres import shared, writing
from errdex.store.postgres.connect import QmarkConnection, connect, location, one_line
from errdex.store.postgres.schema import migrate
from errdex.store.postgres.textsearch import (
    RANK_WEIGHTS,
    exception_query,
    idf,
    phrase_query,
)
from errdex.store.rows import search_phrases
from errdex.store.sqlbase import Connection, SqlStore

__all__ = ["PostgresStore"]

# Each term's rank (weights per field, normalised by the text's length) times its idf,
# summed; negated, so that the lowest score is the best, as bm25's in SQLite.
_BEST_TEXTS = """
    SELECT d.key AS doc, -(
        SELECT sum(t.weight * ts_rank(?::float4[], d.words, t.query, 1))
        FROM unnest(?::tsquery[], ?::float8[]) AS t(query, weight)
    ) AS score
    FROM search_docs d WHERE d.words @@ ?::tsquery
    ORDER BY score, d.added DESC
"""


class PostgresStore(SqlStore):
    """A `Store` in a PostgreSQL database; safe to share between the threads of one process.

    The connection is in autocommit mode: each read stands alone, each write is one
    transaction. A connection the server dropped is opened again on the next call.
    """

    _TEXT_KEY = "search_key"
    _HOLDING = "position(? in s.data) > 0"

    def __init__(self, url: str) -> None:
        super().__init__(location(url))
        self._url = url
        self._open()

    def _open(self) -> None:
        self._raw = connect(self._url)
        self._conn = QmarkConnection(self._raw)
        self._set_up(lambda: migrate(self._raw), self._raw.close)

    @contextmanager
    def _guard(self) -> Iterator[QmarkConnection]:
        """Serialise use of the connection and turn psycopg's errors into `StoreError`."""
        with self._lock:
            if self._raw.broken:
                self._open()
            try:
                yield self._conn
            except psycopg.Error as error:
                # A dropped connection is broken now: the next use opens a new one.
                kind = ConnectionLostError if self._raw.broken else StoreError
                raise kind(f"database {self._location}: {one_line(error, self._url)}") from error

    # Writing -----------------------------------------------------------------------------

    def write_version(
        self,
        info: VersionInfo,
        sites: Iterable[IndexedSite],
        files: Mapping[str, bytes],
    ) -> VersionStats:
        with self._guard() as conn:
            stats = writing.write_version(conn.raw, info, sites, files)
            writing.refresh_statistics(conn.raw, stats.sites)
            return stats

    def delete_version(self, project: str, label: str) -> None:
        with self._guard() as conn:
            if not writing.delete_version(conn.raw, self._project_id(conn, project), label):
                raise NotFoundError(f"no version {label!r} of {project}")

    def close(self) -> None:
        with self._lock:
            self._raw.close()

    # Helpers -----------------------------------------------------------------------------

    def _changing(self, conn: Connection) -> AbstractContextManager[None]:
        assert conn is self._conn
        return writing.changing(self._raw)

    def _doc_counts(self, conn: Connection, tokens: list[str]) -> tuple[dict[str, int], int]:
        rows = conn.execute(
            "SELECT term, docs FROM search_vocab WHERE term = ANY(?)", ([*tokens, shared.TOTAL],)
        ).fetchall()
        counts = {str(term): int(docs) for term, docs in rows}
        return counts, counts.pop(shared.TOTAL, 0)

    def _best_texts(
        self, terms: list[str], every: bool, counts: dict[str, int], total: int
    ) -> tuple[str, list[Any]] | None:
        weighed = {
            q: idf(p, counts, total) for p in search_phrases(terms) if (q := phrase_query(p))
        }
        if not weighed:
            return None
        joined = (" & " if every else " | ").join(weighed)
        return _BEST_TEXTS, [RANK_WEIGHTS, list(weighed), list(weighed.values()), joined]

    def _texts_raising(self, name: str, *, bare: bool = False) -> tuple[str, list[Any]]:
        query = "SELECT d.key AS doc FROM search_docs d WHERE d.words @@ ?::tsquery"
        # A message's words carry the first weight (`FIELD_WEIGHTS`): none, no message.
        query += " AND length(ts_filter(d.words, '{a}')) = 0" if bare else ""
        return query + " ORDER BY d.added DESC", [exception_query(name)]
