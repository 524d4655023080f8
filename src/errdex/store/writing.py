"""Writing one version into SQLite as a single transaction that replaces its earlier index."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager

import msgspec

from errdex.linked_facts import IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store.base import VersionStats
from errdex.store.contents import PackedFiles
from errdex.store.function_parts import SplitChunk, split_chunks
from errdex.store.migrations import BUMP_GENERATION
from errdex.store.rows import (
    error_columns,
    search_fields,
    site_columns,
    text_key,
    version_columns,
)
from errdex.store.tally import WriteTally
from errdex.store.written import SiteRow

# Sites per executemany batch, and per message to a version's writer process (`aside`):
# what is left to write once the last site is made is one chunk.
CHUNK = 500

_UPSERT_PROJECT = """
    INSERT INTO projects (name, tracker_url, homepage) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET
        tracker_url = coalesce(excluded.tracker_url, tracker_url),
        homepage = coalesce(excluded.homepage, homepage)
    RETURNING id
"""
_INSERT_VERSION = """
    INSERT INTO versions (project_id, label, revision, date, source_kind, source,
                          link_template, indexed_at, console_scripts, defined_names, pin)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
"""
_INSERT_ERROR = """
    INSERT INTO errors (id, project_id, kind, exception, template, module, function)
    VALUES (?, ?, ?, ?, ?, ?, ?)
"""
_INSERT_SITE = """
    INSERT INTO sites (id, version_id, error_id, search_id, file, line, end_line, function,
                       kind, exception, message, data, parts)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
_INSERT_TEXT = "INSERT INTO search_text (rowid, message, reasons, exception) VALUES (?, ?, ?, ?)"


@contextmanager
def changing(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT around the block, bumping the generation before the
    commit; on any exception, ROLLBACK: the write and the bump are both or neither."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute(BUMP_GENERATION)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def write_version(
    conn: sqlite3.Connection,
    info: VersionInfo,
    sites: Iterable[IndexedSite],
    files: Mapping[str, bytes],
) -> VersionStats:
    """Write a version in one transaction (`changing`).

    `sites` is consumed inside the transaction, so a generator that fails half-way, a
    KeyboardInterrupt or a killed process leave the previous contents as they were.
    """
    with changing(conn):
        return _write(conn, info, split_chunks(sites, CHUNK), PackedFiles(files))


def write_encoded_version(
    conn: sqlite3.Connection,
    info: VersionInfo,
    chunks: Iterable[SplitChunk],
    files: PackedFiles,
) -> VersionStats:
    """`write_version` of sites split already, that come with their msgpack encoding (the
    `data` column), as a version's writer process receives them (`aside`): not encoded a
    second time; and of files it may have packed already."""
    with changing(conn):
        return _write(conn, info, chunks, files)


def delete_version_rows(conn: sqlite3.Connection, version_id: int) -> None:
    """Delete a version with its sites and files, and the texts and blobs left unused."""
    _drop_unused(conn, *forget_version(conn, version_id))


def forget_version(conn: sqlite3.Connection, version_id: int) -> tuple[list[int], list[str]]:
    """Delete a version's row, its sites and its files.

    Returns the search texts and blob hashes they used, for `_drop_unused` once a
    replacement (which may share them) is written.
    """
    docs = [
        d
        for (d,) in conn.execute("SELECT search_id FROM sites WHERE version_id = ?", (version_id,))
    ]
    hashes = [
        h for (h,) in conn.execute("SELECT hash FROM files WHERE version_id = ?", (version_id,))
    ]
    conn.execute("DELETE FROM versions WHERE id = ?", (version_id,))
    return sorted(set(docs)), hashes


def _drop_unused(conn: sqlite3.Connection, docs: list[int], hashes: list[str]) -> None:
    """Delete those search texts and blobs that no site and no file refer to any more."""
    if docs:
        conn.execute(
            "DELETE FROM search_docs WHERE id IN (SELECT value FROM json_each(?))"
            " AND NOT EXISTS (SELECT 1 FROM sites WHERE sites.search_id = search_docs.id)",
            (json.dumps(docs),),
        )
    if hashes:
        conn.execute(
            "DELETE FROM blobs WHERE hash IN (SELECT value FROM json_each(?))"
            " AND NOT EXISTS (SELECT 1 FROM files WHERE files.hash = blobs.hash)",
            (json.dumps(hashes),),
        )


def _present(conn: sqlite3.Connection, table: str, column: str, keys: Iterable[str]) -> set[str]:
    """Those of `keys` already in `table.column` (one query, no row per key from Python)."""
    rows = conn.execute(
        f"SELECT {column} FROM {table} WHERE {column} IN (SELECT value FROM json_each(?))",
        (json.dumps(list(keys)),),
    )
    return {key for (key,) in rows}


def _write(
    conn: sqlite3.Connection,
    info: VersionInfo,
    chunks: Iterable[SplitChunk],
    files: PackedFiles,
) -> VersionStats:
    (project_id,) = conn.execute(
        _UPSERT_PROJECT, (info.project, info.tracker_url, info.homepage)
    ).fetchone()
    old = conn.execute(
        "SELECT id FROM versions WHERE project_id = ? AND label = ?", (project_id, info.version)
    ).fetchone()
    old_docs, old_hashes = forget_version(conn, old[0]) if old is not None else ([], [])
    (version_id,) = conn.execute(_INSERT_VERSION, (project_id, *version_columns(info))).fetchone()

    writer = _SiteWriter(conn, project_id, version_id)
    kept = _FileWriter(conn, version_id, files, info.outlines)
    for chunk in chunks:
        writer.write(chunk)
        # The files the chunk's sites refer to, stored now rather than after the last
        # chunk: a version written while it is linked (`aside`) has no more than a chunk's
        # files left to hash and compress once its last site is made.
        kept.write(writer.tally.wanted)
    _drop_unused(conn, old_docs, old_hashes)
    stats = writer.tally.stats(info, kept.stored, kept.new_blobs, replaced=old is not None)
    conn.execute(
        "UPDATE versions SET stats = ? WHERE id = ?",
        (msgspec.json.encode(stats).decode("utf-8"), version_id),
    )
    return stats


class _SiteWriter:
    """Writes the sites of one version chunk by chunk, with their errors and search texts."""

    def __init__(self, conn: sqlite3.Connection, project_id: int, version_id: int) -> None:
        self.conn = conn
        self.project_id = project_id
        self.version_id = version_id
        self.tally = WriteTally()
        self.docs: dict[str, int] = {}  # search text key → search_docs.id
        (self.next_site,) = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM sites").fetchone()
        (self.next_doc,) = conn.execute(
            "SELECT coalesce(max(id), 0) + 1 FROM search_docs"
        ).fetchone()

    def write(self, chunk: SplitChunk) -> None:
        """Write the chunk's new parts and its sites, each with its encoding when it came
        with one."""
        self.conn.executemany(
            "INSERT INTO function_parts (version_id, id, data) VALUES (?, ?, ?)",
            [(self.version_id, number, data) for number, data in chunk.parts],
        )
        sites = chunk.sites
        texts = [search_fields(site) for site in sites]
        keys = [text_key(text) for text in texts]
        self._add_docs(keys, texts)
        self._add_errors(sites)
        rows = []
        encoded = chunk.encoded or itertools.repeat(None)
        for site_id, site, data, number, key in zip(
            itertools.count(self.next_site), sites, encoded, chunk.numbers, keys, strict=False
        ):
            self.tally.add(site)
            columns = site_columns(site, data)
            rows.append((site_id, self.version_id, site.id, self.docs[key], *columns, number))
        self.next_site += len(sites)
        self.conn.executemany(_INSERT_SITE, rows)

    def _add_docs(self, keys: list[str], texts: list[tuple[str, str, str]]) -> None:
        """Give each new search text a row; reuse the rows of texts stored before."""
        unknown = {key for key in keys if key not in self.docs}
        if unknown:
            self.docs.update(
                self.conn.execute(
                    "SELECT key, id FROM search_docs WHERE key IN (SELECT value FROM json_each(?))",
                    (json.dumps(sorted(unknown)),),
                ).fetchall()
            )
        docs, rows = [], []
        for key, text in zip(keys, texts, strict=True):
            if key not in self.docs:
                self.docs[key] = self.next_doc
                docs.append((self.next_doc, key))
                rows.append((self.next_doc, *text))
                self.next_doc += 1
        self.conn.executemany("INSERT INTO search_docs (id, key) VALUES (?, ?)", docs)
        self.conn.executemany(_INSERT_TEXT, rows)

    def _add_errors(self, chunk: Sequence[SiteRow]) -> None:
        """Record the identities not seen before (the first version holding them wins)."""
        new = {site.id: site for site in chunk if site.id not in self.tally.error_ids}
        rows = [
            (error_id, self.project_id, *error_columns(new[error_id]))
            for error_id in sorted(new.keys() - _present(self.conn, "errors", "id", new))
        ]
        self.conn.executemany(_INSERT_ERROR, rows)


class _FileWriter:
    """Stores a version's files as its sites come to refer to them, each path once."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        version_id: int,
        files: PackedFiles,
        outlines: Mapping[str, bytes],
    ) -> None:
        self.conn = conn
        self.version_id = version_id
        self.files = files
        self.outlines = outlines
        self.done: set[str] = set()
        self.stored = 0  # files kept
        self.new_blobs = 0  # contents among them not stored before

    def write(self, wanted: set[str]) -> None:
        new = [p for p in sorted(wanted - self.done) if p in self.files.files]
        self.done.update(wanted)
        if new:
            stored, new_blobs = _write_files(
                self.conn, self.version_id, self.files, new, self.outlines
            )
            self.stored += stored
            self.new_blobs += new_blobs


def _write_files(
    conn: sqlite3.Connection,
    version_id: int,
    files: PackedFiles,
    paths: list[str],
    outlines: Mapping[str, bytes],
) -> tuple[int, int]:
    """Store the files of a version at `paths`, each content not stored yet compressed
    (with its outline, when `outlines` has its path's)."""
    hashed = files.hashes(paths)
    present = _present(conn, "blobs", "hash", set(hashed.values()))
    missing = {h: path for path, h in hashed.items() if h not in present}
    packed = files.packed(list(missing.values()))
    conn.executemany(
        "INSERT INTO blobs (hash, size, text, outline) VALUES (?, ?, ?, ?)",
        [
            (h, len(files.files[path]), blob, outlines.get(path))
            for (h, path), blob in zip(missing.items(), packed, strict=True)
        ],
    )
    conn.executemany(
        "INSERT INTO files (version_id, path, hash) VALUES (?, ?, ?)",
        [(version_id, path, h) for path, h in sorted(hashed.items())],
    )
    return len(hashed), len(missing)
