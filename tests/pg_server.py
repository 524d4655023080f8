"""A throwaway PostgreSQL server for the tests: `initdb` into a temporary folder, started with
its unix socket there and a free loopback port, stopped and removed at the end. Each test
gets a schema of its own in one database (a schema takes milliseconds, a database a second).

PostgreSQL refuses to run as root. As root (CI is) the server runs as the unprivileged
`postgres` user that Debian's package creates, and that user owns the folder.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

DATABASE = "errdex_tests"
REQUIRE = "ERRDEX_REQUIRE_POSTGRES"  # "1": no server is a failure, not a skip (CI)
PASSWORD = "errdex-test-password"  # the `postgres` user's, over TCP; the socket trusts
SERVER_USER = "postgres"  # who runs the server when the tests run as root
# Durability is not what the tests check: skip the flushes.
FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60"


def bin_dir() -> Path | None:
    """The folder holding `initdb` and `pg_ctl`: on PATH, else Debian's newest."""
    on_path = shutil.which("pg_ctl")
    folders = [Path(on_path).parent] if on_path else []
    debian = Path("/usr/lib/postgresql").glob("*/bin")
    folders += sorted(debian, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)[
        ::-1
    ]
    for folder in folders:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def unavailable() -> str | None:
    """Why no server can be started here, or None when one can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[dev]')"
    if bin_dir() is None:
        return (
            "PostgreSQL server binaries (initdb, pg_ctl) are not on PATH nor under"
            " /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)"
        )
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"running as root, and there is no {SERVER_USER!r} user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root, and there is no runuser to run PostgreSQL as another user"
    return None


def server_folder() -> Path:
    """A new folder for the server's data and socket. As root it must be one the server's
    user can reach, and a socket's path must stay short (about 100 bytes): else under /tmp."""
    base = Path(tempfile.gettempdir())
    reachable = all(folder.stat().st_mode & 0o001 for folder in [base, *base.parents])
    if len(str(base)) > 60 or (os.geteuid() == 0 and not reachable):
        base = Path("/tmp")
    return Path(tempfile.mkdtemp(prefix="errdex-pg-", dir=base))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One running server; `new_database()` gives each test a database of its own."""

    def __init__(self) -> None:
        folder = bin_dir()
        assert folder is not None
        self.bin = folder
        self.root = server_folder()
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam(SERVER_USER)
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", SERVER_USER, "--"]
        self._names = itertools.count(1)

    def start(self) -> None:
        password = self.root / "password"
        password.write_text(PASSWORD + "\n")
        shutil.chown(password, *self._owner())
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-locale",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            f"--pwfile={password}",
            "--no-sync",
        )
        self._start()
        self.admin(f"CREATE DATABASE {DATABASE}", database="postgres")

    def _start(self) -> None:
        options = f"-k {self.root} -p {self.port} -h 127.0.0.1 {FAST}"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def restart(self) -> None:
        """Stop the server (its connections dropped, as by an upgrade or a failover) and
        start it again with the same options, on the same port. (`pg_ctl restart` would
        forget the log file and hold our captured output open.)"""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self._start()

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, schema: str | None = None, database: str = DATABASE) -> str:
        """A URL over the unix socket (trusted: no password), where tables are made in
        `schema` when one is named."""
        url = f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"
        return url + (f"&options=-csearch_path%3D{schema}" if schema else "")

    def tcp_url(self, password: str = PASSWORD) -> str:
        """A URL over loopback TCP, where the password is checked."""
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/{DATABASE}"

    def new_schema(self) -> str:
        """The URL of a new, empty schema: a store of its own."""
        name = f"test_{next(self._names)}"
        self.admin(f"CREATE SCHEMA {name}")
        return self.url(name)

    def admin(self, sql: str, database: str = DATABASE) -> list[tuple[object, ...]]:
        """Run one statement as the superuser; its rows, if any."""
        import psycopg

        with psycopg.connect(self.url(database=database), autocommit=True) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def _owner(self) -> tuple[str | int, str | int]:
        if not self.as_user:
            return os.getuid(), os.getgid()
        user = pwd.getpwnam(SERVER_USER)
        return user.pw_uid, user.pw_gid

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            [*self.as_user, str(self.bin / program), *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            log = self.log.read_text()[-3000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{log}".strip()
            )
