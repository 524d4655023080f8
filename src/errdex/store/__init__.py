"""The store: indexed versions, their sites and files, in SQLite or PostgreSQL."""

from __future__ import annotations

import os
from pathlib import Path

from errdex.errors import NotFoundError, StoreError
from errdex.store.base import (
    AnalysisRecord,
    ProjectRecord,
    Store,
    StoredSite,
    VersionRecord,
    VersionRef,
    VersionStats,
)
from errdex.store.sqlite import SqliteStore

__all__ = [
    "AnalysisRecord",
    "ProjectRecord",
    "SqliteStore",
    "Store",
    "StoredSite",
    "VersionRecord",
    "VersionRef",
    "VersionStats",
    "default_location",
    "is_postgres_url",
    "open_store",
    "store_target",
]

ENV_VAR = "ERRDEX_DB"


def default_location() -> Path:
    """Where the database lives when neither an argument nor `ERRDEX_DB` names one."""
    import platformdirs  # imported here: start-up of lookup (a named database needs none)

    return Path(platformdirs.user_data_dir("errdex")) / "errdex.db"


def store_target(url_or_path: str | os.PathLike[str] | None = None) -> str:
    """The store `open_store` opens for this argument: a PostgreSQL URL as given, or the
    path of a SQLite file (with `~` expanded), or `:memory:`.

    The argument wins, then the `ERRDEX_DB` environment variable, then the user data
    directory.
    """
    target = os.fspath(url_or_path) if url_or_path else os.environ.get(ENV_VAR, "")
    if not target:
        target = os.fspath(default_location())
    scheme, sep, _ = target.partition("://")
    if sep:
        if is_postgres_url(target):
            return target
        raise StoreError(
            f"unsupported database URL scheme {scheme!r}: give a SQLite file path"
            " or a postgresql:// URL"
        )
    if target != ":memory:":
        target = os.fspath(Path(target).expanduser())
    return target


def is_postgres_url(target: str) -> bool:
    """`postgresql://`, `postgres://` or `postgresql+DRIVER://`."""
    scheme, sep, _ = target.partition("://")
    return bool(sep) and (scheme in ("postgresql", "postgres") or scheme.startswith("postgresql+"))


def open_store(url_or_path: str | os.PathLike[str] | None = None, *, create: bool = True) -> Store:
    """Open (creating and migrating as needed) the store at a path or URL (`store_target`).

    A `postgresql://` URL (or `postgres://`, `postgresql+psycopg://`) opens a PostgreSQL
    database, anything else without a scheme a SQLite file. Without `create`, a SQLite file
    that does not exist is a `NotFoundError`: reading it would leave an empty one behind.
    """
    target = store_target(url_or_path)
    if is_postgres_url(target):
        return _open_postgres(target)
    if not create and target != ":memory:" and not Path(target).exists():
        raise NotFoundError(
            f"no database at {target}: index something first (errdex index SOURCE),"
            " or name another with --db"
        )
    return SqliteStore(target)


def _open_postgres(url: str) -> Store:
    """A `PostgresStore`, or a `StoreError` saying how to get the driver it needs."""
    try:
        import psycopg  # noqa: F401
    except ImportError as error:
        raise StoreError(
            f"PostgreSQL needs the psycopg driver: install errdex[postgres] ({error})"
        ) from error
    from errdex.store.postgres import PostgresStore

    return PostgresStore(url)
