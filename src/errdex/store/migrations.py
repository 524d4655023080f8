"""The SQLite schema as named migrations, applied in order and recorded in the database.

`Migration` and `refuse_unknown` serve the PostgreSQL schema too (`postgres/schema.py`),
which carries the same migration names.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from errdex.errors import StoreError
from errdex.store.rows import now

# Identifiers stay whole (`snake_case`), accents fold; measured against trigram on real
# messages: as precise for whole words, half the size, twice as fast to query.
FTS_TOKENIZER = "unicode61 remove_diacritics 2 tokenchars '_'"


class Migration(NamedTuple):
    """One schema change: a name recorded once applied, and its SQL statements."""

    name: str
    sql: str


# The PostgreSQL schema (postgres/schema.py) takes these as they are.
SITES_BY_FILE = Migration(
    "0002_sites_by_file",
    """
    -- Traceback frames name a file and a line: find sites there in any version.
    CREATE INDEX sites_by_file ON sites(file, line);
    """,
)


def analyses(table_options: str) -> Migration:
    """The table of model analyses, with SQLite's or PostgreSQL's `table_options`."""
    return Migration(
        "0003_analyses",
        f"""
        -- Model-written explanations, cached by (error id, revision, model, prompt version).
        -- A rejected answer is kept too (with why), so a resumed run does not ask again.
        CREATE TABLE analyses (
            error_id TEXT NOT NULL,
            revision TEXT NOT NULL,
            model TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('ok', 'rejected')),
            body TEXT,
            reason TEXT,
            created_at TEXT NOT NULL,
            PRIMARY KEY (error_id, revision, model, prompt_version)
        ) {table_options};
        CREATE INDEX analyses_by_revision ON analyses(revision, model, prompt_version);
        """,
    )


def generation(random_id: str) -> Migration:
    """The catalog's generation, with SQLite's or PostgreSQL's SQL for a `random_id`."""
    return Migration(
        "0004_catalog_generation",
        f"""
        -- What changed, in one small read: every write bumps `generation` inside its own
        -- transaction (BUMP_GENERATION), so a reader in any process or on any machine sees
        -- the new number exactly when it sees the new rows. `instance` is drawn once per
        -- database: another database that counted as far has another token.
        CREATE TABLE catalog_generation (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            instance TEXT NOT NULL,
            generation BIGINT NOT NULL
        );
        INSERT INTO catalog_generation (id, instance, generation) VALUES (1, {random_id}, 0);
        """,
    )


# The commands a version installs (its console scripts), as the JSON list of
# `[group, name, target]` that `rows.version_columns` writes: examples of a fix are written
# the way a user runs the program. Both SQLite and PostgreSQL take it as it is.
VERSION_CONSOLE_SCRIPTS = Migration(
    "0005_version_console_scripts",
    """
    ALTER TABLE versions ADD COLUMN console_scripts TEXT NOT NULL DEFAULT '[]';
    """,
)


def version_names(blob_type: str) -> Migration:
    """The names a version defines (what a model's prose is checked against), packed by
    `contents.pack_names`; `blob_type` is SQLite's or PostgreSQL's type for bytes."""
    return Migration(
        "0006_version_defined_names",
        f"""
        ALTER TABLE versions ADD COLUMN defined_names {blob_type};
        """,
    )


# What a version's link points at and how that is known (`sources.base.Pin`, as JSON):
# NULL for a version written before, or pinned exactly by its source (a git commit).
VERSION_PIN = Migration(
    "0007_version_pin",
    """
    ALTER TABLE versions ADD COLUMN pin TEXT;
    """,
)


def blob_outline(blob_type: str) -> Migration:
    """Each stored content's top-level statement starts (`contents.pack_outline`), so that a
    page reading a few top-level statements of a large file parses those alone: NULL for a
    content an older errdex stored (the page parses the whole file then)."""
    return Migration(
        "0008_blob_outline",
        f"""
        ALTER TABLE blobs ADD COLUMN outline {blob_type};
        """,
    )


def function_parts(int_type: str, blob_type: str, table_options: str) -> Migration:
    """What the sites of one function share (its callers), once per version
    (`function_parts.py`), and each site's number of it: NULL for a site an older errdex
    stored, which keeps its callers in `data`. `int_type`, `blob_type` and `table_options`
    are SQLite's or PostgreSQL's."""
    return Migration(
        "0009_function_parts",
        f"""
        CREATE TABLE function_parts (
            version_id {int_type} NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            id {int_type} NOT NULL,
            data {blob_type} NOT NULL,
            PRIMARY KEY (version_id, id)
        ){table_options};
        ALTER TABLE sites ADD COLUMN parts {int_type};
        """,
    )


# Run last in a write's transaction: in PostgreSQL the row stays locked until the commit,
# and concurrent writers of other versions wait for each other only that long.
BUMP_GENERATION = "UPDATE catalog_generation SET generation = generation + 1 WHERE id = 1"
READ_GENERATION = "SELECT instance, generation FROM catalog_generation WHERE id = 1"


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "0001_initial",
        f"""
        CREATE TABLE projects (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            tracker_url TEXT,
            homepage TEXT
        );
        CREATE TABLE versions (
            id INTEGER PRIMARY KEY,
            project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
            label TEXT NOT NULL,
            revision TEXT NOT NULL,
            date TEXT,
            source_kind TEXT NOT NULL,
            source TEXT NOT NULL,
            link_template TEXT,
            indexed_at TEXT NOT NULL,
            stats TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(stats)),
            UNIQUE (project_id, label)
        );
        -- The permanent identity of an error: kept when the versions holding it go.
        CREATE TABLE errors (
            id TEXT PRIMARY KEY CHECK (length(id) = 16),
            project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            exception TEXT,
            template TEXT,
            module TEXT NOT NULL,
            function TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX errors_by_project ON errors(project_id);
        -- The searchable text of sites, once per distinct text: versions that share an
        -- error's message, reasons and exception share its row (key: hash of the text).
        CREATE TABLE search_docs (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE
        );
        CREATE VIRTUAL TABLE search_text USING fts5(
            message, reasons, exception, tokenize = "{FTS_TOKENIZER}"
        );
        CREATE TRIGGER search_docs_forget AFTER DELETE ON search_docs BEGIN
            DELETE FROM search_text WHERE rowid = old.id;
        END;
        -- One row per site per version; `data` is the msgpack-encoded IndexedSite.
        CREATE TABLE sites (
            id INTEGER PRIMARY KEY,
            version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            error_id TEXT NOT NULL REFERENCES errors(id),
            search_id INTEGER NOT NULL REFERENCES search_docs(id),
            file TEXT NOT NULL,
            line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            function TEXT NOT NULL,
            kind TEXT NOT NULL,
            exception TEXT,
            message TEXT,
            data BLOB NOT NULL
        );
        CREATE INDEX sites_by_location ON sites(version_id, file, line);
        CREATE INDEX sites_by_error ON sites(error_id);
        CREATE INDEX sites_by_search ON sites(search_id);
        -- File contents, zlib-compressed, shared by every version that has them.
        CREATE TABLE blobs (
            hash TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            text BLOB NOT NULL
        );
        CREATE TABLE files (
            version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            hash TEXT NOT NULL REFERENCES blobs(hash),
            PRIMARY KEY (version_id, path)
        ) WITHOUT ROWID;
        CREATE INDEX files_by_hash ON files(hash);
        """,
    ),
    SITES_BY_FILE,
    analyses("WITHOUT ROWID"),
    generation("lower(hex(randomblob(16)))"),
    VERSION_CONSOLE_SCRIPTS,
    version_names("BLOB"),
    VERSION_PIN,
    blob_outline("BLOB"),
    function_parts("INTEGER", "BLOB", " WITHOUT ROWID"),
)


def refuse_unknown(applied: list[str], migrations: tuple[Migration, ...]) -> None:
    """A database that records a migration this errdex does not know was written by a newer
    errdex: refuse it rather than misread it."""
    known = {m.name for m in migrations}
    unknown = [name for name in applied if name not in known]
    if unknown:
        raise StoreError(
            f"the database was written by a newer errdex (unknown migrations: "
            f"{', '.join(unknown)}); upgrade errdex to use it"
        )


def split_statements(sql: str) -> list[str]:
    """Cut a script into complete statements (a trigger body stays in one piece)."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        statements.append(pending.strip())
    return statements


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    """The names recorded in the database, in the order they were applied."""
    rows = conn.execute("SELECT name FROM schema_migrations ORDER BY rowid").fetchall()
    return [str(name) for (name,) in rows]


def migrate(conn: sqlite3.Connection, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """Apply the pending migrations, each in its own transaction; return their names.

    `conn` must be in autocommit mode (`isolation_level=None`). A database that records a
    migration this errdex does not know was written by a newer errdex: refuse it.
    """
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    applied = applied_migrations(conn)
    refuse_unknown(applied, migrations)
    done: list[str] = []
    for migration in migrations:
        if migration.name in applied:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process may have just applied it.
            if conn.execute(
                "SELECT 1 FROM schema_migrations WHERE name = ?", (migration.name,)
            ).fetchone():
                conn.execute("COMMIT")
                continue
            for statement in split_statements(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                (migration.name, now()),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        done.append(migration.name)
    return done
