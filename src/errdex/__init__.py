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

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from errdex.errors import ErrdexError, InputError, NotFoundError, SourceError, StoreError

if TYPE_CHECKING:
    from errdex.answers import PasteAnswer
    from errdex.explain.model.enrich import EnrichReport, ExplainedError
    from errdex.explain.page import Page
    from errdex.history.diff import VersionDiff
    from errdex.hook import install
    from errdex.indexing import IndexReport
    from errdex.indexing.cluster import ClusterRun
    from errdex.match.results import LookupAnswer, Match, MatchRecord
    from errdex.render.records import FilePage, ProjectList, ProjectPage, SiteRecord
    from errdex.sources.base import VersionInfo
    from errdex.store.base import Store

# `import errdex` stays cheap (the environment-wide hook imports it at every start of
# Python): these load on first use.
_LAZY = {
    "install": ("errdex.hook", "install"),
    "ClusterRun": ("errdex.indexing.cluster", "ClusterRun"),
    "EnrichReport": ("errdex.explain.model.enrich", "EnrichReport"),
    "ExplainedError": ("errdex.explain.model.enrich", "ExplainedError"),
    "FilePage": ("errdex.render.records", "FilePage"),
    "IndexReport": ("errdex.indexing", "IndexReport"),
    "LookupAnswer": ("errdex.match.results", "LookupAnswer"),
    "Match": ("errdex.match.results", "Match"),
    "MatchRecord": ("errdex.match.results", "MatchRecord"),
    "Page": ("errdex.explain.page", "Page"),
    "PasteAnswer": ("errdex.answers", "PasteAnswer"),
    "ProjectList": ("errdex.render.records", "ProjectList"),
    "ProjectPage": ("errdex.render.records", "ProjectPage"),
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
    "ClusterRun",
    "EnrichReport",
    "ErrdexError",
    "ExplainedError",
    "FilePage",
    "IndexReport",
    "InputError",
    "LookupAnswer",
    "Match",
    "MatchRecord",
    "NotFoundError",
    "Page",
    "PasteAnswer",
    "ProjectList",
    "ProjectPage",
    "SiteRecord",
    "SourceError",
    "StoreError",
    "VersionDiff",
    "answer",
    "diff",
    "diff_git",
    "explain_error",
    "explain_project",
    "index",
    "index_cluster",
    "install",
    "list_projects",
    "list_sites",
    "load_ipython_extension",
    "lookup",
    "newest_version",
    "read_file",
    "search",
    "show",
    "show_file",
    "show_project",
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
    source: str | Sequence[str] = (),
    *,
    db: str | Store | None = None,
    project: str | None = None,
    version: str | None = None,
    workers: int | None = None,
    force: bool = False,
    tags: str | None = None,
    installed: bool = False,
    planned: Callable[[list[VersionInfo]], None] | None = None,
    started: Callable[[VersionInfo], Callable[[str, int, int], None] | None] | None = None,
    finished: Callable[[IndexReport], None] | None = None,
) -> list[IndexReport]:
    """Index each source (directory, PATH@REV, URL@REV, archive, NAME==VERSION,
    installed:NAME); with `tags`, each tag of the git repository `source` that matches that
    glob, oldest first; with `installed`, every distribution installed here too. Every
    source is opened before any is indexed; `planned` gets the versions then. `started`
    hears of each version as it starts and may give a progress hook for it, `(stage,
    advance, total)`; `finished` gets its report. A version errdex fails on (a bug of its
    own) is not written: its report's `error` says why, and the next version is indexed."""
    from errdex.indexing.runs import open_run, run_index

    specs = [source] if isinstance(source, str) else list(source)
    if tags is not None and version is not None:
        raise InputError("tags name their versions: give tags or version, not both")
    sources = open_run(specs, project=project, version=version, tags=tags, installed=installed)
    with _opened(db, create=True) as store:
        return run_index(
            store,
            sources,
            workers=workers,
            force=force,
            planned=planned,
            started=started,
            finished=finished,
        )


def index_cluster(
    source: str | Sequence[str],
    scheduler: str,
    *,
    db: str | None = None,
    project: str | None = None,
    version: str | None = None,
    force: bool = False,
    tags: str | None = None,
    connect_timeout: float = 10.0,
) -> ClusterRun:
    """Index each source (with `tags`, each matching tag of it) as one task on the Dask
    cluster whose scheduler is at `scheduler`, into `db`, which every worker must reach;
    the results come as the versions complete (a failed one is a result with its error)."""
    from errdex.indexing.cluster import ClusterRun, index_on_cluster
    from errdex.indexing.runs import tag_specs

    specs = [source] if isinstance(source, str) else list(source)
    if tags is not None:
        specs = [spec for repo in specs for spec in tag_specs(repo, tags)]
    results = index_on_cluster(
        specs,
        scheduler,
        db,
        project=project,
        version=version,
        force=force,
        connect_timeout=connect_timeout,
    )
    return ClusterRun(sources=specs, results=results)


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


def answer(
    text: str,
    *,
    db: str | Store | None = None,
    project: str | None = None,
    version: str | None = None,
    release: str | None = None,
    limit: int = 5,
    auto_index: bool = True,
    partial_first: bool = True,
    pages: bool = False,
    announce: Callable[[str], None] | None = None,
    answered: Callable[[PasteAnswer], None] | None = None,
) -> PasteAnswer:
    """A paste answered where the error happened: the installed packages its traceback or
    `project` names are indexed first (into a new database, even); with `partial_first`,
    from the files the paste needs, and `answered` gets the answer before the rest of those
    files are indexed (called with Python's cyclic garbage collector paused, as answering
    runs: a callback that makes much should be quick or hand the work on). So is
    `release` (`NAME==VERSION`, read from its archive, downloaded once, never installed),
    or a release the paste states that is not the one installed here. With `pages`, the
    best match's page and source file come with it. `announce` hears of each package
    indexed on the way. Raises `NotFoundError` when there is nothing
    to search."""
    from errdex.answers import answer_for_reader
    from errdex.match.answer import may_index
    from errdex.match.paste import parse_paste

    evidence = parse_paste(text)
    auto_index = auto_index and may_index(evidence, project, release)
    with _opened(db, create=auto_index) as store:
        return answer_for_reader(
            store,
            evidence,
            text=text,
            project=project,
            version=version,
            release=release,
            limit=limit,
            auto_index=auto_index,
            partial_first=partial_first,
            pages=pages,
            announce=announce,
            answered=answered,
        )


def search(
    text: str,
    *,
    db: str | Store | None = None,
    project: str | None = None,
    version: str | None = None,
    limit: int = 5,
    pages: bool = False,
) -> PasteAnswer:
    """A paste searched in the catalog as it is (nothing indexed): the ranked matches, the
    nearest templates when none, and with `pages` the best match's page and source file."""
    from errdex.answers import search_catalog

    with _opened(db) as store:
        return search_catalog(
            store, text, project=project, version=version, limit=limit, pages=pages
        )


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


def show_project(
    project: str, *, db: str | Store | None = None, version: str | None = None
) -> ProjectPage:
    """One project: its versions, and one version's errors counted (default: the newest)."""
    from errdex.catalog import project_view

    with _opened(db) as store:
        return project_view(store, project, version)


def show_file(project: str, version: str, path: str, *, db: str | Store | None = None) -> FilePage:
    """The error sites of one file (its path inside the project) of a version."""
    from errdex.catalog import file_view

    with _opened(db) as store:
        return file_view(store, project, version, path)


def read_file(
    project: str, version: str, path: str, *, db: str | Store | None = None
) -> str | None:
    """The text of one indexed file of a version, as it was indexed; None when not kept."""
    with _opened(db) as store:
        return store.file_text((project, version), path)


def newest_version(project: str, *, db: str | Store | None = None) -> str | None:
    """The label of the newest indexed version of `project`; None when it has none."""
    with _opened(db) as store:
        versions = store.versions(project)
        return versions[0].label if versions else None


def diff(project: str, old: str, new: str, *, db: str | Store | None = None) -> VersionDiff:
    """The errors version `new` of `project` added, removed, reworded and moved since `old`."""
    from errdex.history import diff_versions

    with _opened(db) as store:
        return diff_versions(store, project, old, new)


def diff_git(
    repo: str, old: str, new: str | None = None, *, db: str | Store | None = None
) -> VersionDiff:
    """The errors revision `new` of the git repository `repo` (None: its working tree) added,
    removed, reworded and moved since revision `old`; both are indexed first, into `db`, or
    with no `db` into a database of the call's own that is gone after."""
    import contextlib
    import tempfile
    from pathlib import Path

    from errdex.history.gate import diff_revisions

    with contextlib.ExitStack() as stack:
        if db is None:
            db = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "diff.db")
        store = stack.enter_context(_opened(db, create=True))
        return diff_revisions(store, repo, old, new)


def explain_error(
    error_id: str,
    *,
    llm_url: str,
    llm_model: str,
    db: str | Store | None = None,
    version: str | None = None,
    refresh: bool = False,
) -> ExplainedError:
    """Let the model at the OpenAI-compatible `llm_url` write the prose of one error's page
    from its facts (an answer citing code the index lacks is rejected); cached, unless
    `refresh`. The key comes from `$ERRDEX_LLM_API_KEY`."""
    from errdex.explain.model.client import ChatClient
    from errdex.explain.model.enrich import explain_error

    with _opened(db) as store, ChatClient(llm_url, llm_model) as chat:
        return explain_error(store, error_id, chat, version, refresh=refresh)


def explain_project(
    project: str,
    *,
    llm_url: str,
    llm_model: str,
    db: str | Store | None = None,
    version: str | None = None,
    concurrency: int = 4,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EnrichReport:
    """`explain_error` for every error of a version of `project` (default: the newest),
    `concurrency` at a time, at most `limit`; a run resumes where the last stopped.
    `progress(done, total)` hears of each error."""
    from errdex.explain.model.client import ChatClient
    from errdex.explain.model.enrich import enrich_version

    with _opened(db) as store, ChatClient(llm_url, llm_model) as chat:
        return enrich_version(
            store, project, chat, version, concurrency=concurrency, limit=limit, progress=progress
        )


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext errdex`: the matched error's summary under every cell's traceback."""
    from errdex.integrations.ipython import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """`%unload_ext errdex`."""
    from errdex.integrations.ipython import unload

    unload(ipython)
