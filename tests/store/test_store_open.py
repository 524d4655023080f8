"""Opening a SQLite store: where it lives, how SQLite is set up, and the recorded migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from errdex.errors import StoreError
from errdex.store import open_store
from errdex.store.migrations import MIGRATIONS, Migration, migrate


def recorded(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT name, applied_at FROM schema_migrations ORDER BY rowid"
        ).fetchall()


def test_a_new_database_records_every_migration(db_path: Path) -> None:
    open_store(str(db_path)).close()

    rows = recorded(db_path)
    assert [name for name, _ in rows] == [m.name for m in MIGRATIONS]
    assert all(applied_at for _, applied_at in rows)


def test_opening_again_applies_nothing(db_path: Path) -> None:
    open_store(str(db_path)).close()
    before = recorded(db_path)

    open_store(str(db_path)).close()

    assert recorded(db_path) == before
    with sqlite3.connect(db_path, isolation_level=None) as conn:
        assert migrate(conn) == []


def test_a_new_migration_is_applied_once_and_recorded(db_path: Path) -> None:
    open_store(str(db_path)).close()
    extra = (*MIGRATIONS, Migration("9000_notes", "CREATE TABLE notes (text TEXT);"))

    with sqlite3.connect(db_path, isolation_level=None) as conn:
        assert migrate(conn, extra) == ["9000_notes"]
        assert migrate(conn, extra) == []
        conn.execute("INSERT INTO notes VALUES ('works')")


def test_a_failing_migration_leaves_no_trace(db_path: Path) -> None:
    open_store(str(db_path)).close()
    broken = (*MIGRATIONS, Migration("9001_broken", "CREATE TABLE half (a);\nSELECT nonsense;"))

    with sqlite3.connect(db_path, isolation_level=None) as conn:
        with pytest.raises(sqlite3.OperationalError):
            migrate(conn, broken)
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    assert "half" not in tables
    assert "9001_broken" not in [name for name, _ in recorded(db_path)]


def test_a_database_from_a_newer_errdex_is_refused(db_path: Path) -> None:
    open_store(str(db_path)).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO schema_migrations VALUES ('0999_from_the_future', '2099-01-01T00:00:00')"
        )

    with pytest.raises(StoreError, match=r"newer errdex.*0999_from_the_future"):
        open_store(str(db_path))


def test_sqlite_runs_in_wal_mode_with_foreign_keys(db_path: Path) -> None:
    store = open_store(str(db_path))
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn = store._conn  # type: ignore[attr-defined]
    assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0
    store.close()


def test_parent_folders_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c.db"
    open_store(str(path)).close()
    assert path.is_file()


def test_the_environment_names_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "from-env.db"))
    with open_store(None) as store:
        assert store.location == str(tmp_path / "from-env.db")
    with open_store(str(tmp_path / "argument.db")) as store:
        assert store.location == str(tmp_path / "argument.db")


def test_the_default_lives_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ERRDEX_DB", raising=False)
    monkeypatch.setattr(
        "errdex.store.platformdirs.user_data_dir", lambda name: str(tmp_path / "data" / name)
    )
    with open_store(None) as store:
        assert store.location == str(tmp_path / "data" / "errdex" / "errdex.db")
    assert (tmp_path / "data" / "errdex" / "errdex.db").is_file()


def test_other_urls_are_refused() -> None:
    with pytest.raises(StoreError, match="unsupported database URL"):
        open_store("mysql://db.example.org/errdex")


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, just some text that is long enough " * 100)
    with pytest.raises(StoreError, match="not a database"):
        open_store(str(path))
