"""The SQLite store: one file, WAL, FTS5 search, named migrations."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from errdex.errors import NotFoundError, StoreError
from errdex.facts import IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store.base import (
    AnalysisRecord,
    ProjectRecord,
    Store,
    StoredSite,
    VersionRecord,
    VersionRef,
    VersionStats,
)
from errdex.store.migrations import migrate
from errdex.store.ordering import newest_first, utc_date
from errdex.store.rows import (
    MAX_TERMS,
    decode_source,
    decode_stats,
    informative_terms,
    match_expression,
    stored_site,
    term_tokens,
)
from errdex.store.writing import delete_version_rows, write_version

BUSY_SECONDS = 30.0
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,200}")
CACHE_KIB = 64 * 1024  # a version's write fits in the page cache; taken only as needed

_SITE_COLUMNS = """
    s.data, p.name, v.label, v.revision, v.id, v.link_template, v.date, v.indexed_at
    FROM sites s
    JOIN versions v ON v.id = s.version_id
    JOIN projects p ON p.id = v.project_id
"""
_VERSION_COLUMNS = """
    v.id, p.name, v.label, v.revision, v.date, v.source_kind, v.source, v.link_template,
    v.indexed_at, v.stats
    FROM versions v JOIN projects p ON p.id = v.project_id
"""
# bm25 weights of the search columns: message, reasons, exception.
_BM25 = "bm25(search_text, 1.0, 1.0, 0.5)"


class SqliteStore(Store):
    """A `Store` in one SQLite file; safe to share between the threads of one process."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._lock = threading.RLock()
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

    def has_version(self, project: str, label: str, revision: str) -> bool:
        with self._guard() as conn:
            row = conn.execute(
                "SELECT 1 FROM versions v JOIN projects p ON p.id = v.project_id"
                " WHERE p.name = ? AND v.label = ? AND v.revision = ?",
                (project, label, revision),
            ).fetchone()
            return row is not None

    def delete_version(self, project: str, label: str) -> None:
        with self._guard() as conn:
            version_id = self._version_id(project, label)
            conn.execute("BEGIN IMMEDIATE")
            try:
                delete_version_rows(conn, version_id)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    # Reading -----------------------------------------------------------------------------

    def projects(self) -> list[ProjectRecord]:
        with self._guard() as conn:
            rows = conn.execute(
                "SELECT p.name, p.tracker_url, p.homepage, count(v.id)"
                " FROM projects p LEFT JOIN versions v ON v.project_id = p.id"
                " GROUP BY p.id ORDER BY p.name"
            ).fetchall()
        return [
            ProjectRecord(name=name, tracker_url=tracker, homepage=home, versions=count)
            for name, tracker, home, count in rows
        ]

    def versions(self, project: str) -> list[VersionRecord]:
        with self._guard() as conn:
            project_id = self._project_id(project)
            rows = conn.execute(
                f"SELECT {_VERSION_COLUMNS} WHERE v.project_id = ?", (project_id,)
            ).fetchall()
        records = [self._version_record(row) for row in rows]
        return newest_first(records, lambda r: r.label, lambda r: utc_date(r.date, r.indexed_at))

    def list_sites(
        self,
        project: str | None = None,
        version: str | None = None,
        file: str | None = None,
        limit: int | None = None,
    ) -> list[StoredSite]:
        names = [project] if project is not None else [p.name for p in self.projects()]
        scopes = [
            record
            for name in names
            for record in self.versions(name)
            if version is None or record.label == version
        ]
        if version is not None and not scopes:
            raise NotFoundError(f"no version {version!r}" + (f" of {project}" if project else ""))
        found: list[StoredSite] = []
        with self._guard() as conn:
            for record in scopes:
                remaining = -1 if limit is None else limit - len(found)
                if remaining == 0:
                    break
                query = f"SELECT {_SITE_COLUMNS} WHERE s.version_id = ?"
                args: list[Any] = [record.id]
                if file is not None:
                    query += " AND s.file = ?"
                    args.append(file)
                query += " ORDER BY s.file, s.line, s.id LIMIT ?"
                rows = conn.execute(query, [*args, remaining]).fetchall()
                found.extend(stored_site(row) for row in rows)
        return found

    def get_error(self, error_id: str) -> list[StoredSite]:
        with self._guard() as conn:
            rows = conn.execute(
                f"SELECT {_SITE_COLUMNS} WHERE s.error_id = ? ORDER BY s.line, s.id",
                (error_id,),
            ).fetchall()
        if not rows:
            raise NotFoundError(f"no error with id {error_id!r}")
        # One entry per version (row index 4), in version order; rows of a version by line.
        order = newest_first(
            list({row[4]: row for row in reversed(rows)}.values()),
            lambda row: row[2],
            lambda row: utc_date(row[6], row[7]),
        )
        rank = {row[4]: index for index, row in enumerate(order)}
        return [stored_site(row) for row in sorted(rows, key=lambda row: rank[row[4]])]

    def file_text(self, version: VersionRef, path: str) -> str | None:
        with self._guard() as conn:
            version_id = self._version_id(*version) if isinstance(version, tuple) else version
            if (
                conn.execute("SELECT 1 FROM versions WHERE id = ?", (version_id,)).fetchone()
                is None
            ):
                raise NotFoundError(f"no version with id {version_id}")
            row = conn.execute(
                "SELECT b.text FROM files f JOIN blobs b ON b.hash = f.hash"
                " WHERE f.version_id = ? AND f.path = ?",
                (version_id, path),
            ).fetchone()
        if row is None:
            return None
        return decode_source(zlib.decompress(row[0]))

    def search_candidates(
        self,
        terms: Sequence[str],
        project: str | None = None,
        version: str | None = None,
        limit: int = 200,
        rarest: int | None = None,
    ) -> list[StoredSite]:
        with self._guard() as conn:
            informative = self._informative(terms)
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
                f" SELECT {_SITE_COLUMNS} JOIN hit ON hit.doc = s.search_id WHERE 1"
            )
            # Scoped searches cannot know how many texts fall outside the scope: look wider.
            texts = limit if project is None and version is None else limit * 20
            args: list[Any] = [expression, texts]
            scope, scope_args = self._scope(project, version)
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
        if not _IDENTIFIER.fullmatch(short):
            return []
        with self._guard() as conn:
            # The newest texts naming the class (rowids grow with time), a bounded number.
            query = (
                "WITH hit AS MATERIALIZED ("
                " SELECT rowid AS doc FROM search_text WHERE search_text MATCH ?"
                " ORDER BY rowid DESC LIMIT ?)"
                f" SELECT {_SITE_COLUMNS} JOIN hit ON hit.doc = s.search_id WHERE 1"
            )
            scoped = project is not None or version is not None
            args: list[Any] = [f'exception : "{short}"', limit * (20 if scoped else 1)]
            scope, scope_args = self._scope(project, version)
            query += scope
            args.extend(scope_args)
            rows = conn.execute(query + " ORDER BY s.id DESC LIMIT ?", [*args, limit]).fetchall()
            return [stored_site(row) for row in rows]

    def sites_in_files(
        self,
        paths: Sequence[str],
        line: int | None = None,
        project: str | None = None,
        version: str | None = None,
    ) -> list[StoredSite]:
        wanted = list(dict.fromkeys(paths))[:200]
        if not wanted:
            return []
        with self._guard() as conn:
            marks = ",".join("?" * len(wanted))
            query = f"SELECT {_SITE_COLUMNS} WHERE s.file IN ({marks})"
            args: list[Any] = list(wanted)
            if line is not None:
                query += " AND s.line <= ? AND s.end_line >= ?"
                args.extend((line, line))
            scope, scope_args = self._scope(project, version)
            query += scope
            args.extend(scope_args)
            rows = conn.execute(query + " ORDER BY s.file, s.line", args).fetchall()
            return [stored_site(row) for row in rows]

    def stats(self, project: str, version: str | None = None) -> VersionStats:
        if version is None:
            records = self.versions(project)
            if not records:
                raise NotFoundError(f"project {project} has no versions")
            return records[0].stats
        with self._guard() as conn:
            row = conn.execute(
                "SELECT v.stats FROM versions v WHERE v.id = ?",
                (self._version_id(project, version),),
            ).fetchone()
        return decode_stats(row[0])

    def put_analysis(self, record: AnalysisRecord) -> None:
        with self._guard() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO analyses (error_id, revision, model, prompt_version,"
                " status, body, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.error_id,
                    record.revision,
                    record.model,
                    record.prompt_version,
                    record.status,
                    record.body,
                    record.reason,
                    record.created_at,
                ),
            )

    def get_analysis(
        self,
        error_id: str,
        revision: str,
        model: str | None = None,
        prompt_version: str | None = None,
    ) -> AnalysisRecord | None:
        query = (
            "SELECT error_id, revision, model, prompt_version, status, body, reason, created_at"
            " FROM analyses WHERE error_id = ? AND revision = ?"
        )
        args: list[Any] = [error_id, revision]
        if model is not None:
            query += " AND model = ?"
            args.append(model)
        else:
            query += " AND status = 'ok'"
        if prompt_version is not None:
            query += " AND prompt_version = ?"
            args.append(prompt_version)
        with self._guard() as conn:
            row = conn.execute(query + " ORDER BY created_at DESC LIMIT 1", args).fetchone()
        if row is None:
            return None
        keys = ("error_id", "revision", "model", "prompt_version", "status", "body", "reason")
        return AnalysisRecord(**dict(zip(keys, row[:7], strict=True)), created_at=row[7])

    def analysed_errors(self, revision: str, model: str, prompt_version: str) -> set[str]:
        with self._guard() as conn:
            rows = conn.execute(
                "SELECT error_id FROM analyses WHERE revision = ? AND model = ?"
                " AND prompt_version = ?",
                (revision, model, prompt_version),
            ).fetchall()
        return {row[0] for row in rows}

    def close(self) -> None:
        with self._lock:
            # Refresh planner statistics; a closed or read-only store has none to refresh.
            with suppress(sqlite3.Error):
                self._conn.execute("PRAGMA optimize")
            self._conn.close()

    # Helpers -----------------------------------------------------------------------------

    def _project_id(self, name: str) -> int:
        row = self._conn.execute("SELECT id FROM projects WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise NotFoundError(f"no project named {name!r}")
        return int(row[0])

    def _version_id(self, project: str, label: str) -> int:
        row = self._conn.execute(
            "SELECT id FROM versions WHERE project_id = ? AND label = ?",
            (self._project_id(project), label),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no version {label!r} of {project}")
        return int(row[0])

    def _check_label(self, project: str | None, label: str) -> None:
        if project is not None:
            self._version_id(project, label)
        elif (
            self._conn.execute("SELECT 1 FROM versions WHERE label = ?", (label,)).fetchone()
            is None
        ):
            raise NotFoundError(f"no version {label!r}")

    def _scope(self, project: str | None, version: str | None) -> tuple[str, list[Any]]:
        """SQL restricting sites to a project and a version label (NotFoundError if unknown)."""
        sql = ""
        args: list[Any] = []
        if project is not None:
            sql += " AND p.id = ?"
            args.append(self._project_id(project))
        if version is not None:
            self._check_label(project, version)
            sql += " AND v.label = ?"
            args.append(version)
        return sql, args

    def _informative(self, terms: Sequence[str]) -> list[str]:
        """Drop the terms too common to rank by (see `informative_terms`)."""
        tokens = sorted({t for term in terms[:MAX_TERMS] for t in term_tokens(term)})
        if not tokens:
            return list(terms)
        if not self._vocabulary:
            self._conn.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab"
                " USING fts5vocab(main, search_text, row)"
            )
            self._vocabulary = True
        counts = dict(
            self._conn.execute(
                "SELECT term, doc FROM temp.search_vocab"
                " WHERE term IN (SELECT value FROM json_each(?))",
                (json.dumps(tokens),),
            ).fetchall()
        )
        (total,) = self._conn.execute("SELECT count(*) FROM search_docs").fetchone()
        return informative_terms(terms[:MAX_TERMS], counts, total)

    def _version_record(self, row: tuple[Any, ...]) -> VersionRecord:
        id_, project, label, revision, date, kind, source, link, indexed_at, stats = row
        return VersionRecord(
            id=id_,
            project=project,
            label=label,
            revision=revision,
            date=date,
            source_kind=kind,
            source=source,
            link_template=link,
            indexed_at=indexed_at,
            stats=decode_stats(stats),
        )
