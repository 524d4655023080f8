"""Opening a PostgreSQL store: URLs, the recorded migrations, and every way it can fail,
each a one-line StoreError (exit code 2 from the command line)."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from click.testing import CliRunner
from pg_server import PASSWORD, PostgresServer, free_port
from store_samples import FILES, PIECEWISE, PROJECT, SITES, version_info

from errdex.cli import main
from errdex.errors import StoreError
from errdex.store import Store, open_store
from errdex.store.migrations import MIGRATIONS as SQLITE_MIGRATIONS
from errdex.store.migrations import Migration
from errdex.store.postgres import PostgresStore
from errdex.store.postgres.schema import MIGRATIONS, migrate


@pytest.fixture
def backend() -> str:
    """`store` and `filled` are PostgreSQL stores here."""
    return "postgres"


def recorded(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT name FROM schema_migrations ORDER BY position").fetchall()
    return [name for (name,) in rows]


def test_a_new_database_records_the_migrations_sqlite_has(pg_url: str) -> None:
    with open_store(pg_url) as store:
        assert isinstance(store, PostgresStore)

    assert recorded(pg_url) == [m.name for m in MIGRATIONS] == [m.name for m in SQLITE_MIGRATIONS]


def test_opening_again_applies_nothing(pg_url: str) -> None:
    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn) == []
    assert recorded(pg_url) == [m.name for m in MIGRATIONS]


def test_a_new_migration_is_applied_once_and_recorded(pg_url: str) -> None:
    open_store(pg_url).close()
    extra = (*MIGRATIONS, Migration("9000_notes", "CREATE TABLE notes (text text);"))

    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn, extra) == ["9000_notes"]
        assert migrate(conn, extra) == []
        conn.execute("INSERT INTO notes VALUES ('works')")


def test_a_failing_migration_leaves_no_trace(pg_url: str) -> None:
    open_store(pg_url).close()
    broken = (*MIGRATIONS, Migration("9001_broken", "CREATE TABLE half (a int); SELECT nonsense;"))

    with psycopg.connect(pg_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.UndefinedColumn):
            migrate(conn, broken)
        assert conn.execute("SELECT to_regclass('half')").fetchone() == (None,)
    assert "9001_broken" not in recorded(pg_url)


def test_a_database_from_a_newer_errdex_is_refused(pg_url: str) -> None:
    open_store(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES ('0999_from_the_future', '2099-01-01')")

    with pytest.raises(StoreError, match=r"newer errdex.*0999_from_the_future"):
        open_store(pg_url)


def test_workers_starting_at_once_migrate_a_new_database_once(pg_url: str) -> None:
    def opened(_: int) -> str:
        with open_store(pg_url) as store:
            return store.location

    with ThreadPoolExecutor(6) as pool:
        assert len(set(pool.map(opened, range(6)))) == 1
    assert recorded(pg_url) == [m.name for m in MIGRATIONS]


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "postgresql+psycopg"])
def test_url_schemes_and_the_location_without_the_password(
    pg_server: PostgresServer, scheme: str
) -> None:
    url = pg_server.tcp_url().replace("postgresql://", f"{scheme}://", 1)

    with open_store(url) as store:
        store.write_version(version_info(), SITES, FILES)
        assert store.location == f"postgresql://postgres@127.0.0.1:{pg_server.port}/errdex_tests"
        assert PASSWORD not in store.location
        store.delete_version(PROJECT, "1.0")


def test_the_environment_names_a_postgresql_database(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRDEX_DB", pg_url)
    with open_store(None) as store:
        assert isinstance(store, PostgresStore)


def unreachable_url() -> str:
    return f"postgresql://postgres@127.0.0.1:{free_port()}/errdex"


BAD = {
    "unreachable": (unreachable_url, "Connection refused"),
    "bad port": (lambda: "postgresql://postgres@127.0.0.1:notaport/db", "invalid"),
    "bad option": (lambda: "postgresql://127.0.0.1/db?colour=blue", "invalid URI query parameter"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_url_that_cannot_be_opened_is_one_line(name: str) -> None:
    url, reason = BAD[name]
    with pytest.raises(StoreError, match=r"^cannot open the database postgresql://") as caught:
        open_store(url())
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)


def test_bad_credentials_are_one_line_without_the_password(pg_server: PostgresServer) -> None:
    with pytest.raises(StoreError, match="password authentication failed") as caught:
        open_store(pg_server.tcp_url(password="not-the-password"))
    assert "not-the-password" not in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_database_is_one_line(pg_server: PostgresServer) -> None:
    with pytest.raises(StoreError, match='database "nowhere" does not exist'):
        open_store(pg_server.url(database="nowhere"))


def test_without_psycopg_the_error_says_what_to_install(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    with pytest.raises(StoreError, match=r"install errdex\[postgres\]"):
        open_store(pg_url)


@pytest.mark.parametrize("command", [["list"], ["show", "0123456789abcdef"], ["lookup", "x"]])
def test_the_command_line_says_one_line_and_exits_2(command: list[str]) -> None:
    result = CliRunner().invoke(main, [*command, "--db", unreachable_url()])

    assert result.exit_code == 2
    assert result.stderr.startswith("errdex: cannot open the database postgresql://")
    assert result.stderr.count("\n") <= 2  # one line, wrapped at most once by the console
    assert "Traceback" not in result.output + result.stderr


def test_a_dropped_connection_is_opened_again(filled: Store, pg_server: PostgresServer) -> None:
    assert isinstance(filled, PostgresStore)
    (pid,) = filled._conn.execute("SELECT pg_backend_pid()").fetchone() or (0,)
    pg_server.admin(f"SELECT pg_terminate_backend({pid})")

    with pytest.raises(StoreError, match=r"^database postgresql://"):
        filled.get_error(PIECEWISE.id)  # the call that finds the connection gone
    assert [s.id for s in filled.get_error(PIECEWISE.id)] == [PIECEWISE.id]
