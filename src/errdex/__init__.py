"""errdex: an index of every error a Python codebase can raise, searchable from a paste.

The public API is what this module exports; everything else is private to the package.
"""

from __future__ import annotations

from errdex.errors import ErrdexError, InputError, NotFoundError, SourceError, StoreError
from errdex.hook import install
from errdex.indexing import IndexReport
from errdex.match.results import Match

__all__ = [
    "ErrdexError",
    "IndexReport",
    "InputError",
    "Match",
    "NotFoundError",
    "SourceError",
    "StoreError",
    "index",
    "install",
    "lookup",
]


def index(
    source: str,
    *,
    db: str | None = None,
    project: str | None = None,
    version: str | None = None,
    workers: int | None = None,
) -> list[IndexReport]:
    """Index a source (directory, PATH@REV, archive, NAME==VERSION, installed:NAME)."""
    from errdex.indexing import index_source
    from errdex.sources import open_sources
    from errdex.store import open_store

    store = open_store(db)
    try:
        return [
            index_source(s, store, workers=workers)
            for s in open_sources(source, project=project, version=version)
        ]
    finally:
        store.close()


def lookup(
    text: str,
    *,
    db: str | None = None,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
) -> list[Match]:
    """The sites that raised what `text` shows (a message, a traceback, a log line), best first."""
    from errdex.match import lookup_text
    from errdex.store import open_store

    store = open_store(db)
    try:
        return lookup_text(store, text, project=project, version=version, limit=limit).matches
    finally:
        store.close()
