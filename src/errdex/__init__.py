"""errdex: an index of every error a Python codebase can raise, searchable from a paste.

The public API is what this module exports; everything else is private to the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from errdex.errors import ErrdexError, InputError, NotFoundError, SourceError, StoreError

if TYPE_CHECKING:
    from errdex.hook import install
    from errdex.indexing import IndexReport
    from errdex.match.results import Match

# `import errdex` stays cheap (the environment-wide hook imports it at every start of
# Python): these load on first use.
_LAZY = {
    "install": ("errdex.hook", "install"),
    "IndexReport": ("errdex.indexing", "IndexReport"),
    "Match": ("errdex.match.results", "Match"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'errdex' has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


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
    "load_ipython_extension",
    "lookup",
    "unload_ipython_extension",
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


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext errdex`: the matched error's summary under every cell's traceback."""
    from errdex.integrations.ipython import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """`%unload_ext errdex`."""
    from errdex.integrations.ipython import unload

    unload(ipython)
