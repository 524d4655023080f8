"""What the SQLite and PostgreSQL stores share: the same reads over the same schema.

Both schemas have the same tables and columns for everything but full-text search, and the
queries here are written once, with `?` placeholders (the PostgreSQL connection rewrites
them). A backend supplies its connection (`_guard`), writing, search and its word counts.
"""

from __future__ import annotations

import abc
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from errdex.errors import NotFoundError
from errdex.lazy_re import lazy_compile
from errdex.store.base import (
    AnalysisRecord,
    Neighbour,
    ProjectRecord,
    Store,
    StoredSite,
    VersionRecord,
    VersionRef,
    VersionStats,
)
from errdex.store.contents import stored_text, unpack_names, unpack_outline
from errdex.store.migrations import READ_GENERATION
from errdex.store.ordering import newest_first, utc_date
from errdex.store.rows import (
    MAX_TERMS,
    decode_pin,
    decode_scripts,
    decode_stats,
    informative_terms,
    neighbour,
    stored_site,
    term_tokens,
)

# The last column is the site's part (`function_parts`): a subquery, not a join, so that
# it leaves the order of the joins that come after it to the planner.
SITE_COLUMNS = """
    s.data, p.name, v.label, v.revision, v.id, v.link_template, v.date, v.indexed_at,
    (SELECT f.data FROM function_parts f WHERE f.version_id = s.version_id AND f.id = s.parts)
    FROM sites s
    JOIN versions v ON v.id = s.version_id
    JOIN projects p ON p.id = v.project_id
"""
_VERSION_COLUMNS = """
    v.id, p.name, v.label, v.revision, v.date, v.source_kind, v.source, v.link_template,
    v.indexed_at, v.stats, v.console_scripts, v.pin
    FROM versions v JOIN projects p ON p.id = v.project_id
"""
# An exception class's name, as `sites_raising` takes it.
# Sites otherwise tied (one text raised at more sites than a search takes): the newest
# version's first, then the plainest modules (public before private, shallow before deep),
# in path order. The same sites come first from any store holding them, whatever order
# their files were written in: a first answer's subset of a version picks the files of
# such a text in this order too (`match/partial.py`), and so holds the whole's choice.
PLAINEST = (
    "s.version_id DESC,"
    " replace(replace('/' || s.file, '/__init__.py', ''), '/__main__.py', '')"
    r" LIKE '%/\_%' ESCAPE '\',"
    " length(s.file) - length(replace(s.file, '/', '')), s.file, s.line"
)
IDENTIFIER = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]{0,200}")
_ANALYSIS_KEYS = ("error_id", "revision", "model", "prompt_version", "status", "body", "reason")
# Both SQLite (3.24+) and PostgreSQL take this upsert.
_PUT_ANALYSIS = """
    INSERT INTO analyses (error_id, revision, model, prompt_version, status, body, reason,
                          created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (error_id, revision, model, prompt_version) DO UPDATE SET
        status = excluded.status, body = excluded.body, reason = excluded.reason,
        created_at = excluded.created_at
"""


def text_limit(limit: int, project: str | None, version: str | None) -> int:
    """How many search texts to take for `limit` sites: a scoped search cannot know how many
    texts fall outside its scope, so it looks wider."""
    return limit if project is None and version is None else limit * 20


class Cursor(Protocol):
    """The part of a DB-API cursor the shared queries use."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """The part of a connection the shared queries use: `execute` with `?` placeholders."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor: ...


class SqlStore(Store):
    """The methods a `Store` over errdex's SQL schema implements the same on any backend.

    Projects are named case-insensitively (the schema's collation of `projects.name`).
    """

    _TEXT_KEY = "search_id"  # the column of `sites` naming its search text
    # the test that a site's stored facts (`s.data`, bytes) hold the bytes given
    _HOLDING = "instr(s.data, ?) > 0"

    def __init__(self, location: str) -> None:
        self._lock = threading.RLock()
        self._location = location

    @property
    def location(self) -> str:
        return self._location

    def _set_up(self, steps: Callable[[], object], close: Callable[[], object]) -> None:
        """Run `steps` (configure, migrate) on a new connection under the guard; if they fail,
        `close` it before the error leaves."""
        try:
            with self._guard():
                steps()
        except BaseException:
            close()
            raise

    @abc.abstractmethod
    def _guard(self) -> AbstractContextManager[Connection]:
        """Hold the connection for one operation; backend errors leave as `StoreError`."""

    @abc.abstractmethod
    def _changing(self, conn: Connection) -> AbstractContextManager[None]:
        """One write transaction on `conn` that bumps the generation as it commits, and
        leaves nothing of itself (the bump included) when its block raises."""

    @abc.abstractmethod
    def _doc_counts(self, conn: Connection, tokens: list[str]) -> tuple[dict[str, int], int]:
        """How many search texts hold each token, and how many texts there are."""

    @abc.abstractmethod
    def _best_texts(
        self, terms: list[str], every: bool, counts: dict[str, int], total: int
    ) -> tuple[str, list[Any]] | None:
        """A query of the search texts holding any (with `every`, each) of `terms` as quoted
        phrases, as `doc` and `score` (lowest best), best first, and its arguments; None
        when no term can match. `counts` and `total` are `_doc_counts`' answer."""

    @abc.abstractmethod
    def _texts_raising(self, name: str, *, bare: bool = False) -> tuple[str, list[Any]]:
        """A query of the search texts whose exception names hold `name` (an identifier), as
        `doc`, newest first, and its arguments; with `bare`, only texts with no words of a
        message."""

    # Writing -----------------------------------------------------------------------------

    def has_version(self, project: str, label: str, revision: str) -> bool:
        with self._guard() as conn:
            row = conn.execute(
                "SELECT 1 FROM versions v JOIN projects p ON p.id = v.project_id"
                " WHERE p.name = ? AND v.label = ? AND v.revision = ?",
                (project, label, revision),
            ).fetchone()
            return row is not None

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

    def public_path_of(self, version_id: int, name: str) -> str | None:
        if not name.isidentifier():
            return None
        with self._guard() as conn:
            # `LIKE` reads `_` as any character: the prefix is checked again below
            rows = conn.execute(
                f"SELECT {SITE_COLUMNS} WHERE s.version_id = ?"
                " AND (s.function = ? OR s.function LIKE ?) LIMIT 20",
                (version_id, name, f"{name}.%"),
            ).fetchall()
        for row in rows:
            site = stored_site(row)
            function = site.site.function
            path = site.public_path()
            if path is None or not (function == name or function.startswith(f"{name}.")):
                continue
            if path.endswith(function) and path[: -len(function)].endswith("."):
                return path[: -len(function)] + name
        return None

    def class_sites(self, version_id: int, name: str) -> list[StoredSite]:
        if not name.isidentifier():
            return []
        with self._guard() as conn:
            # `LIKE` reads `_` as any character: the prefix is checked again below
            rows = conn.execute(
                f"SELECT {SITE_COLUMNS} WHERE s.version_id = ? AND s.function LIKE ?",
                (version_id, f"{name}.%"),
            ).fetchall()
        sites = [stored_site(row) for row in rows]
        return [s for s in sites if s.site.function.startswith(f"{name}.")]

    def sites_naming(self, version_id: int, name: str) -> list[StoredSite]:
        if not name.replace("-", "_").isidentifier():
            return []
        with self._guard() as conn:
            rows = conn.execute(
                f"SELECT {SITE_COLUMNS} WHERE s.version_id = ? AND {self._HOLDING}",
                (version_id, name.encode()),
            ).fetchall()
        return [stored_site(row) for row in rows]

    def defined_names(self, version_id: int) -> frozenset[str]:
        with self._guard() as conn:
            row = conn.execute(
                "SELECT defined_names FROM versions WHERE id = ?", (version_id,)
            ).fetchone()
        return unpack_names(row[0]) if row is not None else frozenset()

    def versions(self, project: str) -> list[VersionRecord]:
        with self._guard() as conn:
            project_id = self._project_id(conn, project)
            rows = conn.execute(
                f"SELECT {_VERSION_COLUMNS} WHERE v.project_id = ?", (project_id,)
            ).fetchall()
        records = [_version_record(row) for row in rows]
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
                if limit is not None and len(found) >= limit:
                    break
                query = f"SELECT {SITE_COLUMNS} WHERE s.version_id = ?"
                args: list[Any] = [record.id]
                if file is not None:
                    query += " AND s.file = ?"
                    args.append(file)
                query += " ORDER BY s.file, s.line, s.id"
                if limit is not None:
                    query += " LIMIT ?"
                    args.append(limit - len(found))
                rows = conn.execute(query, args).fetchall()
                found.extend(stored_site(row) for row in rows)
        return found

    def neighbours(self, version_id: int, file: str) -> list[Neighbour]:
        with self._guard() as conn:
            rows = conn.execute(
                "SELECT s.data, s.line, s.function, s.message FROM sites s"
                " WHERE s.version_id = ? AND s.file = ? ORDER BY s.line, s.id",
                (version_id, file),
            ).fetchall()
        return [neighbour(row) for row in rows]

    def get_error(self, error_id: str) -> list[StoredSite]:
        with self._guard() as conn:
            rows = conn.execute(
                f"SELECT {SITE_COLUMNS} WHERE s.error_id = ? ORDER BY s.line, s.id",
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
            if isinstance(version, tuple):
                version_id = self._version_id(conn, *version)
            else:
                version_id = version
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
        return stored_text(bytes(row[0]))

    def kept_paths(self, version_id: int, folder: str) -> tuple[str, ...]:
        # compared as a prefix, not as a range: a collation may order `/` apart
        with self._guard() as conn:
            rows = conn.execute(
                "SELECT path FROM files WHERE version_id = ? AND substr(path, 1, ?) = ?"
                " ORDER BY path",
                (version_id, len(folder), folder),
            ).fetchall()
        return tuple(p for (p,) in rows if "/" not in p[len(folder) :])

    def version_paths(self, version_id: int) -> tuple[str, ...]:
        with self._guard() as conn:
            rows = conn.execute(
                "SELECT path FROM files WHERE version_id = ? ORDER BY path", (version_id,)
            ).fetchall()
        return tuple(p for (p,) in rows)

    def file_outline(self, version_id: int, path: str) -> tuple[int, ...] | None:
        with self._guard() as conn:
            row = conn.execute(
                "SELECT b.outline FROM files f JOIN blobs b ON b.hash = f.hash"
                " WHERE f.version_id = ? AND f.path = ?",
                (version_id, path),
            ).fetchone()
        return unpack_outline(row[0]) if row is not None else None

    def search_candidates(
        self,
        terms: Sequence[str],
        project: str | None = None,
        version: str | None = None,
        limit: int = 200,
        rarest: int | None = None,
    ) -> list[StoredSite]:
        with self._guard() as conn:
            informative, counts, total = self._informative(conn, terms)
            if rarest is not None:  # only texts holding each of the rarest terms
                texts = self._best_texts(informative[:rarest], True, counts, total)
            else:
                texts = self._best_texts(informative, False, counts, total)
            scope = self._scope(conn, project, version)
            if texts is None or limit <= 0:
                return []
            query, args = texts
            args.append(text_limit(limit, project, version))
            return self._sites_of(conn, query, args, scope, f"hit.score, {PLAINEST}", limit)

    def sites_raising(
        self,
        name: str,
        project: str | None = None,
        version: str | None = None,
        limit: int = 200,
        *,
        bare: bool = False,
        computed: bool = False,
    ) -> list[StoredSite]:
        short = name.rsplit(".", 1)[-1]
        if not IDENTIFIER.fullmatch(short):
            return []
        with self._guard() as conn:
            where, scoped = self._scope(conn, project, version)
            query, args = self._texts_raising(short, bare=bare or computed)
            args.append(text_limit(limit, project, version))
            if not (bare or computed):
                return self._sites_of(conn, query, args, (where, scoped), PLAINEST, limit)
            # A text without a message is shared by every bare raise of the class: thousands
            # in a catalog. The first of each version, then the second, ...: every project
            # is among the candidates, not the version indexed last alone. A message of
            # values alone (`raise KeyError(key)`) shares the text of no words too.
            spread = "row_number() OVER (PARTITION BY s.version_id ORDER BY s.id), s.id DESC"
            which = "= ''" if bare else "<> ''"
            bare_scope = (f"{where} AND coalesce(s.message, '') {which}", scoped)
            return self._sites_of(conn, query, args, bare_scope, spread, limit)

    def sites_of_kind(
        self, kind: str, project: str, version: str | None = None, limit: int = 2000
    ) -> list[StoredSite]:
        with self._guard() as conn:
            scope, args = self._scope(conn, project, version)
            rows = conn.execute(
                f"SELECT {SITE_COLUMNS} WHERE s.kind = ?{scope} ORDER BY s.id DESC LIMIT ?",
                [kind, *args, limit],
            ).fetchall()
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
            query = f"SELECT {SITE_COLUMNS} WHERE s.file IN ({marks})"
            args: list[Any] = list(wanted)
            if line is not None:
                query += " AND s.line <= ? AND s.end_line >= ?"
                args.extend((line, line))
            scope, scope_args = self._scope(conn, project, version)
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
                (self._version_id(conn, project, version),),
            ).fetchone()
        return decode_stats(row[0])

    def generation(self) -> str:
        with self._guard() as conn:
            instance, number = conn.execute(READ_GENERATION).fetchone()
        return f"{instance}.{number}"

    # Model analyses ----------------------------------------------------------------------

    def put_analysis(self, record: AnalysisRecord) -> None:
        values = [getattr(record, key) for key in _ANALYSIS_KEYS]
        with self._guard() as conn, self._changing(conn):
            conn.execute(_PUT_ANALYSIS, [*values, record.created_at])

    def get_analysis(
        self,
        error_id: str,
        revision: str,
        model: str | None = None,
        prompt_version: str | None = None,
    ) -> AnalysisRecord | None:
        query = (
            f"SELECT {', '.join(_ANALYSIS_KEYS)}, created_at"
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
        return AnalysisRecord(**dict(zip(_ANALYSIS_KEYS, row[:7], strict=True)), created_at=row[7])

    def analysed_errors(self, revision: str, model: str, prompt_version: str) -> set[str]:
        with self._guard() as conn:
            rows = conn.execute(
                "SELECT error_id FROM analyses WHERE revision = ? AND model = ?"
                " AND prompt_version = ?",
                (revision, model, prompt_version),
            ).fetchall()
        return {row[0] for row in rows}

    # Helpers -----------------------------------------------------------------------------

    def _project_id(self, conn: Connection, name: str) -> int:
        row = conn.execute("SELECT id FROM projects WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise NotFoundError(f"no project named {name!r}")
        return int(row[0])

    def _version_id(self, conn: Connection, project: str, label: str) -> int:
        row = conn.execute(
            "SELECT id FROM versions WHERE project_id = ? AND label = ?",
            (self._project_id(conn, project), label),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no version {label!r} of {project}")
        return int(row[0])

    def _check_label(self, conn: Connection, project: str | None, label: str) -> None:
        if project is not None:
            self._version_id(conn, project, label)
        elif conn.execute("SELECT 1 FROM versions WHERE label = ?", (label,)).fetchone() is None:
            raise NotFoundError(f"no version {label!r}")

    def _scope(
        self, conn: Connection, project: str | None, version: str | None
    ) -> tuple[str, list[Any]]:
        """SQL restricting sites to a project and a version label (NotFoundError if unknown)."""
        sql = ""
        args: list[Any] = []
        if project is not None:
            sql += " AND p.id = ?"
            args.append(self._project_id(conn, project))
        if version is not None:
            self._check_label(conn, project, version)
            sql += " AND v.label = ?"
            args.append(version)
        return sql, args

    def _sites_of(
        self,
        conn: Connection,
        texts: str,
        args: list[Any],
        scope: tuple[str, list[Any]],
        order: str,
        limit: int,
    ) -> list[StoredSite]:
        """The sites carrying the texts `texts` selects (its LIMIT the last of `args`), in
        `scope`. The texts are found (and scored) once, before any site: a text is shared
        by every version that has the same message."""
        query = (
            f"WITH hit AS MATERIALIZED ({texts} LIMIT ?)"
            f" SELECT {SITE_COLUMNS} JOIN hit ON hit.doc = s.{self._TEXT_KEY}"
            f" WHERE 1 = 1{scope[0]} ORDER BY {order} LIMIT ?"
        )
        rows = conn.execute(query, [*args, *scope[1], limit]).fetchall()
        return [stored_site(row) for row in rows]

    def _informative(
        self, conn: Connection, terms: Sequence[str]
    ) -> tuple[list[str], dict[str, int], int]:
        """The terms without those too common to rank by (see `informative_terms`), with
        the counts they were chosen by: texts holding each token, and all texts."""
        tokens = sorted({t for term in terms[:MAX_TERMS] for t in term_tokens(term)})
        if not tokens:
            return list(terms), {}, 0
        counts, total = self._doc_counts(conn, tokens)
        return informative_terms(terms[:MAX_TERMS], counts, total), counts, total


def _version_record(row: tuple[Any, ...]) -> VersionRecord:
    id_, project, label, revision, date, kind, source, link, indexed_at, stats, scripts, pin = row
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
        entry_points=decode_scripts(scripts),
        pin=decode_pin(pin),
    )
