"""Opening a SQLite store: where it lives and how SQLite is set up (migrations: see
test_store_migrations.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from errdex.errors import StoreError
from errdex.store import open_store


def test_sqlite_runs_in_wal_mode_with_foreign_keys(db_path: Path) -> None:
    store = open_store(str(db_path))
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn = store._conn  # type: ignore[attr-defined]
    assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0
    # pages read in place from the mapped file (SQLite may cap the size it was built with)
    assert conn.execute("PRAGMA mmap_size").fetchone()[0] > 0
    store.close()


def test_a_new_database_is_made_without_syncs_then_syncs_as_any_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its tables made with synchronous OFF (no disk sync before a first answer); used,
    # and opened again, with NORMAL.
    import errdex.store.sqlite as sqlite_store

    seen: list[int] = []

    def migrate(conn: sqlite3.Connection) -> list[str]:
        seen.append(conn.execute("PRAGMA synchronous").fetchone()[0])
        return real(conn)

    real = sqlite_store.migrate
    monkeypatch.setattr(sqlite_store, "migrate", migrate)
    path = tmp_path / "new.db"
    for _ in range(2):
        store = open_store(str(path))
        assert store._conn.execute("PRAGMA synchronous").fetchone() == (1,)  # type: ignore[attr-defined]
        store.close()
    assert seen == [0, 1]  # OFF while new, NORMAL once made
    with sqlite3.connect(path) as other:  # every migration committed
        assert other.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] > 0


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
    monkeypatch.setattr("platformdirs.user_data_dir", lambda name: str(tmp_path / "data" / name))
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
