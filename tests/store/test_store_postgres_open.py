"""Opening a PostgreSQL store: URLs, and every way it can fail, each a one-line StoreError
(exit code 2 from the command line). Migrations: see test_store_migrations.py."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from store_samples import FILES, PIECEWISE, PROJECT, SITES, version_info

from errdex.cli import main
from errdex.errors import StoreError
from errdex.store import Store, open_store
from pg_server import PASSWORD, PostgresServer, free_port

pytestmark = pytest.mark.usefixtures("pg_driver")


@pytest.fixture
def backend() -> str:
    """`store` and `filled` are PostgreSQL stores here."""
    return "postgres"


def is_postgres(store: Store) -> bool:
    # Imported here: without psycopg, the server fixture skips (or fails) with a reason.
    from errdex.store.postgres import PostgresStore

    return isinstance(store, PostgresStore)


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
        assert is_postgres(store)


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
    assert is_postgres(filled)
    conn = filled._conn  # type: ignore[attr-defined]
    (pid,) = conn.execute("SELECT pg_backend_pid()").fetchone()
    pg_server.admin(f"SELECT pg_terminate_backend({pid})")

    with pytest.raises(StoreError, match=r"^database postgresql://"):
        filled.get_error(PIECEWISE.id)  # the call that finds the connection gone
    assert [s.id for s in filled.get_error(PIECEWISE.id)] == [PIECEWISE.id]
