"""errdex: an index of every error a Python codebase can raise, searchable from a paste.

The public API is what this module exports; everything else is private to the package.
Every function opens the database named by `db` (a SQLite path or a `postgresql://` URL;
None: `$ERRDEX_DB`, else the user's data folder) and closes it again, or uses an open
`Store` as it is. Each returns typed records (msgspec Structs, encoded by
`errdex.render.json`) and raises an `ErrdexError` child for anything it cannot do:

    ErrdexError
    ├── SourceError      a source that cannot be read
    ├── StoreError       the database cannot be opened, migrated or written
    ├── NotFoundError    an id, project or version that is not in the database
    └── InputError       input that errdex will not take
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from errdex.errors import ErrdexError, InputError, NotFoundError, SourceError, StoreError

if TYPE_CHECKING:
    from errdex.explain.page import Page
    from errdex.history.diff import VersionDiff
    from errdex.hook import install
    from errdex.indexing import IndexReport
    from errdex.match.results import LookupAnswer, Match, MatchRecord
    from errdex.render.records import ProjectList, SiteRecord
    from errdex.store.base import Store

# `import errdex` stays cheap (the environment-wide hook imports it at every start of
# Python): these load on first use.
_LAZY = {
    "install": ("errdex.hook", "install"),
    "IndexReport": ("errdex.indexing", "IndexReport"),
    "LookupAnswer": ("errdex.match.results", "LookupAnswer"),
    "Match": ("errdex.match.results", "Match"),
    "MatchRecord": ("errdex.match.results", "MatchRecord"),
    "Page": ("errdex.explain.page", "Page"),
    "ProjectList": ("errdex.render.records", "ProjectList"),
    "SiteRecord": ("errdex.render.records", "SiteRecord"),
    "VersionDiff": ("errdex.history.diff", "VersionDiff"),
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
    "LookupAnswer",
    "Match",
    "MatchRecord",
    "NotFoundError",
    "Page",
    "ProjectList",
    "SiteRecord",
    "SourceError",
    "StoreError",
    "VersionDiff",
    "diff",
    "index",
    "install",
    "list_projects",
    "list_sites",
    "load_ipython_extension",
    "lookup",
    "show",
    "unload_ipython_extension",
]


@contextmanager
def _opened(db: str | Store | None, *, create: bool = False) -> Iterator[Store]:
    """The store `db` names, closed after; an open store as it is, left open. Only what
    writes versions (`create`) makes a new database: reading a missing one is a
    `NotFoundError`, and leaves no empty file behind."""
    from errdex.store import open_store
    from errdex.store.base import Store

    if isinstance(db, Store):
        yield db
        return
    store = open_store(db, create=create)
    try:
        yield store
    finally:
        store.close()


def index(
    source: str,
    *,
    db: str | Store | None = None,
    project: str | None = None,
    version: str | None = None,
    workers: int | None = None,
    force: bool = False,
) -> list[IndexReport]:
    """Index a source (directory, PATH@REV, archive, NAME==VERSION, installed:NAME)."""
    from errdex.indexing import index_source
    from errdex.sources import open_sources

    with _opened(db, create=True) as store:
        return [
            index_source(s, store, workers=workers, force=force)
            for s in open_sources(source, project=project, version=version)
        ]


def lookup(
    text: str,
    *,
    db: str | Store | None = None,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
) -> list[Match]:
    """The sites that raised what `text` shows (a message, a traceback, a log line), best first."""
    from errdex.match import lookup_text

    with _opened(db) as store:
        return lookup_text(store, text, project=project, version=version, limit=limit).matches


def show(error_id: str, *, db: str | Store | None = None, version: str | None = None) -> Page:
    """The page of one error by its 16-hex id: at `version`, else in its newest version."""
    from errdex.explain import build_page

    with _opened(db) as store:
        return build_page(store, error_id, version)


def list_sites(
    *,
    db: str | Store | None = None,
    project: str | None = None,
    version: str | None = None,
    file: str | None = None,
    limit: int | None = None,
) -> list[SiteRecord]:
    """The indexed error sites, optionally of one project, version or file."""
    from errdex.render.records import site_record

    with _opened(db) as store:
        sites = store.list_sites(project=project, version=version, file=file, limit=limit)
        return [site_record(s) for s in sites]


def list_projects(*, db: str | Store | None = None) -> ProjectList:
    """Every indexed project, with its versions and the newest one's counts."""
    from errdex.catalog import projects_view

    with _opened(db) as store:
        return projects_view(store)


def diff(project: str, old: str, new: str, *, db: str | Store | None = None) -> VersionDiff:
    """The errors version `new` of `project` added, removed, reworded and moved since `old`."""
    from errdex.history import diff_versions

    with _opened(db) as store:
        return diff_versions(store, project, old, new)


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext errdex`: the matched error's summary under every cell's traceback."""
    from errdex.integrations.ipython import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """`%unload_ext errdex`."""
    from errdex.integrations.ipython import unload

    unload(ipython)
