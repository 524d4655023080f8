"""An index run: the sources a command names, opened first, then indexed one after another
into one store, each version in its own transaction, with events for whoever shows progress."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from errdex.bugs import bug_line, show_traceback
from errdex.errors import ErrdexError, SourceError
from errdex.indexing import IndexReport, ProgressHook, index_source
from errdex.sources import installed_all, list_tags, open_sources
from errdex.sources.base import Source, VersionInfo
from errdex.store.base import Store

__all__ = ["open_run", "run_index", "tag_specs"]

# Called with every version of the run before any starts; as each version starts (giving
# the progress hook for it, or None); and when it is done.
Planned = Callable[[list[VersionInfo]], None]
Started = Callable[[VersionInfo], ProgressHook | None]
Finished = Callable[[IndexReport], None]


def tag_specs(repo: str, pattern: str) -> list[str]:
    """`REPO@TAG` for each tag of the repository `repo` matching `pattern`, oldest first."""
    tags = list_tags(repo, pattern)
    if not tags:
        raise SourceError(f"no tag of {repo} matches {pattern!r}")
    return [f"{repo}@{tag}" for tag in tags]


def open_run(
    specs: Sequence[str],
    *,
    project: str | None = None,
    version: str | None = None,
    tags: str | None = None,
    installed: bool = False,
) -> list[Source]:
    """Every source of the run, opened before any is indexed (a bad one fails the run
    before anything is written): each spec (with `tags`, each of its tags matching that
    glob, named by the tag), then with `installed` every distribution installed here."""
    sources: list[Source] = []
    for spec in specs:
        if tags is not None:
            sources.extend(
                s for t in tag_specs(spec, tags) for s in open_sources(t, project=project)
            )
        else:
            sources.extend(open_sources(spec, project=project, version=version))
    if installed:
        sources.extend(installed_all())
    return sources


def run_index(
    store: Store,
    sources: Sequence[Source],
    *,
    workers: int | None = None,
    force: bool = False,
    planned: Planned | None = None,
    started: Started | None = None,
    finished: Finished | None = None,
) -> list[IndexReport]:
    """Index each source in turn; `planned` hears of them all first, `started` and
    `finished` of each version.

    A version that fails with an error of errdex's own (a bug, no `ErrdexError`) is not
    written (its transaction rolls back): its report says so in `error`, and the run goes
    on with the next version.
    """
    if planned is not None:
        planned([source.info for source in sources])
    reports: list[IndexReport] = []
    for source in sources:
        progress = started(source.info) if started is not None else None
        try:
            report = index_source(source, store, workers=workers, progress=progress, force=force)
        except (ErrdexError, MemoryError):
            raise
        except Exception as error:
            show_traceback(error)
            report = _failed(source.info, error)
        reports.append(report)
        if finished is not None:
            finished(report)
    return reports


def _failed(info: VersionInfo, error: Exception) -> IndexReport:
    """The report of a version that errdex failed to index, with the line that says why."""
    what = f"indexing {info.project} {info.version}"
    return IndexReport(
        project=info.project,
        version=info.version,
        revision=info.revision,
        files=0,
        parsed=0,
        cached=0,
        sites=0,
        kinds={},
        skipped=[],
        seconds=0.0,
        error=bug_line(error, what),
    )
