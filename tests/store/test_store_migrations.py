"""The schema as named migrations, on both backends: recorded once applied, applied once,
all or nothing, and a database a newer errdex migrated is refused."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, closing
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from errdex.errors import StoreError
from errdex.store import migrations as sqlite_schema
from errdex.store import open_store
from errdex.store.migrations import Migration


class Schema(NamedTuple):
    """One backend's migrations, seen from outside its store."""

    migrations: tuple[Migration, ...]
    migrate: Callable[..., list[str]]  # (connection, migrations) → names applied
    connect: Callable[[], AbstractContextManager[Any]]  # an autocommit connection
    failure: type[Exception]  # what the SQL of a broken migration raises
    order: str  # the column that orders schema_migrations as applied
    has_table: str  # a query: 1 when the table named by its parameter is there


@pytest.fixture
def schema(backend: str, db_url: str) -> Schema:
    if backend == "sqlite":
        return Schema(
            sqlite_schema.MIGRATIONS,
            sqlite_schema.migrate,
            lambda: closing(sqlite3.connect(db_url, isolation_level=None)),
            sqlite3.OperationalError,
            "rowid",
            "SELECT 1 FROM sqlite_master WHERE name = ?",
        )
    import psycopg

    from errdex.store.postgres import schema as postgres_schema

    return Schema(
        postgres_schema.MIGRATIONS,
        postgres_schema.migrate,
        lambda: psycopg.connect(db_url, autocommit=True),
        psycopg.errors.UndefinedColumn,
        "position",
        "SELECT 1 WHERE to_regclass(%s) IS NOT NULL",
    )


def recorded(schema: Schema) -> list[tuple[str, str]]:
    with schema.connect() as conn:
        query = f"SELECT name, applied_at FROM schema_migrations ORDER BY {schema.order}"
        return [tuple(row) for row in conn.execute(query).fetchall()]


def test_a_new_database_records_every_migration(schema: Schema, db_url: str) -> None:
    open_store(db_url).close()

    rows = recorded(schema)
    assert [name for name, _ in rows] == [m.name for m in schema.migrations]
    assert [m.name for m in schema.migrations] == [m.name for m in sqlite_schema.MIGRATIONS]
    assert all(applied_at for _, applied_at in rows)


def test_opening_again_applies_nothing(schema: Schema, db_url: str) -> None:
    open_store(db_url).close()
    before = recorded(schema)

    open_store(db_url).close()

    assert recorded(schema) == before
    with schema.connect() as conn:
        assert schema.migrate(conn, schema.migrations) == []


def test_a_new_migration_is_applied_once_and_recorded(schema: Schema, db_url: str) -> None:
    open_store(db_url).close()
    extra = (*schema.migrations, Migration("9000_notes", "CREATE TABLE notes (text TEXT);"))

    with schema.connect() as conn:
        assert schema.migrate(conn, extra) == ["9000_notes"]
        assert schema.migrate(conn, extra) == []
        conn.execute("INSERT INTO notes VALUES ('works')")


def test_a_failing_migration_leaves_no_trace(schema: Schema, db_url: str) -> None:
    open_store(db_url).close()
    broken = Migration("9001_broken", "CREATE TABLE half (a int);\nSELECT nonsense;")

    with schema.connect() as conn:
        with pytest.raises(schema.failure):
            schema.migrate(conn, (*schema.migrations, broken))
        assert conn.execute(schema.has_table, ("half",)).fetchone() is None
    assert "9001_broken" not in [name for name, _ in recorded(schema)]


def test_a_database_from_a_newer_errdex_is_refused(schema: Schema, db_url: str) -> None:
    open_store(db_url).close()
    with schema.connect() as conn:
        conn.execute(
            "INSERT INTO schema_migrations (name, applied_at)"
            " VALUES ('0999_from_the_future', '2099-01-01T00:00:00')"
        )

    with pytest.raises(StoreError, match=r"newer errdex.*0999_from_the_future"):
        open_store(db_url)


def test_workers_starting_at_once_migrate_a_new_database_once(schema: Schema, db_url: str) -> None:
    def opened(_: int) -> str:
        with open_store(db_url) as store:
            return store.location

    with ThreadPoolExecutor(6) as pool:
        assert len(set(pool.map(opened, range(6)))) == 1
    assert [name for name, _ in recorded(schema)] == [m.name for m in schema.migrations]


def test_an_older_database_gains_the_generation(schema: Schema, db_url: str) -> None:
    older = tuple(m for m in schema.migrations if m.name != "0004_catalog_generation")
    if "://" not in db_url:
        Path(db_url).parent.mkdir(parents=True)
    with schema.connect() as conn:
        schema.migrate(conn, older)

    with open_store(db_url) as store:
        token = store.generation()
        assert token.endswith(".0")
    assert [name for name, _ in recorded(schema)][-1] == "0004_catalog_generation"
