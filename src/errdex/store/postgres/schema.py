"""The PostgreSQL schema as named migrations, applied in order and recorded in the database.

The tables and columns are SQLite's (`store/migrations.py`), under the same migration names,
so the shared queries run on both. Full-text search differs: a `tsvector` per search text
with a GIN index, and a table of how many texts hold each word (FTS5's `fts5vocab`).
"""

from __future__ import annotations

from errdex.store.migrations import (
    SITES_BY_FILE,
    VERSION_CONSOLE_SCRIPTS,
    VERSION_PIN,
    Migration,
    analyses,
    blob_outline,
    function_parts,
    generation,
    refuse_unknown,
    version_names,
)
from errdex.store.postgres.connect import RawConnection
from errdex.store.rows import now

# pg_advisory_lock key held while migrating, so that workers starting at once take turns.
MIGRATION_LOCK = 0x6572726465780001

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "0001_initial",
        """
        -- Project names compare as SQLite's NOCASE does (`Demo` is `demo`).
        CREATE COLLATION errdex_nocase (
            provider = icu, locale = 'und-u-ks-level2', deterministic = false
        );
        CREATE TABLE projects (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text COLLATE errdex_nocase NOT NULL UNIQUE,
            tracker_url text,
            homepage text
        );
        CREATE TABLE versions (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
            label text NOT NULL,
            revision text NOT NULL,
            date text,
            source_kind text NOT NULL,
            source text NOT NULL,
            link_template text,
            indexed_at text NOT NULL,
            stats text NOT NULL DEFAULT '{}' CHECK (stats::jsonb IS NOT NULL),
            UNIQUE (project_id, label)
        );
        -- The permanent identity of an error: kept when the versions holding it go.
        CREATE TABLE errors (
            id text PRIMARY KEY CHECK (length(id) = 16),
            project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
            kind text NOT NULL,
            exception text,
            template text,
            module text NOT NULL,
            function text NOT NULL
        );
        CREATE INDEX errors_by_project ON errors(project_id);
        -- The searchable text of sites, once per distinct text (key: hash of the text).
        -- `words` weighs the message A, the reasons B, the exception names C; `added`
        -- orders texts by age.
        CREATE TABLE search_docs (
            key text PRIMARY KEY,
            added bigint GENERATED ALWAYS AS IDENTITY,
            words tsvector NOT NULL
        );
        CREATE INDEX search_docs_words ON search_docs USING gin (words);
        CREATE INDEX search_docs_by_age ON search_docs (added);
        -- How many texts hold each word; the row of '' counts all texts.
        CREATE TABLE search_vocab (
            term text PRIMARY KEY,
            docs bigint NOT NULL
        );
        -- One row per site per version; `data` is the msgpack-encoded IndexedSite.
        -- `error_id` and `search_key` name rows of errors and search_docs that the writer
        -- adds (or locks) in the same transaction (postgres/shared.py); foreign keys would
        -- check two keys per site and add a third to the write of a big version.
        CREATE TABLE sites (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            version_id bigint NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            error_id text NOT NULL,
            search_key text NOT NULL,
            file text NOT NULL,
            line integer NOT NULL,
            end_line integer NOT NULL,
            function text NOT NULL,
            kind text NOT NULL,
            exception text,
            message text,
            data bytea NOT NULL
        );
        CREATE INDEX sites_by_location ON sites(version_id, file, line);
        CREATE INDEX sites_by_error ON sites(error_id);
        CREATE INDEX sites_by_search ON sites(search_key);
        -- File contents, zlib-compressed (so not compressed again), shared by versions;
        -- written after the files that name them, so that check waits for the commit.
        CREATE TABLE blobs (
            hash text PRIMARY KEY,
            size bigint NOT NULL,
            text bytea NOT NULL
        );
        ALTER TABLE blobs ALTER COLUMN text SET STORAGE EXTERNAL;
        CREATE TABLE files (
            version_id bigint NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            path text NOT NULL,
            hash text NOT NULL REFERENCES blobs(hash) DEFERRABLE INITIALLY DEFERRED,
            PRIMARY KEY (version_id, path)
        );
        CREATE INDEX files_by_hash ON files(hash);
        """,
    ),
    SITES_BY_FILE,
    analyses(""),
    generation("md5(random()::text || clock_timestamp()::text)"),
    VERSION_CONSOLE_SCRIPTS,
    version_names("bytea"),
    VERSION_PIN,
    blob_outline("bytea"),
    function_parts("bigint", "bytea", ""),
)


def applied_migrations(conn: RawConnection) -> list[str]:
    """The names recorded in the database, in the order they were applied (none yet: [])."""
    (table,) = conn.execute("SELECT to_regclass('schema_migrations')").fetchone() or (None,)
    if table is None:
        return []
    rows = conn.execute("SELECT name FROM schema_migrations ORDER BY position").fetchall()
    return [str(name) for (name,) in rows]


def migrate(conn: RawConnection, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """Apply the pending migrations, each in its own transaction; return their names.

    `conn` is in autocommit mode. Refuses a database that a newer errdex migrated.
    """
    applied = applied_migrations(conn)
    refuse_unknown(applied, migrations)
    if all(m.name in applied for m in migrations):
        return []  # the common case: no lock needed
    done: list[str] = []
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " name text PRIMARY KEY, applied_at text NOT NULL,"
            " position bigint GENERATED ALWAYS AS IDENTITY)"
        )
        # Read again under the lock: another process may have just applied some.
        applied = applied_migrations(conn)
        refuse_unknown(applied, migrations)
        for migration in migrations:
            if migration.name in applied:
                continue
            with conn.transaction():
                conn.execute(migration.sql)
                conn.execute(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (%s, %s)",
                    (migration.name, now()),
                )
            done.append(migration.name)
    finally:
        if not conn.broken:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return done
