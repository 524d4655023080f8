"""Writing one version into PostgreSQL as a single transaction that replaces its earlier
index, while other processes write other versions.

Writers of the same version take turns on an advisory lock keyed by (project, label), backed
by the unique (project, label) constraint. Writers of different versions run at once: a
version's own rows (its version row, sites and files) go first, then the rows versions
share (`shared.py`). Only a project's first version makes its other writers wait for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

import msgspec

from errdex.linked_facts import IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store.base import VersionStats
from errdex.store.contents import content_hashes
from errdex.store.function_parts import SplitChunk, split_chunks
from errdex.store.migrations import BUMP_GENERATION
from errdex.store.postgres import shared
from errdex.store.postgres.connect import RawConnection, pg_text
from errdex.store.rows import search_fields, site_columns, text_key, version_columns
from errdex.store.tally import WriteTally
from errdex.store.written import SiteRow

CHUNK = 2_000  # sites per COPY batch
# A write of this many sites, and a tenth of the table or more, refreshes the planner's
# statistics at once (autovacuum would, in a minute or so): a lookup right after indexing
# gets the plans the new rows call for.
ANALYZE_SITES = 1_000

_INSERT_PROJECT = """
    INSERT INTO projects (name, tracker_url, homepage) VALUES (%s, %s, %s)
    ON CONFLICT (name) DO NOTHING RETURNING id
"""
# Only when something changes: an updated row makes the project's next writer wait.
_UPDATE_PROJECT = """
    UPDATE projects SET tracker_url = coalesce(%(tracker)s, tracker_url),
                        homepage = coalesce(%(home)s, homepage)
    WHERE id = %(id)s AND (tracker_url IS DISTINCT FROM coalesce(%(tracker)s, tracker_url)
                           OR homepage IS DISTINCT FROM coalesce(%(home)s, homepage))
"""
_INSERT_VERSION = """
    INSERT INTO versions (project_id, label, revision, date, source_kind, source,
                          link_template, indexed_at, console_scripts, defined_names, pin)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id
"""
_COPY_SITES = """
    COPY sites (version_id, error_id, search_key, file, line, end_line, function, kind,
                exception, message, data, parts) FROM STDIN (FORMAT BINARY)
"""
_SITE_TYPES = ["int8", *["text"] * 3, "int4", "int4", *["text"] * 4, "bytea", "int8"]
_COPY_PARTS = "COPY function_parts (version_id, id, data) FROM STDIN (FORMAT BINARY)"


def write_version(
    conn: RawConnection,
    info: VersionInfo,
    sites: Iterable[IndexedSite],
    files: Mapping[str, bytes],
) -> VersionStats:
    """Write a version in one transaction that consumes `sites` (as the SQLite writer does):
    on any exception, or if the process dies, the database keeps what it held before. The
    generation is bumped last, so concurrent writers wait for each other only at the end."""
    with changing(conn):
        project_id = _project(conn, info)
        _lock_version(conn, project_id, info.version)
        old = _version_id(conn, project_id, info.version)
        old_docs, old_hashes = _forget_version(conn, old) if old is not None else ([], [])
        version_row = (project_id, *version_columns(info))
        (version_id,) = conn.execute(_INSERT_VERSION, version_row).fetchone() or (None,)

        writer = _SiteWriter(conn, version_id)
        for split in split_chunks(sites, CHUNK):
            writer.write(split)
        tally = writer.tally
        kept = {path: files[path] for path in sorted(tally.wanted) if path in files}
        hashes = content_hashes(kept)
        _copy_files(conn, version_id, hashes)

        shared.add_errors(conn, project_id, writer.errors)
        added = shared.add_docs(conn, writer.texts)
        outlines = {h: info.outlines[path] for path, h in hashes.items() if path in info.outlines}
        new_blobs = shared.add_blobs(conn, {h: kept[path] for path, h in hashes.items()}, outlines)
        shared.count_words(conn, added, shared.drop_unused(conn, old_docs, old_hashes))
        conn.execute(
            _UPDATE_PROJECT,
            {"id": project_id, "tracker": info.tracker_url, "home": info.homepage},
        )
        stats = tally.stats(info, len(hashes), new_blobs, replaced=old is not None)
        conn.execute(
            "UPDATE versions SET stats = %s WHERE id = %s",
            (msgspec.json.encode(stats).decode("utf-8"), version_id),
        )
    return stats


def refresh_statistics(conn: RawConnection, sites: int) -> None:
    """ANALYZE the searched tables after a write of `sites` sites, when it changed them
    enough; outside the write's transaction (it may wait for another writer's ANALYZE)."""
    if sites < ANALYZE_SITES:
        return
    row = conn.execute("SELECT reltuples FROM pg_class WHERE oid = 'sites'::regclass")
    (known,) = row.fetchone() or (0,)
    if known < 0 or sites * 10 >= known:  # -1: never analysed
        conn.execute("ANALYZE sites, search_docs")


def delete_version(conn: RawConnection, project_id: int, label: str) -> bool:
    """Delete a version with its sites and files, and the texts and contents left unused,
    in one transaction; False when there is no such version."""
    with conn.transaction():
        _lock_version(conn, project_id, label)
        version_id = _version_id(conn, project_id, label)
        if version_id is None:
            return False
        dropped = shared.drop_unused(conn, *_forget_version(conn, version_id))
        shared.count_words(conn, Counter(), dropped)
        conn.execute(BUMP_GENERATION)  # as `changing` does; a version not there changes nothing
        return True


@contextmanager
def changing(conn: RawConnection) -> Iterator[None]:
    """A transaction around the block that bumps the generation as it commits (the last
    statement: the bump's row lock is held only until then)."""
    with conn.transaction():
        yield
        conn.execute(BUMP_GENERATION)


def _project(conn: RawConnection, info: VersionInfo) -> int:
    """The project's id; a new project's row makes its other writers wait for this one."""
    row = conn.execute(_INSERT_PROJECT, (info.project, info.tracker_url, info.homepage))
    found = (
        row.fetchone()
        or conn.execute("SELECT id FROM projects WHERE name = %s", (info.project,)).fetchone()
    )
    assert found is not None  # inserted, or there already
    return int(found[0])


def _lock_version(conn: RawConnection, project_id: int, label: str) -> None:
    """Wait for any other writer of this version, and hold it until the end of the
    transaction."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
        (f"errdex version {project_id} {label}",),
    )


def _version_id(conn: RawConnection, project_id: int, label: str) -> int | None:
    row = conn.execute(
        "SELECT id FROM versions WHERE project_id = %s AND label = %s", (project_id, label)
    ).fetchone()
    return None if row is None else int(row[0])


def _forget_version(conn: RawConnection, version_id: int) -> tuple[list[str], list[str]]:
    """Delete a version's row, its sites and its files; return the search texts and
    contents they used, to drop once a replacement (which may share them) is in."""
    docs = conn.execute(
        "SELECT DISTINCT search_key FROM sites WHERE version_id = %s", (version_id,)
    ).fetchall()
    hashes = conn.execute("SELECT hash FROM files WHERE version_id = %s", (version_id,))
    found = [key for (key,) in docs], [h for (h,) in hashes.fetchall()]
    conn.execute("DELETE FROM versions WHERE id = %s", (version_id,))
    return found


def _copy_files(conn: RawConnection, version_id: int, hashes: Mapping[str, str]) -> None:
    with (
        conn.cursor() as cursor,
        cursor.copy("COPY files (version_id, path, hash) FROM STDIN") as copy,
    ):
        for path, content_hash in sorted(hashes.items()):
            copy.write_row((version_id, pg_text(path), content_hash))


class _SiteWriter:
    """Copies the sites of one version chunk by chunk, gathering their errors and texts."""

    def __init__(self, conn: RawConnection, version_id: int) -> None:
        self.conn = conn
        self.version_id = version_id
        self.tally = WriteTally()
        self.errors: dict[str, SiteRow] = {}  # error id → its first site
        self.texts: dict[str, tuple[str, str, str]] = {}  # search text key → the text

    def write(self, split: SplitChunk) -> None:
        if split.parts:
            with self.conn.cursor() as cursor, cursor.copy(_COPY_PARTS) as copy:
                copy.set_types(["int8", "int8", "bytea"])
                for number, data in split.parts:
                    copy.write_row((self.version_id, number, data))
        rows = []
        for site, parts in zip(split.sites, split.numbers, strict=True):
            self.tally.add(site)
            self.errors.setdefault(site.id, site)
            text = search_fields(site)
            key = text_key(text)
            self.texts.setdefault(key, text)
            columns = [pg_text(value) for value in site_columns(site)]
            rows.append((self.version_id, site.id, key, *columns, parts))
        with self.conn.cursor() as cursor, cursor.copy(_COPY_SITES) as copy:
            copy.set_types(_SITE_TYPES)
            for row in rows:
                copy.write_row(row)
