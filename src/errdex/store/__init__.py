"""The store: indexed versions, their sites and files, in SQLite (PostgreSQL to come)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from errdex.errors import StoreError
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
    "open_store",
]

ENV_VAR = "ERRDEX_DB"


def default_location() -> Path:
    """Where the database lives when neither an argument nor `ERRDEX_DB` names one."""
    return Path(platformdirs.user_data_dir("errdex")) / "errdex.db"


def open_store(url_or_path: str | os.PathLike[str] | None = None) -> Store:
    """Open (creating and migrating as needed) the store at a path or URL.

    The argument wins, then the `ERRDEX_DB` environment variable, then the user data
    directory. `postgresql://` URLs are recognised but not supported yet.
    """
    target = os.fspath(url_or_path) if url_or_path else os.environ.get(ENV_VAR, "")
    if not target:
        target = os.fspath(default_location())
    scheme, sep, _ = target.partition("://")
    if sep:
        if scheme in ("postgresql", "postgres") or scheme.startswith("postgresql+"):
            raise StoreError("PostgreSQL is not supported yet")
        raise StoreError(f"unsupported database URL scheme {scheme!r}: give a SQLite file path")
    if target != ":memory:":
        target = os.fspath(Path(target).expanduser())
    return SqliteStore(target)
